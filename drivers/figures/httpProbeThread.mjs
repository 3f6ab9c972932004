// The HTTP probe's own thread (httpProbe.ts): a GET every `everyMs` on a new connection, timed by a thread
// that does nothing else, so the load generator's busy event loop is not in the figures.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { everyMs, countFrom, timeoutMs } = workerData;
/** Milliseconds since the epoch: the main thread's clock and this one's (performance.now() differs by thread). */
const now = () => performance.timeOrigin + performance.now();
const figures = { latencies: [], connectLatencies: [], answerLatencies: [], failures: 0 };
let urls = [];
let next = 0;

function probe() {
  if (urls.length === 0) return;
  const url = urls[next++ % urls.length];
  const started = now();
  const counted = started >= countFrom;
  let connectedAt = Number.NaN;
  const request = http.get(url, { agent: false, timeout: timeoutMs }, (response) => {
    response.on('data', () => undefined);
    response.on('end', () => {
      if (!counted) return;
      if (response.statusCode !== 200) {
        figures.failures++;
        return;
      }
      const ended = now();
      figures.latencies.push(ended - started);
      figures.connectLatencies.push(connectedAt - started);
      figures.answerLatencies.push(ended - connectedAt);
    });
    response.on('error', () => counted && figures.failures++);
  });
  request.on('socket', (socket) => socket.once('connect', () => (connectedAt = now())));
  request.on('timeout', () => request.destroy(new Error('no answer')));
  request.on('error', () => counted && figures.failures++);
}

const timer = setInterval(probe, everyMs);
parentPort.on('message', (message) => {
  if (message.urls !== undefined) urls = message.urls;
  if (message.stop === true) {
    clearInterval(timer);
    parentPort.postMessage(figures);
  }
});
