import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from './gateway/limits.js';
import { gatewaySettingsFromEnv } from './gateway/serve.js';
import { DEFAULT_BOT_DELAY_MS } from './host/autopilot.js';
import {
  DEFAULT_DATABASE,
  databaseMaxBytes,
  databasePath,
  defaultLogLevel,
  gatewayEnvironment,
  natsServerProgram,
  natsSettingsFrom,
  SETTINGS,
  workerEnvironment,
} from './settings.js';
import { SettingError, type Environment } from './settingReaders.js';
import { DEFAULT_LEASE_TTL_MS } from './worker/leaseBuckets.js';
import { DEFAULT_WORKER_LIMITS } from './worker/requestChecks.js';
import { DEFAULT_IDLE_RELEASE_MS } from './worker/tableWorker.js';
import { DEFAULT_REBALANCE_PER_SECOND } from './worker/rebalancing.js';

const NATS = { NATS_URL: 'nats://127.0.0.1:4222' };

/** Reads every setting a process could read from `env`: each reader of settings.ts. */
function readAll(env: Environment): void {
  gatewayEnvironment(env);
  natsSettingsFrom({ ...NATS, ...env });
  workerEnvironment(env);
  databasePath(undefined, env);
  natsServerProgram(env);
  defaultLogLevel(env);
}

function refusalOf(env: Environment): SettingError {
  try {
    readAll(env);
  } catch (error) {
    expect(error).toBeInstanceOf(SettingError);
    return error as SettingError;
  }
  throw new Error(`${JSON.stringify(env)} was accepted`);
}

