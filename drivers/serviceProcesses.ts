/**
 * The whole service as child processes on loopback: the embedded default
 * (services/main.ts on a temporary SQLite file), or the distributed
 * topology — a 3-node JetStream cluster (localNats.ts), table
 * workers (workerProcess.ts) and distributed gateways
 * (gatewayProcess.ts). `npm run cluster` runs the distributed one for
 * people to use; the soak plays against either, and the chaos run kills
 * its processes and starts them again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGatewayProcess, type GatewayProcess } from './gatewayProcess.js';
import { startLocalNats, type LocalNats } from './localNats.js';
import { startWorkerProcess, type WorkerProcess } from './workerProcess.js';

export type Backend = 'embedded' | 'nats';

export interface ServiceSettings {
  /** SUITORS_IDLE_SECONDS of every gateway and worker: how long a table goes without a command before it leaves memory (default theirs). */
  readonly idleSeconds?: number;
  /** NATS only: table workers and gateways to start (2 and 1). */
  readonly workers?: number;
  readonly gateways?: number;
  /** NATS only: LEASE_TTL_MS of the workers (default theirs, 3000). */
  readonly leaseTtlMs?: number;
  /** The first gateway's port (default: one the OS picks). */
  readonly port?: number;
  /** The gateways take their settings from this process's environment, as an operator's would, instead of being set up to be measured (gatewayProcess.ts). */
  readonly asConfigured?: boolean;
  /** Each log line of a gateway or worker, with the process's name (`gateway`, `worker-1`). */
  readonly onLine?: (name: string, line: string) => void;
  /** Every process in a process group of its own, stopped by stop() alone (processGroups.ts). */
  readonly ownProcessGroups?: boolean;
}

/** A process of the service, for figures: its name, pid, and /metrics where it has one. */
interface ServiceProcess {
  readonly name: string;
  readonly pid: number;
  readonly metricsUrl: string | null;
}

export interface ServiceProcesses {
  readonly backend: Backend;
  /** Gateway slots: `gateways[i]` is the process serving as gateway i now (a restarted one takes its slot). */
  readonly gateways: GatewayProcess[];
  /** Workers started so far, dead ones included (the chaos run kills them). */
  readonly workers: WorkerProcess[];
  readonly nats: LocalNats | null;
  /** The processes alive now, gateways first. */
  processes(): ServiceProcess[];
  liveWorkers(): WorkerProcess[];
  /**
   * The port of the gateway for seat `seat` of table `index` (its setup: no
   * seat): one of the gateways up now, the seats of a table spread over them,
   * so each gateway's sockets must hear of moves made through the others.
   */
  gatewayPortFor(index: number, seat?: number): number;
  /** NATS only: one more worker, named worker-<n>. */
  startWorker(): Promise<WorkerProcess>;
  /** Starts gateway slot `index` again on the port it had (after it was killed). */
  restartGateway(index: number): Promise<GatewayProcess>;
  stop(): Promise<void>;
}

function isAlive(process: { exitCode: number | null; signalCode: NodeJS.Signals | null }): boolean {
  return process.exitCode === null && process.signalCode === null;
}

