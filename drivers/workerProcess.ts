/**
 * Table workers as child processes (services/worker/main.ts under tsx), for
 * the fault tests, the NATS benchmark and the no-Docker cluster script: each
 * started with its NATS settings and resolved once it says `ready`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import type { ProcessGroupOption } from './processGroups.js';

const MAIN = fileURLToPath(new URL('../services/worker/main.ts', import.meta.url));

export interface WorkerProcessOptions extends ProcessGroupOption {
  /** How it reaches NATS: NATS_URL, and on a secured cluster NATS_CREDS and NATS_CA (LocalNats.env('worker')). */
  readonly natsEnv: Readonly<Record<string, string>>;
  readonly workerId: string;
  readonly replicas?: number;
  readonly leaseTtlMs?: number;
  /** How long a table goes without a command before the worker lets it go (SUITORS_IDLE_SECONDS; default 300). */
  readonly idleSeconds?: number;
  /** Wait before each bot move (SUITORS_BOT_DELAY_MS; default 600). */
  readonly botDelayMs?: number;
  /** Where the worker's log lines go (default: kept, see `output`). */
  readonly onLog?: (line: string) => void;
  readonly readyTimeoutMs?: number;
  /** Serve Prometheus metrics at http://127.0.0.1:<port>/metrics (WORKER_METRICS_PORT); none by default. */
  readonly metricsPort?: number;
  /** More of its environment, over the rest (e.g. SUITORS_MIN_TURN_SECONDS for a test's short turn clocks). */
  readonly env?: Readonly<Record<string, string>>;
  /** Extra node options for the worker, e.g. ['--cpu-prof'] to profile it. */
  readonly nodeArgs?: readonly string[];
}

export interface WorkerProcess {
  readonly workerId: string;
  readonly child: ChildProcess;
  /** The worker's log lines so far (stderr), for a failing test to show. */
  readonly output: string[];
  /** SIGKILL: no goodbye, its leases stay until they expire. */
  kill(): Promise<void>;
  /** SIGTERM: it finishes commands under way and gives its leases up. */
  stop(): Promise<void>;
}

export function startWorkerProcess(options: WorkerProcessOptions): Promise<WorkerProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...options.natsEnv,
    WORKER_ID: options.workerId,
    ...(options.replicas === undefined ? {} : { NATS_REPLICAS: String(options.replicas) }),
    ...(options.leaseTtlMs === undefined ? {} : { LEASE_TTL_MS: String(options.leaseTtlMs) }),
    ...(options.idleSeconds === undefined ? {} : { SUITORS_IDLE_SECONDS: String(options.idleSeconds) }),
    ...(options.botDelayMs === undefined ? {} : { SUITORS_BOT_DELAY_MS: String(options.botDelayMs) }),
    ...(options.metricsPort === undefined ? {} : { WORKER_METRICS_PORT: String(options.metricsPort), HOST: '127.0.0.1' }),
    ...options.env,
  };
  const tsx = createRequire(import.meta.url).resolve('tsx');
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', tsx, MAIN], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.ownProcessGroup === true,
  });
  const output: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    output.push(line);
    options.onLog?.(line);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ended = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  const worker: WorkerProcess = {
    workerId: options.workerId,
    child,
    output,
    kill: () => ended('SIGKILL'),
    stop: () => ended('SIGTERM'),
  };
  const timeoutMs = options.readyTimeoutMs ?? 40_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`worker ${options.workerId} was not ready within ${timeoutMs} ms:\n${output.join('\n')}`));
    }, timeoutMs);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('ready ')) {
        clearTimeout(timer);
        resolve(worker);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`worker ${options.workerId} exited (${signal ?? code}) before it was ready:\n${output.join('\n')}`));
    });
  });
}
