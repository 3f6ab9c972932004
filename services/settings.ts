/**
 * Every setting the service takes from its environment, in one place: each
 * variable's name, its default and what it means, and its one reading (how a
 * variable is read is settingReaders.ts). An
 * unset or empty variable takes its default; a value that will not do stops
 * the process as it starts, before it opens a file or a connection, with a
 * SettingError naming the variable and saying what would do. Numbers are
 * read by the one whole-number reading (wholeNumber.ts: decimal digits, no
 * "1e3", no " 3").
 *
 * The commands that drive the service from outside (bench/, hardening/,
 * scripts/, the tests) have variables of their own (BENCH_*, BOT_GAMES, CLI_GAMES,
 * LEAK_GAMES, CHROMIUM_PATH, ...), mostly through drivers/flags.ts: they are
 * not the service's.
 *
 * The defaults of the bot delay, the limits, a worker's idle time and the
 * lease TTL are also the defaults of the modules that use them when no
 * environment is involved (DEFAULT_BOT_DELAY_MS, DEFAULT_LIMITS, ...);
 * settings.process.test.ts holds the two to the same numbers.
 */
import { join } from 'node:path';
import { jetstreamLayout } from './eventstore/jetstream/index.js';
import { type Environment, given, optionalText, readableFileComplaint, text, type Variable, wholeNumber } from './settingReaders.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** SUITORS_TRACING's values (services/tracing/tracingSettings.ts). */
const TRACING_EXPORTS = ['off', 'stdout', 'otlp'] as const;
export type TracingExport = (typeof TRACING_EXPORTS)[number];
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Worker ids become subject tokens and KV keys, as table ids do (services/bus/subjects.ts). */
const WORKER_ID = /^[A-Za-z0-9_-]{1,100}$/;

export const DEFAULT_DATABASE = join('data', 'suitors.db');