export async function startServiceProcesses(
  backend: Backend,
  settings: ServiceSettings,
  log: (line: string) => void,
): Promise<ServiceProcesses> {
  const env = settings.idleSeconds === undefined ? {} : { SUITORS_IDLE_SECONDS: String(settings.idleSeconds) };
  const gateways: GatewayProcess[] = [];
  const workers: WorkerProcess[] = [];
  let nats: LocalNats | null = null;
  let directory: string | null = null;

  const natsBackend = () => ({ nats: { env: nats!.env('gateway'), replicas: 3 } });
  const startWorker = async (): Promise<WorkerProcess> => {
    if (nats === null) throw new Error('the embedded service has no workers');
    const workerId = `worker-${workers.length + 1}`;
    const worker = await startWorkerProcess({
      natsEnv: nats.env('worker'),
      workerId,
      replicas: 3,
      ...(settings.idleSeconds === undefined ? {} : { idleSeconds: settings.idleSeconds }),
      ...(settings.leaseTtlMs === undefined ? {} : { leaseTtlMs: settings.leaseTtlMs }),
      ...(settings.ownProcessGroups ? { ownProcessGroup: true } : {}),
      ...(settings.onLine === undefined ? {} : { onLog: (line: string) => settings.onLine!(workerId, line) }),
    });
    workers.push(worker);
    return worker;
  };

  const gatewayName = (index: number) => ((settings.gateways ?? 1) === 1 ? 'gateway' : `gateway-${index + 1}`);
  const startGateway = (backendOf: Parameters<typeof startGatewayProcess>[0], index: number, port?: number) =>
    startGatewayProcess(backendOf, {
      env,
      ...(port === undefined ? {} : { port }),
      ...(settings.asConfigured ? { asConfigured: true } : {}),
      ...(settings.ownProcessGroups ? { ownProcessGroup: true } : {}),
      ...(settings.onLine === undefined ? {} : { onLine: (line: string) => settings.onLine!(gatewayName(index), line) }),
    });

  const service: ServiceProcesses = {
    backend,
    gateways,
    workers,
    get nats() {
      return nats;
    },
    processes() {
      const alive: ServiceProcess[] = gateways
        .map((gateway, index) => ({ gateway, index }))
        .filter(({ gateway }) => gateway.exited === null)
        .map(({ gateway, index }) => ({ name: gatewayName(index), pid: gateway.pid, metricsUrl: `${gateway.baseUrl}/metrics` }));
      for (const worker of workers)
        if (isAlive(worker.child) && worker.child.pid !== undefined)
          alive.push({ name: worker.workerId, pid: worker.child.pid, metricsUrl: null });
      return alive;
    },
    liveWorkers: () => workers.filter((worker) => isAlive(worker.child)),
    gatewayPortFor(index, seat = 0) {
      const live = gateways.filter((gateway) => gateway.exited === null);
      const choices = live.length > 0 ? live : gateways;
      return choices[(index + seat) % choices.length].port;
    },
    startWorker,
    async restartGateway(index) {
      const gateway = await startGateway(natsBackend(), index, gateways[index].port);
      gateways[index] = gateway;
      return gateway;
    },
    async stop() {
      await Promise.allSettled(gateways.map((gateway) => gateway.stop()));
      await Promise.allSettled(workers.map((worker) => worker.stop()));
      await nats?.stop();
      if (directory !== null) rmSync(directory, { recursive: true, force: true });
    },
  };

  try {
    if (backend === 'embedded') {
      directory = mkdtempSync(join(tmpdir(), 'suitors-soak-'));
      log(`starting the embedded service (SQLite in ${directory})…`);
      gateways.push(await startGateway({ embedded: { directory } }, 0, settings.port));
    } else {
      log('starting 3 nats-server processes (a JetStream cluster on loopback)…');
      nats = await startLocalNats(3, settings.ownProcessGroups ? { ownProcessGroup: true } : {});
      const workerCount = settings.workers ?? 2;
      log(`starting ${workerCount} table workers…`);
      for (let i = 0; i < workerCount; i++) await startWorker();
      const gatewayCount = settings.gateways ?? 1;
      log(`starting ${gatewayCount} gateway${gatewayCount === 1 ? '' : 's'}…`);
      for (let i = 0; i < gatewayCount; i++) gateways.push(await startGateway(natsBackend(), i, i === 0 ? settings.port : undefined));
    }
  } catch (error) {
    await service.stop();
    throw error;
  }
  return service;
}

/** One line on where everything listens, for the run's header. */
export function describeService(service: ServiceProcesses): string {
  const gateways = service.gateways.map(
    (gateway, index) => `gateway${service.gateways.length === 1 ? '' : `-${index + 1}`} pid ${gateway.pid} on ${gateway.baseUrl}`,
  );
  const workers = service.liveWorkers().map((worker) => `${worker.workerId} pid ${worker.child.pid}`);
  const nodes = service.nats?.nodes.map((node) => `nats ${node.name} pid ${node.process?.pid} on ${node.url}`) ?? [];
  return [...gateways, ...workers, ...nodes].join('; ');
}
