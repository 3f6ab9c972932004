/**
 * The distributed topology on loopback, without Docker (`npm run cluster`):
 * three nats-server processes as a JetStream cluster, two table workers and
 * a gateway, each its own process, as docker-compose.yml runs them in
 * containers (drivers/serviceProcesses.ts starts them, as it does for the
 * soak). Prints where everything listens; Ctrl-C stops it all. The
 * cluster's files live in temporary folders and go when it stops.
 *
 * Secured as production is: the servers take only TLS connections from the
 * deployment's identities, with throw-away secrets made for this run (a
 * CA, the servers' certificate, an NKey per identity); it prints the admin
 * identity's settings for the CLI and tools, and shows that a client
 * without credentials is refused.
 *
 * Then it walks through what the operator sees (clusterWalkthrough.ts):
 * where to open the operator's page and the admin token to sign in with,
 * a few tables of bots, one person's command traced from the gateway to the
 * worker's append (SUITORS_TRACING=stdout, unless set otherwise), and every
 * 2 s which worker holds which tables; kill a worker and its tables move.
 *
 * PORT (--port, 3000): the gateway's port. --tables (4): tables of bots to
 * watch. --kill-worker-after S: SIGKILL worker-1 S seconds after both
 * workers hold tables (off by default). SUITORS_ADMIN_TOKEN (made for the
 * run when unset), LEASE_TTL_MS (--lease-ttl-ms), SUITORS_BOT_DELAY_MS and
 * LOG_LEVEL are passed on.
 */
import { randomBytes } from 'node:crypto';
import { connectBatched } from '../services/nats/turnBatchedConnect.js';
import { readFlags, wholeNumber } from '../drivers/flags.js';
import { SpanPrintout } from '../drivers/printedSpans.js';
import { startServiceProcesses, type ServiceProcesses } from '../drivers/serviceProcesses.js';
import { walkThrough } from './clusterWalkthrough.js';

const {
  port,
  'lease-ttl-ms': leaseTtlMs,
  tables,
  'kill-worker-after': killWorkerAfter,
} = readFlags(
  {
    port: wholeNumber({ env: 'PORT', default: 3000, zero: true }),
    'lease-ttl-ms': wholeNumber({ env: 'LEASE_TTL_MS' }),
    tables: wholeNumber({ default: 4, zero: true }),
    'kill-worker-after': wholeNumber({ zero: true }),
  },
  'npm run cluster [-- --port P --lease-ttl-ms L --tables N --kill-worker-after S]',
);
// The gateway and workers take their settings from this environment (asConfigured below).
process.env.SUITORS_ADMIN_TOKEN ??= randomBytes(18).toString('base64url');
const adminToken = process.env.SUITORS_ADMIN_TOKEN;
process.env.SUITORS_TRACING ??= 'stdout';
/** The gateway's printed spans: kept off the console, read for the trace the walkthrough shows. */
const gatewaySpans = new SpanPrintout();

let service: ServiceProcesses | null = null;
let stopping: Promise<void> | null = null;
/** Stops the gateway, then the workers, then NATS; a second Ctrl-C waits for the first to finish. */
async function stopAll(code: number): Promise<never> {
  stopping ??= (async () => {
    console.log('\nstopping the gateway, the workers and the cluster…');
    await service?.stop();
  })();
  await stopping;
  process.exit(code);
}
// Its children are out of Ctrl-C's reach: if this script ends any way but through stopAll, they must not outlive it.
process.on('exit', () => {
  const pids = [...(service?.processes().map((each) => each.pid) ?? []), ...(service?.nats?.nodes.map((node) => node.process?.pid) ?? [])];
  for (const pid of pids) {
    if (pid === undefined) continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already stopped.
    }
  }
});
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

try {
  service = await startServiceProcesses(
    'nats',
    {
      workers: 2,
      gateways: 1,
      port,
      ...(leaseTtlMs === undefined ? {} : { leaseTtlMs }),
      asConfigured: true,
      // Ctrl-C reaches only this script, which stops the gateway first, while NATS still takes its last saves.
      ownProcessGroups: true,
      onLine: (name, line) => {
        if (!gatewaySpans.take(line)) console.log(`[${name}] ${line}`);
      },
    },
    (line) => console.log(line),
  );
  const [gateway] = service.gateways;
  gateway.child.once('exit', (code, signal) => {
    if (stopping !== null) return;
    console.log(`the gateway exited (${signal ?? code}); stopping the rest`);
    void stopAll(1);
  });
  const nats = service.nats!;
  console.log('');
  console.log(`gateway:  ${gateway.baseUrl}  (API docs ${gateway.baseUrl}/docs, metrics ${gateway.baseUrl}/metrics)`);
  console.log(`the operator's page: ${gateway.baseUrl}/#/operator  (sign in with the admin token ${adminToken})`);
  console.log(
    `workers:  ${service
      .liveWorkers()
      .map((worker) => `${worker.workerId} (pid ${worker.child.pid})`)
      .join(', ')}`,
  );
  nats.nodes.forEach((node) =>
    console.log(`nats ${node.name}:  ${node.url}  (monitoring http://127.0.0.1:${node.monitorPort}, pid ${node.process?.pid})`),
  );
  const admin = nats.env('admin');
  console.log('as the admin identity (npx suitors, nats tools):');
  console.log(`  NATS_URL=${admin.NATS_URL} NATS_CREDS=${admin.NATS_CREDS} NATS_CA=${admin.NATS_CA}`);
  console.log(`an anonymous client: ${await anonymousAnswer(nats.urls, admin.NATS_CA)}`);
  console.log('Ctrl-C stops everything.');
  await walkThrough({ service, adminToken, tables, killWorkerAfter, gatewaySpans, say: console.log, stopped: () => stopping !== null });
} catch (error) {
  console.error('the cluster could not start:', error);
  await stopAll(1);
}

/** What the cluster answers a client with no credentials: refused, with the server's reason. */
async function anonymousAnswer(urls: string, caFile: string | undefined): Promise<string> {
  try {
    const nc = await connectBatched({
      servers: urls.split(','),
      tls: caFile === undefined ? null : { caFile },
      maxReconnectAttempts: 0,
      timeout: 3000,
    });
    await nc.close();
    return 'ACCEPTED: this cluster is open to anyone';
  } catch (error) {
    return `refused (${(error as Error).message})`;
  }
}