describe('the settings from the environment', () => {
  it('an empty environment gives every default, the same the modules use without an environment', () => {
    const gateway = gatewayEnvironment({});
    expect(gateway).toEqual({
      port: 3000,
      hostName: '127.0.0.1',
      idleSeconds: 600,
      adminToken: undefined,
      botDelayMs: DEFAULT_BOT_DELAY_MS,
      logLevel: 'info',
      trustProxy: false,
      limits: {
        socketsPerClient: DEFAULT_LIMITS.socketsPerClient,
        connectionsInAll: DEFAULT_LIMITS.connectionsInAll,
        ipv6ClientPrefix: DEFAULT_LIMITS.ipv6ClientPrefix,
        seatingTablesPerClient: DEFAULT_LIMITS.seatingTablesPerClient,
        seatingTablesPerNetwork: DEFAULT_LIMITS.seatingTablesPerNetwork,
        seatingTablesInAll: DEFAULT_LIMITS.seatingTablesInAll,
        storageEventsPerDay: DEFAULT_LIMITS.storageEventsPerDay,
        seatingIdleSeconds: DEFAULT_LIMITS.seatingIdleSeconds,
        botTablesPerClient: DEFAULT_LIMITS.botTablesPerClient,
        botTablesInAll: DEFAULT_LIMITS.botTablesInAll,
        finishedInLobbySeconds: DEFAULT_LIMITS.finishedInLobbySeconds,
        minTurnSeconds: DEFAULT_LIMITS.minTurnSeconds,
        maxEventLoopDelayMs: DEFAULT_LIMITS.loadShedding.maxEventLoopDelayMs,
        budgets: {
          createTable: DEFAULT_LIMITS.budgets.createTable,
          forkTable: DEFAULT_LIMITS.budgets.forkTable,
          replay: DEFAULT_LIMITS.budgets.replay,
        },
      },
    });
    expect(gatewaySettingsFromEnv({}).limits).toEqual({
      ...DEFAULT_LIMITS,
      requests: undefined,
      routes: undefined,
      socketMessages: undefined,
      socketUnsentBytes: undefined,
      lobbyPage: undefined,
      seatedIdleSeconds: undefined,
      storageBudgetClients: undefined,
      budgets: {
        createTable: DEFAULT_LIMITS.budgets.createTable,
        forkTable: DEFAULT_LIMITS.budgets.forkTable,
        replay: DEFAULT_LIMITS.budgets.replay,
      },
    });
    expect(workerEnvironment({})).toEqual({
      workerId: undefined,
      idleSeconds: DEFAULT_IDLE_RELEASE_MS / 1000,
      botDelayMs: DEFAULT_BOT_DELAY_MS,
      minTurnSeconds: DEFAULT_WORKER_LIMITS.minTurnSeconds,
      rebalancePerSecond: DEFAULT_REBALANCE_PER_SECOND,
    });
    expect(DEFAULT_WORKER_LIMITS.minTurnSeconds).toBe(DEFAULT_LIMITS.minTurnSeconds);
    expect(natsSettingsFrom({})).toBeNull();
    expect(natsSettingsFrom(NATS)).toEqual({
      servers: ['nats://127.0.0.1:4222'],
      credsFile: undefined,
      caFile: undefined,
      replicas: 1,
      streamName: 'TABLE_EVENTS',
      prefix: 'tables',
      leaseTtlMs: DEFAULT_LEASE_TTL_MS,
    });
    expect(databasePath(undefined, {})).toBe(DEFAULT_DATABASE);
    expect(databaseMaxBytes({})).toBeUndefined();
    expect(databaseMaxBytes({ SUITORS_DB_MAX_MB: '0' })).toBeUndefined();
    expect(databaseMaxBytes({ SUITORS_DB_MAX_MB: '64' })).toBe(64 * 1024 * 1024);
    expect(natsServerProgram({})).toBe('nats-server');
    expect(defaultLogLevel({})).toBe('info');
    expect(defaultLogLevel({ VITEST: 'true' })).toBe('silent');
  });

  it('an empty variable is an unset one, as a blank line of a compose file writes it', () => {
    const blank = Object.fromEntries(Object.keys(SETTINGS).map((name) => [name, '']));
    expect(gatewayEnvironment(blank)).toEqual(gatewayEnvironment({}));
    expect(workerEnvironment(blank)).toEqual(workerEnvironment({}));
    expect(natsSettingsFrom(blank)).toBeNull();
    expect(natsSettingsFrom({ NATS_URL: '  ' })).toBeNull();
  });

  it('reads what is set', () => {
    const env = {
      PORT: '0',
      HOST: '0.0.0.0',
      SUITORS_IDLE_SECONDS: '30',
      SUITORS_ADMIN_TOKEN: 'secret',
      SUITORS_BOT_DELAY_MS: '0',
      LOG_LEVEL: 'warn',
      SUITORS_TRUST_PROXY: '127.0.0.1, 10.0.0.0/8',
      SUITORS_SHED_LAG_MS: '250',
      SUITORS_DB: '/tmp/x.db',
      WORKER_ID: 'worker-1',
      NATS_URL: 'nats://a:4222, nats://b:4222,nats://c:4222',
      NATS_STREAM: 'OTHER',
      NATS_PREFIX: 'other.tables',
      LEASE_TTL_MS: '2000',
      WORKER_REBALANCE_PER_SECOND: '0',
      // Any file this process can read will do for the reading; connecting checks what is in it.
      NATS_CREDS: import.meta.filename,
      NATS_CA: import.meta.filename,
    };
    expect(gatewayEnvironment(env)).toMatchObject({
      port: 0,
      hostName: '0.0.0.0',
      idleSeconds: 30,
      adminToken: 'secret',
      botDelayMs: 0,
      logLevel: 'warn',
      trustProxy: ['127.0.0.1', '10.0.0.0/8'],
    });
    expect(gatewaySettingsFromEnv(env).limits.loadShedding).toEqual({ ...DEFAULT_LIMITS.loadShedding, maxEventLoopDelayMs: 250 });
    expect(gatewayEnvironment({ SUITORS_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(workerEnvironment(env)).toEqual({
      workerId: 'worker-1',
      idleSeconds: 30,
      botDelayMs: 0,
      minTurnSeconds: 5,
      rebalancePerSecond: 0,
    });
    expect(natsSettingsFrom(env)).toEqual({
      servers: ['nats://a:4222', 'nats://b:4222', 'nats://c:4222'],
      credsFile: import.meta.filename,
      caFile: import.meta.filename,
      replicas: 3,
      streamName: 'OTHER',
      prefix: 'other.tables',
      leaseTtlMs: 2000,
    });
    expect(natsSettingsFrom({ ...env, NATS_REPLICAS: '1' })?.replicas).toBe(1);
    expect(databasePath(undefined, env)).toBe('/tmp/x.db');
    expect(databasePath('/tmp/flag.db', env)).toBe('/tmp/flag.db');
  });

  it.each([
    ['PORT', '65536', 'PORT must be a whole number from 0 to 65535 in decimal digits, not "65536"'],
    ['PORT', '80.5', 'PORT must be a whole number from 0 to 65535 in decimal digits, not "80.5"'],
    ['PORT', '08080', 'PORT must be a whole number from 0 to 65535 in decimal digits, not "08080"'],
    ['SUITORS_BOT_DELAY_MS', '1e3', 'SUITORS_BOT_DELAY_MS must be a whole number of at least 0 in decimal digits, not "1e3"'],
    ['SUITORS_IDLE_SECONDS', '0', 'SUITORS_IDLE_SECONDS must be a whole number of at least 1 in decimal digits, not "0"'],
    ['SUITORS_SOCKETS_PER_CLIENT', ' 8', 'SUITORS_SOCKETS_PER_CLIENT must be a whole number of at least 1 in decimal digits, not " 8"'],
    [
      'SUITORS_SEATING_TABLES_PER_CLIENT',
      '-1',
      'SUITORS_SEATING_TABLES_PER_CLIENT must be a whole number of at least 1 in decimal digits, not "-1"',
    ],
    ['SUITORS_SEATING_TABLES', '0x10', 'SUITORS_SEATING_TABLES must be a whole number of at least 1 in decimal digits, not "0x10"'],
    [
      'SUITORS_SEATING_IDLE_SECONDS',
      'ten',
      'SUITORS_SEATING_IDLE_SECONDS must be a whole number of at least 1 in decimal digits, not "ten"',
    ],
    [
      'SUITORS_FINISHED_IN_LOBBY_SECONDS',
      '-5',
      'SUITORS_FINISHED_IN_LOBBY_SECONDS must be a whole number of at least 0 in decimal digits, not "-5"',
    ],
    ['SUITORS_MIN_TURN_SECONDS', '0', 'SUITORS_MIN_TURN_SECONDS must be a whole number of at least 1 in decimal digits, not "0"'],
    ['SUITORS_SHED_LAG_MS', '500ms', 'SUITORS_SHED_LAG_MS must be a whole number of at least 1 in decimal digits, not "500ms"'],
    ['NATS_REPLICAS', '7', 'NATS_REPLICAS must be a whole number from 1 to 5 in decimal digits, not "7"'],
    ['NATS_REPLICAS', '3.0', 'NATS_REPLICAS must be a whole number from 1 to 5 in decimal digits, not "3.0"'],
    ['LEASE_TTL_MS', '99', 'LEASE_TTL_MS must be a whole number of at least 100 in decimal digits, not "99"'],
    [
      'WORKER_REBALANCE_PER_SECOND',
      'fast',
      'WORKER_REBALANCE_PER_SECOND must be a whole number from 0 to 10000 in decimal digits, not "fast"',
    ],
    ['LOG_LEVEL', 'verbose', 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, not "verbose"'],
    ['WORKER_ID', 'worker.1', 'WORKER_ID must be 1 to 100 letters, digits, - and _ (it is a subject token), not "worker.1"'],
    ['NATS_CREDS', '/no/such/file.nk', 'NATS_CREDS names "/no/such/file.nk", which this process cannot read (ENOENT)'],
    ['NATS_CA', '/no/such/ca.pem', 'NATS_CA names "/no/such/ca.pem", which this process cannot read (ENOENT)'],
    ['NATS_URL', ' , ', 'NATS_URL must name at least one server (nats://host:4222[,nats://...]), not " , "'],
    [
      'NATS_STREAM',
      'TABLE EVENTS',
      `NATS_STREAM is refused by the JetStream layout: streamName must be letters, digits, '_' or '-', not "TABLE EVENTS"`,
    ],
    [
      'NATS_PREFIX',
      'tables.',
      `NATS_PREFIX is refused by the JetStream layout: prefix must be dot-separated tokens of letters, digits, '_' or '-', not "tables."`,
    ],
  ])('%s=%j is refused, naming the variable', (name, value, message) => {
    const refusal = refusalOf({ [name]: value });
    expect(refusal.variable).toBe(name);
    expect(refusal.message.startsWith(message)).toBe(true);
  });

  it('every variable has a meaning and a default a person can read', () => {
    for (const [key, variable] of Object.entries(SETTINGS)) {
      expect(variable.name).toBe(key);
      expect(variable.meaning.length).toBeGreaterThan(10);
      expect(variable.default).not.toBe('');
    }
  });
});

describe('a bad setting stops a process at its start', () => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const tsx = createRequire(import.meta.url).resolve('tsx');
  const directory = mkdtempSync(join(tmpdir(), 'settings-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  /** Runs a service entry with `env` over this process's environment; its status and what it wrote to stderr. */
  function run(entry: string, env: Environment): Promise<{ status: number | null; stderr: string }> {
    const child = spawn(process.execPath, ['--import', tsx, entry], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return new Promise((resolve) => child.once('exit', (status) => resolve({ status, stderr })));
  }

  it('the embedded service, before it creates its database file', async () => {
    const database = join(directory, 'never.db');
    const { status, stderr } = await run('services/main.ts', { SUITORS_DB: database, PORT: '0', SUITORS_SEATING_TABLES: '1,000' });
    expect(status).toBe(1);
    expect(stderr).toContain('SUITORS_SEATING_TABLES must be a whole number of at least 1 in decimal digits, not "1,000"');
    expect(existsSync(database)).toBe(false);
  });

  it('the embedded service, named a storage it cannot run on, before it opens any', async () => {
    const database = join(directory, 'never-either.db');
    const { status, stderr } = await run('services/main.ts', { SUITORS_DB: database, PORT: '0', SUITORS_STORAGE: 'nats' });
    expect(status).toBe(1);
    expect(stderr).toContain('SUITORS_STORAGE=nats will not do here: the embedded service owns its tables alone');
    expect(existsSync(database)).toBe(false);
  });

  it('a table worker, before it connects (nothing listens at its NATS_URL)', async () => {
    const { status, stderr } = await run('services/worker/main.ts', { NATS_URL: 'nats://127.0.0.1:9', SUITORS_BOT_DELAY_MS: 'soon' });
    expect(status).toBe(2);
    expect(stderr.trim()).toBe(
      'the table worker could not start: SUITORS_BOT_DELAY_MS must be a whole number of at least 0 in decimal digits, not "soon"',
    );
  });

  it('a distributed gateway, before it connects', async () => {
    const { status, stderr } = await run('services/gateway/distributed.ts', { NATS_URL: 'nats://127.0.0.1:9', LEASE_TTL_MS: '50' });
    expect(status).toBe(1);
    expect(stderr).toContain('LEASE_TTL_MS must be a whole number of at least 100 in decimal digits, not "50"');
  });
});