/** Every variable the service reads, by name. */
export const SETTINGS = {
  // Every process with a gateway (`npm start`, `npm run start:gateway`).
  PORT: wholeNumber('PORT', 3000, 'the port the gateway listens on (0: any free one, printed at start)', { max: 65_535 }),
  HOST: text('HOST', '127.0.0.1', 'the address the gateway listens on (0.0.0.0: every interface)'),
  LOG_LEVEL: optionalText('LOG_LEVEL', 'info', `how much the service logs: ${LOG_LEVELS.join(', ')}`, (value) =>
    (LOG_LEVELS as readonly string[]).includes(value) ? null : `must be one of ${LOG_LEVELS.join(', ')}, not ${JSON.stringify(value)}`,
  ),
  SUITORS_ADMIN_TOKEN: optionalText(
    'SUITORS_ADMIN_TOKEN',
    'none',
    "the operator's bearer token, which reads any log and record (unset: no operator)",
  ),
  SUITORS_TRUST_PROXY: text(
    'SUITORS_TRUST_PROXY',
    'false',
    "whose X-Forwarded-For to believe: false (each client is its TCP peer), true (any proxy), or the proxies' addresses and CIDR ranges, comma-separated",
  ),
  SUITORS_IDLE_SECONDS: wholeNumber(
    'SUITORS_IDLE_SECONDS',
    600,
    'how long a table goes without a command before a gateway drops its copy (600) or a worker lets it go (300, unless a bot move or a timeout is to come)',
    { min: 1, shown: '600 (gateway), 300 (worker)' },
  ),
  SUITORS_BOT_DELAY_MS: wholeNumber(
    'SUITORS_BOT_DELAY_MS',
    600,
    'the wait before each bot move, so people can follow the play (the embedded service and the workers)',
  ),
  // The limits of docs/api.md ("Limits") an operator may change.
  SUITORS_SOCKETS_PER_CLIENT: wholeNumber('SUITORS_SOCKETS_PER_CLIENT', 64, 'sockets one client may hold open at once', { min: 1 }),
  SUITORS_CONNECTIONS: wholeNumber(
    'SUITORS_CONNECTIONS',
    10_000,
    'connections (HTTP and WebSocket) the gateway holds open at once, from all clients; keep it below the open-files limit',
    { min: 1 },
  ),
  SUITORS_IPV6_CLIENT_PREFIX: wholeNumber(
    'SUITORS_IPV6_CLIENT_PREFIX',
    64,
    'the network prefix, in bits, an IPv6 client is counted by for every per-client limit (64: each /64 is one client; 128: each address)',
    { min: 1, max: 128 },
  ),
  SUITORS_SEATING_TABLES_PER_CLIENT: wholeNumber(
    'SUITORS_SEATING_TABLES_PER_CLIENT',
    10,
    'tables waiting for players one client may have made',
    { min: 1 },
  ),
  SUITORS_SEATING_TABLES_PER_NETWORK: wholeNumber(
    'SUITORS_SEATING_TABLES_PER_NETWORK',
    100,
    "tables waiting for players the clients of one network (an IPv4 /24, an IPv6 /48) may have made together: a network's share of SUITORS_SEATING_TABLES",
    { min: 1 },
  ),
  SUITORS_SEATING_TABLES: wholeNumber('SUITORS_SEATING_TABLES', 1_000, 'tables waiting for players in all', { min: 1 }),
  SUITORS_STORAGE_EVENTS_PER_DAY: wholeNumber(
    'SUITORS_STORAGE_EVENTS_PER_DAY',
    100_000,
    'events one client may add to the store in a UTC day through new tables, forks and imports (429 past it, until 00:00 UTC)',
    { min: 1 },
  ),
  SUITORS_BOT_TABLES_PER_CLIENT: wholeNumber(
    'SUITORS_BOT_TABLES_PER_CLIENT',
    10,
    'tables of bots alone in play (made so, or forked with nobody taking a seat) one client may have made',
    { min: 1 },
  ),
  SUITORS_BOT_TABLES: wholeNumber('SUITORS_BOT_TABLES', 100, 'tables of bots alone in play in all, per gateway', { min: 1 }),
  SUITORS_SEATING_IDLE_SECONDS: wholeNumber(
    'SUITORS_SEATING_IDLE_SECONDS',
    600,
    'how long a table nobody sits at stays open without an event',
    { min: 1 },
  ),
  SUITORS_FINISHED_IN_LOBBY_SECONDS: wholeNumber(
    'SUITORS_FINISHED_IN_LOBBY_SECONDS',
    600,
    'how long a finished game stays in the lobby after its last event',
  ),
  SUITORS_MIN_TURN_SECONDS: wholeNumber('SUITORS_MIN_TURN_SECONDS', 5, 'the shortest turn clock a table may be made with', { min: 1 }),
  SUITORS_SHED_LAG_MS: wholeNumber('SUITORS_SHED_LAG_MS', 500, 'the event-loop lag over which the gateway sheds load (503 + Retry-After)', {
    min: 1,
  }),
  // The budgets of the costly routes, for the whole gateway whoever sends them (services/gateway/costlyWork.ts).
  SUITORS_NEW_TABLES_AT_ONCE: wholeNumber('SUITORS_NEW_TABLES_AT_ONCE', 8, 'new tables (POST /api/tables) made at once', { min: 1 }),
  SUITORS_NEW_TABLES_WAITING: wholeNumber(
    'SUITORS_NEW_TABLES_WAITING',
    64,
    'new tables waiting for one of those; the next is refused 503 with Retry-After',
  ),
  SUITORS_FORKS_AT_ONCE: wholeNumber('SUITORS_FORKS_AT_ONCE', 2, 'forks of finished games (POST .../fork) made at once', { min: 1 }),
  SUITORS_FORKS_WAITING: wholeNumber(
    'SUITORS_FORKS_WAITING',
    8,
    'forks waiting for one of those; the next is refused 503 with Retry-After',
  ),
  SUITORS_REPLAYS_AT_ONCE: wholeNumber('SUITORS_REPLAYS_AT_ONCE', 4, 'replays (GET .../replay) worked on at once', { min: 1 }),
  SUITORS_REPLAYS_WAITING: wholeNumber(
    'SUITORS_REPLAYS_WAITING',
    32,
    'replays waiting for one of those; the next is refused 503 with Retry-After',
  ),
  // Every process of the service (services/tracing/tracingSettings.ts reads these two).
  SUITORS_TRACING: optionalText(
    'SUITORS_TRACING',
    'off',
    'where OpenTelemetry spans of each command go: off (none are made), stdout (printed, for a look) or otlp (sent to SUITORS_TRACING_URL)',
    (value) =>
      (TRACING_EXPORTS as readonly string[]).includes(value)
        ? null
        : `must be one of ${TRACING_EXPORTS.join(', ')}, not ${JSON.stringify(value)}`,
  ),
  SUITORS_TRACING_URL: optionalText(
    'SUITORS_TRACING_URL',
    "the OTLP exporter's own: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else http://localhost:4318/v1/traces",
    'where SUITORS_TRACING=otlp sends spans: an OTLP/HTTP traces endpoint',
    (value) => (/^https?:\/\/[^\s/]+/.test(value) ? null : `must be an http:// or https:// URL, not ${JSON.stringify(value)}`),
  ),
  // The embedded service (`npm start`) and the CLI.
  SUITORS_STORAGE: optionalText(
    'SUITORS_STORAGE',
    'sqlite (the CLI: nats when NATS_URL is set)',
    "where tables and seat tokens are kept (services/storage): sqlite (the file SUITORS_DB names), memory (nothing survives the process; the embedded service only) or nats (the distributed service's JetStream log and KV bucket; the CLI only)",
    (value) =>
      STORAGE_KINDS.includes(value as StorageKind) ? null : `must be one of ${STORAGE_KINDS.join(', ')}, not ${JSON.stringify(value)}`,
  ),
  SUITORS_DB: text(
    'SUITORS_DB',
    DEFAULT_DATABASE,
    "the embedded service's SQLite file: its event logs and seat tokens (the CLI's --db wins)",
  ),
  SUITORS_DB_MAX_MB: wholeNumber(
    'SUITORS_DB_MAX_MB',
    0,
    "the most the embedded service's SQLite file may grow to, in MiB (0: no cap but the disk's); past it every write is refused 507, as on a full disk, until space is freed in the file or the cap is raised (a cap below the file's size holds it at its size)",
    { max: 1 << 30, shown: '0 (none)' },
  ),
  SUITORS_RETAIN_FINISHED_DAYS: wholeNumber(
    'SUITORS_RETAIN_FINISHED_DAYS',
    0,
    "how many days the embedded service keeps a finished game's log and snapshots; past that, hourly, it keeps only the game's record (0: keep every log; `suitors retire` does it by hand)",
    { max: 100_000, shown: '0 (keep every log)' },
  ),
  // The distributed service (docs/distributed.md).
  NATS_URL: optionalText(
    'NATS_URL',
    'none: the embedded service',
    'the NATS servers, comma-separated (any will do; the client learns the rest of the cluster)',
    (value) =>
      serversOf(value).length === 0 && value.trim() !== ''
        ? `must name at least one server (nats://host:4222[,nats://...]), not ${JSON.stringify(value)}`
        : null,
  ),
  NATS_REPLICAS: wholeNumber(
    'NATS_REPLICAS',
    1,
    'replicas of the event stream and the buckets a process creates (an existing stream keeps its own)',
    { min: 1, max: 5, shown: '3 when NATS_URL names three or more servers, else 1' },
  ),
  NATS_STREAM: optionalText(
    'NATS_STREAM',
    'TABLE_EVENTS',
    'the event stream, after which the buckets are named: another keeps two deployments apart on one NATS',
    (value) => layoutComplaint({ streamName: value }),
  ),
  NATS_PREFIX: optionalText(
    'NATS_PREFIX',
    'tables',
    'the subject prefix of commands and events: another keeps two deployments apart on one NATS',
    (value) => layoutComplaint({ prefix: value }),
  ),
  NATS_CREDS: optionalText(
    'NATS_CREDS',
    'none: connect with no credentials (a NATS that lets anyone in)',
    "the file holding this process's NATS identity: an NKey seed (`npx suitors nats-secrets` makes one per role) or a .creds file",
    readableFileComplaint,
  ),
  NATS_CA: optionalText(
    'NATS_CA',
    'none: TLS only for tls:// servers, checked against the system CAs',
    "the CA certificate the NATS servers' certificates must be signed by; set, every connection is TLS and checks it",
    readableFileComplaint,
  ),
  LEASE_TTL_MS: wholeNumber(
    'LEASE_TTL_MS',
    15_000,
    "how long a worker's lease outlives its last renewal, so how soon a dead worker's tables move",
    { min: 100 },
  ),
  WORKER_REBALANCE_PER_SECOND: wholeNumber(
    'WORKER_REBALANCE_PER_SECOND',
    50,
    'how many tables a second at most a table worker hands to workers holding fewer than their share (0: none; a stopping worker hands all its own on)',
    { max: 10_000 },
  ),
  WORKER_METRICS_PORT: optionalText(
    'WORKER_METRICS_PORT',
    'off',
    "the port a table worker serves Prometheus metrics on (GET /metrics, at HOST's address); unset: none",
    (value) =>
      /^[1-9][0-9]{0,4}$/.test(value) && Number(value) <= 65_535 ? null : `must be a port from 1 to 65535, not ${JSON.stringify(value)}`,
  ),
  WORKER_ID: optionalText('WORKER_ID', 'generated, unique', "a worker's name in leases and subjects", (value) =>
    WORKER_ID.test(value) ? null : `must be 1 to 100 letters, digits, - and _ (it is a subject token), not ${JSON.stringify(value)}`,
  ),
  // Starting nats-server here (the tests, `npm run cluster`).
  NATS_SERVER: text('NATS_SERVER', 'nats-server', 'the nats-server program a local cluster runs'),
} as const satisfies Record<string, Variable>;

