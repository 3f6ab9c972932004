/**
 * The real service as a child process on a loopback port, as the
 * benchmarks, the soak, chaos and abuse runs and `npm run cluster` start
 * it: the embedded service (services/main.ts) on a SQLite file, or a
 * distributed gateway (services/gateway/distributed.ts) on a NATS cluster;
 * ready once it prints where it listens, and stopped with SIGTERM (then
 * SIGKILL).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { sleep } from './polling.js';
import type { ProcessGroupOption } from './processGroups.js';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const READY_LINE = /Seven Suitors (?:service|gateway) on (http:\/\/[^\s]+)/;

export interface GatewayProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** http://127.0.0.1:<port> */
  readonly baseUrl: string;
  readonly port: number;
  /** Log lines of level warn or above (and any other output) the service wrote after it was ready; none kept `asConfigured`. */
  readonly complaints: string[];
  /** Set when the process ends, by itself or by stop(). */
  exited: { code: number | null; signal: NodeJS.Signals | null } | null;
  /** SIGTERM (by pid), then SIGKILL if it has not ended within `graceMs`; how it ended. */
  stop(graceMs?: number): Promise<string>;
}

export type GatewayBackend =
  /** The whole service in one process (services/main.ts), its SQLite file in `directory`. */
  | { readonly embedded: { readonly directory: string } }
  /** A distributed gateway (services/gateway/distributed.ts) in front of the table workers on this NATS. */
  | { readonly nats: { readonly env: Readonly<Record<string, string>>; readonly replicas: number } };

export interface GatewayProcessOptions extends ProcessGroupOption {
  /** The port to listen on (default 0: the OS picks a free one; the service prints the one it bound). */
  readonly port?: number;
  /** More environment for the service, e.g. SUITORS_IDLE_SECONDS. */
  readonly env?: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
  /**
   * The service's own settings from this process's environment (HOST,
   * LOG_LEVEL, SUITORS_BOT_DELAY_MS, SUITORS_ADMIN_TOKEN), as `npm run
   * cluster` runs it; by default it is set up to be measured: on
   * 127.0.0.1, logging warnings only, bots without delay, no admin token.
   */
  readonly asConfigured?: boolean;
  /** Each line the service writes, but its ready line. */
  readonly onLine?: (line: string) => void;
}

/**
 * Starts the service (`node --import tsx <entry>`) on 127.0.0.1 and waits for
 * its ready line.
 */
export async function startGatewayProcess(backend: GatewayBackend, options: GatewayProcessOptions = {}): Promise<GatewayProcess> {
  const timeoutMs = options.timeoutMs ?? 90_000;
  const measured = {
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    // No server-side bots are used; set anyway so a stray bot would not wait.
    SUITORS_BOT_DELAY_MS: '0',
  };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(options.port ?? 0),
    ...(options.asConfigured ? {} : measured),
    ...('embedded' in backend
      ? { SUITORS_DB: join(backend.embedded.directory, 'gateway-bench.db') }
      : { ...backend.nats.env, NATS_REPLICAS: String(backend.nats.replicas) }),
    ...options.env,
  };
  if (!options.asConfigured) delete env.SUITORS_ADMIN_TOKEN;
  const entry = 'embedded' in backend ? 'services/main.ts' : 'services/gateway/distributed.ts';
  // BENCH_GATEWAY_NODE_ARGS: extra node flags for the service alone (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
  const extra = (process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(/\s+/).filter((arg) => arg !== '');
  const child = spawn(process.execPath, [...extra, '--import', 'tsx', entry], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.ownProcessGroup === true,
  });
  if (child.pid === undefined) throw new Error('the gateway process could not be started');
  const pid = child.pid;
  const complaints: string[] = [];
  const early: string[] = [];
  let ready: ((url: string) => void) | null = null;
  let failed: ((error: Error) => void) | null = null;
  const readyUrl = new Promise<string>((resolve, reject) => {
    ready = resolve;
    failed = reject;
  });
  const state: { exited: GatewayProcess['exited'] } = { exited: null };

  const onLine = (line: string) => {
    if (line.trim() === '') return;
    if (ready !== null) {
      const match = READY_LINE.exec(line);
      if (match !== null) {
        const resolve = ready;
        ready = null;
        resolve(match[1]);
        return;
      }
      options.onLine?.(line);
      early.push(line);
      return;
    }
    options.onLine?.(line);
    if (!options.asConfigured) complaints.push(describeLogLine(line));
  };
  createInterface({ input: child.stdout! }).on('line', onLine);
  createInterface({ input: child.stderr! }).on('line', onLine);
  child.on('exit', (code, signal) => {
    state.exited = { code, signal };
    failed?.(new Error(`the gateway process ended before it was ready (code ${code}, signal ${signal}):\n${early.join('\n')}`));
  });

  const timer = setTimeout(
    () => failed?.(new Error(`the gateway process was not ready within ${timeoutMs / 1000} s:\n${early.join('\n')}`)),
    timeoutMs,
  );
  let baseUrl: string;
  try {
    baseUrl = await readyUrl;
  } catch (error) {
    if (state.exited === null) process.kill(pid, 'SIGKILL');
    throw error;
  } finally {
    clearTimeout(timer);
    failed = null;
  }
  if (!options.asConfigured) complaints.push(...early.map(describeLogLine));
  const port = Number(new URL(baseUrl).port);

  const gateway: GatewayProcess = {
    child,
    pid,
    baseUrl,
    port,
    complaints,
    get exited() {
      return state.exited;
    },
    set exited(value) {
      state.exited = value;
    },
    async stop(graceMs = 10_000) {
      if (state.exited !== null) return `had already ended (code ${state.exited.code}, signal ${state.exited.signal})`;
      const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      process.kill(pid, 'SIGTERM');
      const inTime = await Promise.race([ended.then(() => true), sleep(graceMs).then(() => false)]);
      const ending = state.exited as GatewayProcess['exited'];
      if (inTime) return `ended on SIGTERM (code ${ending?.code ?? null}, signal ${ending?.signal ?? null})`;
      process.kill(pid, 'SIGKILL');
      await Promise.race([ended, sleep(5_000)]);
      return `did not end within ${graceMs / 1000} s of SIGTERM; killed (SIGKILL)`;
    },
  };
  return gateway;
}

/** A pino JSON line as `level: msg (err)`, anything else as it is. */
function describeLogLine(line: string): string {
  try {
    const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string }; tableId?: string };
    const level = entry.level === undefined ? '?' : entry.level >= 50 ? 'error' : entry.level >= 40 ? 'warn' : `level ${entry.level}`;
    return `${level}: ${entry.msg ?? ''}${entry.tableId ? ` [${entry.tableId}]` : ''}${entry.err?.message ? ` (${entry.err.message})` : ''}`;
  } catch {
    return line;
  }
}
