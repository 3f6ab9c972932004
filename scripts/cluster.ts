/**
 * The distributed topology on loopback, without Docker (`npm run cluster`):
 * three nats-server processes as a JetStream cluster, two table workers and
 * a gateway, each its own process, as docker-compose.yml runs them in
 * containers. Prints where everything listens; Ctrl-C stops it all. The
 * cluster's files live in temporary folders and go when it stops.
 *
 * PORT (3000): the gateway's port. LEASE_TTL_MS, SUITORS_BOT_DELAY_MS and
 * LOG_LEVEL are passed on.
 */
import { startGatewayProcess, type GatewayProcess } from '../drivers/gatewayProcess.js';
import { startLocalNats } from '../services/nats/localNats.js';
import { startWorkerProcess, type WorkerProcess } from '../services/worker/workerProcess.js';

const port = Number(process.env.PORT ?? '3000');

console.log('starting 3 nats-server processes (a JetStream cluster on loopback)…');
const nats = await startLocalNats(3);
const workers: WorkerProcess[] = [];
let gateway: GatewayProcess | null = null;

let stopping: Promise<void> | null = null;
/** Stops the gateway, then the workers, then NATS; a second Ctrl-C waits for the first to finish. */
async function stopAll(code: number): Promise<never> {
  stopping ??= (async () => {
    console.log('\nstopping the gateway, the workers and the cluster…');
    await gateway?.stop();
    await Promise.allSettled(workers.map((worker) => worker.stop()));
    await nats.stop();
  })();
  await stopping;
  process.exit(code);
}
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

try {
  for (const workerId of ['worker-1', 'worker-2']) {
    console.log(`starting table worker ${workerId}…`);
    workers.push(
      await startWorkerProcess({
        natsUrl: nats.urls,
        workerId,
        replicas: 3,
        ...(process.env.LEASE_TTL_MS ? { leaseTtlMs: Number(process.env.LEASE_TTL_MS) } : {}),
        onLog: (line) => console.log(`[${workerId}] ${line}`),
      }),
    );
  }
  console.log('starting the gateway…');
  const started = await startGatewayProcess(
    { nats: { urls: nats.urls, replicas: 3 } },
    { port, asConfigured: true, onLine: (line) => console.log(`[gateway] ${line}`) },
  );
  gateway = started;
  started.child.once('exit', (code, signal) => {
    if (stopping !== null) return;
    console.log(`the gateway exited (${signal ?? code}); stopping the rest`);
    void stopAll(1);
  });
  const gatewayUrl = started.baseUrl;
  console.log('');
  console.log(`gateway:  ${gatewayUrl}  (API docs ${gatewayUrl}/docs, metrics ${gatewayUrl}/metrics)`);
  console.log(`workers:  ${workers.map((worker) => `${worker.workerId} (pid ${worker.child.pid})`).join(', ')}`);
  nats.nodes.forEach((node) =>
    console.log(`nats ${node.name}:  ${node.url}  (monitoring http://127.0.0.1:${node.monitorPort}, pid ${node.process?.pid})`),
  );
  console.log(`NATS_URL=${nats.urls}`);
  console.log('Ctrl-C stops everything.');
} catch (error) {
  console.error('the cluster could not start:', error);
  await stopAll(1);
}