function serversOf(urls: string): string[] {
  return urls
    .split(',')
    .map((server) => server.trim())
    .filter((server) => server !== '');
}

/** What the JetStream layout says is wrong with a stream name or prefix, or null. */
function layoutComplaint(layout: { streamName?: string; prefix?: string }): string | null {
  try {
    jetstreamLayout(layout);
    return null;
  } catch (error) {
    return `is refused by the JetStream layout: ${(error as Error).message}`;
  }
}

const STORAGE_KINDS = ['sqlite', 'memory', 'nats'] as const;
export type StorageKind = (typeof STORAGE_KINDS)[number];

/** SUITORS_STORAGE, else `fallback` (what the process runs on when the operator names nothing). */
export function storageKind(fallback: StorageKind, env: Environment = process.env): StorageKind {
  return (SETTINGS.SUITORS_STORAGE.read(env) as StorageKind | undefined) ?? fallback;
}

/** The SQLite file of the embedded service: `override` (the CLI's --db), else SUITORS_DB, else ./data/suitors.db. */
export function databasePath(override?: string, env: Environment = process.env): string {
  return override ?? SETTINGS.SUITORS_DB.read(env);
}

/** The most the SQLite file may grow to, in bytes (SUITORS_DB_MAX_MB), or undefined: no cap but the disk's. */
export function databaseMaxBytes(env: Environment = process.env): number | undefined {
  const megabytes = SETTINGS.SUITORS_DB_MAX_MB.read(env);
  return megabytes === 0 ? undefined : megabytes * 1024 * 1024;
}

