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
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startLocalNats } from '../services/nats/localNats.js';
import { startWorkerProcess, type WorkerProcess } from '../services/worker/workerProcess.js';

const GATEWAY = fileURLToPath(new URL('../services/gateway/distributed.ts', import.meta.url));
const port = process.env.PORT ?? '3000';

console.log('starting 3 nats-server processes (a JetStream cluster on loopback)…');
const nats = await startLocalNats(3);
const workers: WorkerProcess[] = [];
let gateway: ChildProcess | null = null;

let stopping: Promise<void> | null = null;
/** Stops the gateway, then the workers, then NATS; a second Ctrl-C waits for the first to finish. */
async function stopAll(code: number): Promise<never> {
  stopping ??= (async () => {
    console.log('\nstopping the gateway, the workers and the cluster…');
    if (gateway !== null && gateway.exitCode === null && gateway.signalCode === null) {
      const exited = new Promise((resolve) => gateway!.once('exit', resolve));
      gateway.kill('SIGTERM');
      await exited;
    }
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
  const gatewayUrl = await startGateway();
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

function startGateway(): Promise<string> {
  const tsx = createRequire(import.meta.url).resolve('tsx');
  const child = spawn(process.execPath, ['--import', tsx, GATEWAY], {
    env: { ...process.env, NATS_URL: nats.urls, NATS_REPLICAS: '3', PORT: port },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  gateway = child;
  createInterface({ input: child.stderr! }).on('line', (line) => console.log(`[gateway] ${line}`));
  let ready = false;
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const listening = /gateway on (http:\/\/\S+)/.exec(line);
      if (listening === null) return console.log(`[gateway] ${line}`);
      ready = true;
      resolve(listening[1]);
    });
    child.once('exit', (code, signal) => {
      if (!ready) return reject(new Error(`the gateway exited (${signal ?? code}) before it was listening`));
      if (stopping === null) {
        console.log(`the gateway exited (${signal ?? code}); stopping the rest`);
        void stopAll(1);
      }
    });
  });
}
