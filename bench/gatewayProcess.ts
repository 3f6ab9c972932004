/**
 * The gateway benchmark's (and the soak and chaos runs') view of the service
 * it measures: the real service started as a child process on a loopback
 * port — the embedded one (services/main.ts) on a temporary SQLite file, or a
 * distributed gateway (services/gateway/distributed.ts) on a NATS cluster —,
 * its memory and CPU read from /proc, its Prometheus metrics read from
 * /metrics, and its shutdown.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

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
  | { readonly nats: { readonly urls: string; readonly replicas: number } };

export interface GatewayProcessOptions {
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
      : { NATS_URL: backend.nats.urls, NATS_REPLICAS: String(backend.nats.replicas) }),
    ...options.env,
  };
  if (!options.asConfigured) delete env.SUITORS_ADMIN_TOKEN;
  const entry = 'embedded' in backend ? 'services/main.ts' : 'services/gateway/distributed.ts';
  // BENCH_GATEWAY_NODE_ARGS: extra node flags for the service alone (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
  const extra = (process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(/\s+/).filter((arg) => arg !== '');
  const child = spawn(process.execPath, [...extra, '--import', 'tsx', entry], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
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

  const timer = setTimeout(() => failed?.(new Error(`the gateway process was not ready within ${timeoutMs / 1000} s:\n${early.join('\n')}`)), timeoutMs);
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

export interface ProcStatus {
  /** Resident set size now, bytes. */
  readonly rss: number;
  /** Peak resident set size, bytes. */
  readonly peakRss: number;
}

/** VmRSS and VmHWM of a process from /proc/<pid>/status; null where there is no /proc. */
export function procStatus(pid: number): ProcStatus | null {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN) * 1024;
    return { rss: kb('VmRSS'), peakRss: kb('VmHWM') };
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat (clock ticks of 1/100 s, Linux's USER_HZ). */
export function cpuSeconds(pid: number): number | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** The soft limit on open files of this process (children inherit it); null where there is no /proc. */
export function openFilesLimit(): number | null {
  try {
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    if (match === null) return null;
    return match[1] === 'unlimited' ? Number.POSITIVE_INFINITY : Number(match[1]);
  } catch {
    return null;
  }
}

/** File descriptors each process needs besides its sockets (the SQLite file, pipes, the HTTP requests of setup). */
const SPARE_FDS = 256;

/**
 * How many of `tables` tables of `seats` sockets fit under the open-files
 * limit (the client holds a descriptor per socket, and so does the gateway);
 * when fewer than asked, `log` is told why and what to do.
 */
export function tablesWithinOpenFiles(tables: number, seats: number, log: (line: string) => void): number {
  const limit = openFilesLimit();
  if (limit === null || tables * seats + SPARE_FDS <= limit) return tables;
  const fitting = Math.max(1, Math.floor((limit - SPARE_FDS) / seats));
  log(
    `note: the open-files limit (ulimit -n) is ${limit}; ${tables} tables need ${tables * seats} sockets in this process and as many in the gateway. ` +
      `Running ${fitting} tables instead; for ${tables}, raise it first (e.g. \`ulimit -n ${tables * seats + 1024}\`).`,
  );
  return fitting;
}

/** A GET on the gateway's own address (no rate limit applies outside /api); the body as text. */
export function getText(url: string, timeoutMs = 30_000): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false, timeout: timeoutMs }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`GET ${url}: no answer within ${timeoutMs / 1000} s`)));
    request.on('error', reject);
  });
}

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** The samples of a Prometheus text exposition. */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (match === null) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]] = pair[2];
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** The sum of the samples of a metric whose labels include `where`; null when there is none. */
export function metricValue(samples: readonly Sample[], name: string, where: Record<string, string> = {}): number | null {
  const matching = samples.filter((sample) => sample.name === name && Object.entries(where).every(([key, value]) => sample.labels[key] === value));
  return matching.length === 0 ? null : matching.reduce((sum, sample) => sum + sample.value, 0);
}

/**
 * A percentile of a Prometheus histogram between two scrapes, as the upper
 * bound of the bucket it falls in ("≤ 25 ms"); null without observations.
 */
export function histogramPercentile(before: readonly Sample[], after: readonly Sample[], name: string, where: Record<string, string>, p: number): string | null {
  const buckets = (samples: readonly Sample[]) =>
    new Map(
      samples
        .filter((sample) => sample.name === `${name}_bucket` && Object.entries(where).every(([key, value]) => sample.labels[key] === value))
        .map((sample) => [sample.labels.le, sample.value] as const),
    );
  const then = buckets(before);
  const now = [...buckets(after)].map(([le, count]) => ({ le, count: count - (then.get(le) ?? 0) }));
  now.sort((a, b) => Number(a.le === '+Inf' ? Infinity : a.le) - Number(b.le === '+Inf' ? Infinity : b.le));
  const total = now.at(-1)?.count ?? 0;
  if (total <= 0) return null;
  const wanted = (p / 100) * total;
  const bucket = now.find(({ count }) => count >= wanted)!;
  return bucket.le === '+Inf' ? `> ${Number(now.at(-2)?.le ?? 0) * 1000} ms` : `≤ ${Number(bucket.le) * 1000} ms`;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