/** What a gateway process takes from its environment (services/gateway/serve.ts makes its logger and limits of it). */
export interface GatewayEnvironment {
  readonly port: number;
  readonly hostName: string;
  readonly idleSeconds: number;
  readonly adminToken: string | undefined;
  readonly botDelayMs: number;
  readonly logLevel: LogLevel;
  readonly trustProxy: boolean | string[];
  readonly limits: {
    readonly socketsPerClient: number;
    readonly connectionsInAll: number;
    readonly ipv6ClientPrefix: number;
    readonly seatingTablesPerClient: number;
    readonly seatingTablesPerNetwork: number;
    readonly seatingTablesInAll: number;
    readonly storageEventsPerDay: number;
    readonly seatingIdleSeconds: number;
    readonly botTablesPerClient: number;
    readonly botTablesInAll: number;
    readonly finishedInLobbySeconds: number;
    readonly minTurnSeconds: number;
    readonly maxEventLoopDelayMs: number;
    /** The costly routes' budgets the environment sets (record imports keep theirs: the import worker's). */
    readonly budgets: Readonly<Record<'createTable' | 'forkTable' | 'replay', { readonly atOnce: number; readonly waiting: number }>>;
  };
}

export function gatewayEnvironment(env: Environment = process.env): GatewayEnvironment {
  const s = SETTINGS;
  return {
    port: s.PORT.read(env),
    hostName: s.HOST.read(env),
    idleSeconds: s.SUITORS_IDLE_SECONDS.read(env),
    adminToken: s.SUITORS_ADMIN_TOKEN.read(env),
    botDelayMs: s.SUITORS_BOT_DELAY_MS.read(env),
    logLevel: (s.LOG_LEVEL.read(env) as LogLevel | undefined) ?? 'info',
    trustProxy: trustProxyOf(s.SUITORS_TRUST_PROXY.read(env)),
    limits: {
      socketsPerClient: s.SUITORS_SOCKETS_PER_CLIENT.read(env),
      connectionsInAll: s.SUITORS_CONNECTIONS.read(env),
      ipv6ClientPrefix: s.SUITORS_IPV6_CLIENT_PREFIX.read(env),
      seatingTablesPerClient: s.SUITORS_SEATING_TABLES_PER_CLIENT.read(env),
      seatingTablesPerNetwork: s.SUITORS_SEATING_TABLES_PER_NETWORK.read(env),
      seatingTablesInAll: s.SUITORS_SEATING_TABLES.read(env),
      storageEventsPerDay: s.SUITORS_STORAGE_EVENTS_PER_DAY.read(env),
      seatingIdleSeconds: s.SUITORS_SEATING_IDLE_SECONDS.read(env),
      botTablesPerClient: s.SUITORS_BOT_TABLES_PER_CLIENT.read(env),
      botTablesInAll: s.SUITORS_BOT_TABLES.read(env),
      finishedInLobbySeconds: s.SUITORS_FINISHED_IN_LOBBY_SECONDS.read(env),
      minTurnSeconds: s.SUITORS_MIN_TURN_SECONDS.read(env),
      maxEventLoopDelayMs: s.SUITORS_SHED_LAG_MS.read(env),
      budgets: {
        createTable: { atOnce: s.SUITORS_NEW_TABLES_AT_ONCE.read(env), waiting: s.SUITORS_NEW_TABLES_WAITING.read(env) },
        forkTable: { atOnce: s.SUITORS_FORKS_AT_ONCE.read(env), waiting: s.SUITORS_FORKS_WAITING.read(env) },
        replay: { atOnce: s.SUITORS_REPLAYS_AT_ONCE.read(env), waiting: s.SUITORS_REPLAYS_WAITING.read(env) },
      },
    },
  };
}

/** "false" (or unset): nobody's X-Forwarded-For; "true": any proxy's; else the proxies named. */
function trustProxyOf(given: string): boolean | string[] {
  const trimmed = given.trim();
  if (trimmed === '' || trimmed === 'false') return false;
  if (trimmed === 'true') return true;
  return serversOf(trimmed);
}

/** How a distributed process (table worker or gateway) finds NATS and what it names there. */
export interface NatsSettings {
  readonly servers: string[];
  /** Who this process is on NATS (NATS_CREDS): an NKey seed or .creds file; undefined connects with none. */
  readonly credsFile: string | undefined;
  /** The CA the servers' certificates are checked against (NATS_CA); set, the connection is TLS. */
  readonly caFile: string | undefined;
  readonly replicas: number;
  readonly streamName: string;
  readonly prefix: string;
  readonly leaseTtlMs: number;
}

/** The NATS settings, or null when NATS_URL is not set (the embedded service). */
export function natsSettingsFrom(env: Environment = process.env): NatsSettings | null {
  const urls = SETTINGS.NATS_URL.read(env);
  if (urls === undefined || urls.trim() === '') return null;
  const servers = serversOf(urls);
  const replicas = SETTINGS.NATS_REPLICAS.read(env, servers.length >= 3 ? 3 : 1);
  const streamName = SETTINGS.NATS_STREAM.read(env);
  const prefix = SETTINGS.NATS_PREFIX.read(env);
  const layout = jetstreamLayout({ ...(streamName === undefined ? {} : { streamName }), ...(prefix === undefined ? {} : { prefix }) });
  return {
    servers,
    credsFile: SETTINGS.NATS_CREDS.read(env),
    caFile: SETTINGS.NATS_CA.read(env),
    replicas,
    streamName: layout.streamName,
    prefix: layout.prefix,
    leaseTtlMs: SETTINGS.LEASE_TTL_MS.read(env),
  };
}

/** What a table worker process takes from its environment, besides NATS. */
export interface WorkerEnvironment {
  /** Undefined: the worker makes up a unique one. */
  readonly workerId: string | undefined;
  readonly idleSeconds: number;
  readonly botDelayMs: number;
  /** The shortest turn clock a new table may have (SUITORS_MIN_TURN_SECONDS), as the gateways apply it. */
  readonly minTurnSeconds: number;
  /** Tables a second at most it hands to workers under their share (WORKER_REBALANCE_PER_SECOND; 0: none). */
  readonly rebalancePerSecond: number;
  /** Where it serves /metrics (WORKER_METRICS_PORT at HOST); undefined: it serves none. */
  readonly metrics: { readonly port: number; readonly host: string } | undefined;
}

/** A worker lets a table go after 300 s without a command, where a gateway keeps its copy 600 s. */
const WORKER_IDLE_SECONDS = 300;

export function workerEnvironment(env: Environment = process.env): WorkerEnvironment {
  return {
    workerId: SETTINGS.WORKER_ID.read(env),
    idleSeconds: SETTINGS.SUITORS_IDLE_SECONDS.read(env, WORKER_IDLE_SECONDS),
    botDelayMs: SETTINGS.SUITORS_BOT_DELAY_MS.read(env),
    minTurnSeconds: SETTINGS.SUITORS_MIN_TURN_SECONDS.read(env),
    rebalancePerSecond: SETTINGS.WORKER_REBALANCE_PER_SECOND.read(env),
    metrics: metricsPortOf(SETTINGS.WORKER_METRICS_PORT.read(env), SETTINGS.HOST.read(env)),
  };
}

function metricsPortOf(port: string | undefined, host: string): WorkerEnvironment['metrics'] {
  return port === undefined ? undefined : { port: Number(port), host };
}

/** The nats-server program to run (NATS_SERVER, else the one on the PATH). */
export function natsServerProgram(env: Environment = process.env): string {
  return SETTINGS.NATS_SERVER.read(env);
}

/**
 * The log level of a gateway made without a logger (the tests make most):
 * LOG_LEVEL, else silent under the test runner (VITEST, which vitest sets),
 * else info.
 */
export function defaultLogLevel(env: Environment = process.env): LogLevel {
  return (SETTINGS.LOG_LEVEL.read(env) as LogLevel | undefined) ?? (given(env, 'VITEST') === undefined ? 'info' : 'silent');
}
