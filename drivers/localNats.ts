/**
 * Real nats-server processes on loopback for tests, benchmarks and the
 * no-Docker cluster script: one JetStream server, or a 3-node JetStream
 * cluster whose nodes can be killed and restarted. Each node keeps its
 * JetStream files in its own temporary folder, kept across restarts.
 *
 * Secured as production is, unless asked otherwise: no anonymous client, an
 * NKey user per identity with its permissions (services/bus/natsPermissions.ts),
 * TLS on client connections and on the routes, from throw-away secrets made
 * for this cluster (services/nats/security/secrets.ts). `connect(role)`,
 * `connectOptions(role)` and `env(role)` hand out each identity's access.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConnectionOptions, NatsConnection } from '@nats-io/nats-core';
import { connectBatched } from '../services/nats/turnBatchedConnect.js';
import { natsUsers } from '../services/bus/natsPermissions.js';
import { connectionOptionsOf, type NatsAccess } from '../services/nats/connection.js';
import type { NatsRole } from '../services/nats/security/roles.js';
import { makeNatsSecrets, type NatsSecrets } from '../services/nats/security/secrets.js';
import { authorizationConfig, clientTlsConfig, routeTlsConfig, tlsFilesOf } from '../services/nats/security/serverConfig.js';
import { natsServerProgram } from '../services/settings.js';
import type { ProcessGroupOption } from './processGroups.js';

interface NatsNode {
  readonly name: string;
  readonly url: string;
  readonly clientPort: number;
  readonly clusterPort: number;
  readonly monitorPort: number;
  readonly storeDir: string;
  process: ChildProcess | null;
}

export interface LocalNats {
  readonly nodes: readonly NatsNode[];
  /** Every node's client URL, comma-separated, as NATS_URL takes them. */
  readonly urls: string;
  /** The cluster's secrets (its CA and each identity's NKey), or null when it runs open (`security: 'off'`). */
  readonly secrets: NatsSecrets | null;
  /** How `role` reaches the cluster: its servers, credentials and CA. */
  access(role: NatsRole): NatsAccess;
  /** nats.js's options to connect as `role`, with `overrides` over them. */
  connectOptions(role: NatsRole, overrides?: Partial<ConnectionOptions>): ConnectionOptions;
  connect(role: NatsRole, overrides?: Partial<ConnectionOptions>): Promise<NatsConnection>;
  /** The environment of a service process connecting as `role`: NATS_URL, NATS_CREDS, NATS_CA. */
  env(role: NatsRole): Record<string, string>;
  /** SIGKILL one node (its files stay). */
  kill(index: number): Promise<void>;
  /** Start a stopped node again on the same ports and files, and wait until it is healthy. */
  restart(index: number): Promise<void>;
  stop(): Promise<void>;
}

const BINARY = natsServerProgram();

/** Throws, with what to do, when no nats-server can be run here. */
function requireNatsServer(): void {
  const probe = spawnSync(BINARY, ['--version'], { encoding: 'utf8' });
  if (probe.error !== undefined || probe.status !== 0) {
    throw new Error(`${BINARY} is not installed: apt-get install -y nats-server (or set NATS_SERVER to its path)`);
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** How many times a start is tried with fresh ports before giving up. */
const START_ATTEMPTS = 4;

export interface LocalNatsOptions extends ProcessGroupOption {
  /** 'on' (the default): credentials, permissions and TLS, as production runs; 'off': open, as a measure's baseline. */
  readonly security?: 'on' | 'off';
  /** The deployment the identities' permissions are for (NATS_STREAM, NATS_PREFIX; the defaults by default). */
  readonly streamName?: string;
  readonly prefix?: string;
  /** Where the secrets are made (a new temporary folder by default, deleted by stop()). */
  readonly secretsDir?: string;
}

/**
 * Starts `size` JetStream servers (1, or 3 for a cluster) on free loopback
 * ports. A port found free can be taken by another process before the
 * server binds it (tests start servers in parallel), so a start whose node
 * exits is retried on fresh ports.
 */
export async function startLocalNats(size: 1 | 3 = 1, options: LocalNatsOptions = {}): Promise<LocalNats> {
  requireNatsServer();
  const ownSecrets = options.security !== 'off' && options.secretsDir === undefined;
  const secretsDir = options.secretsDir ?? (ownSecrets ? mkdtempSync(join(tmpdir(), 'suitors-nats-secrets-')) : null);
  const secrets = options.security === 'off' || secretsDir === null ? null : makeNatsSecrets(secretsDir);
  const cleanUp = () => {
    if (ownSecrets && secretsDir !== null) rmSync(secretsDir, { recursive: true, force: true });
  };
  for (let attempt = 1; ; attempt++) {
    const started = await startOnFreshPorts(size, secrets, options, cleanUp);
    if (started.ok) return started.nats;
    if (attempt === START_ATTEMPTS) {
      cleanUp();
      throw started.error;
    }
  }
}

/** A node's whole configuration: where it listens and keeps its files, its cluster, and with secrets who may connect. */
function nodeConfig(node: NatsNode, others: readonly NatsNode[], secrets: NatsSecrets | null, options: LocalNatsOptions): string {
  const lines = [
    `server_name: ${JSON.stringify(node.name)}`,
    `listen: "127.0.0.1:${node.clientPort}"`,
    `http: "127.0.0.1:${node.monitorPort}"`,
    `jetstream { store_dir: ${JSON.stringify(node.storeDir)} }`,
  ];
  if (secrets !== null) {
    lines.push(clientTlsConfig(tlsFilesOf(secrets)), authorizationConfig(natsUsers(secrets, options)));
  }
  if (others.length > 0) {
    lines.push(
      'cluster {',
      '  name: "suitors"',
      `  listen: "127.0.0.1:${node.clusterPort}"`,
      `  routes: [${others.map((other) => JSON.stringify(`nats-route://127.0.0.1:${other.clusterPort}`)).join(', ')}]`,
      ...(secrets === null ? [] : [routeTlsConfig(tlsFilesOf(secrets))]),
      '}',
    );
  }
  return `${lines.join('\n')}\n`;
}

async function startOnFreshPorts(
  size: 1 | 3,
  secrets: NatsSecrets | null,
  options: LocalNatsOptions,
  cleanUp: () => void,
): Promise<{ ok: true; nats: LocalNats } | { ok: false; error: unknown }> {
  const nodes: NatsNode[] = [];
  const scheme = secrets === null ? 'nats' : 'tls';
  for (let i = 0; i < size; i++) {
    const clientPort = await freePort();
    nodes.push({
      name: `n${i + 1}`,
      url: `${scheme}://127.0.0.1:${clientPort}`,
      clientPort,
      clusterPort: await freePort(),
      monitorPort: await freePort(),
      storeDir: mkdtempSync(join(tmpdir(), `suitors-nats-n${i + 1}-`)),
      process: null,
    });
  }
  const launch = (node: NatsNode) => {
    const configFile = join(node.storeDir, 'nats-server.conf');
    writeFileSync(
      configFile,
      nodeConfig(
        node,
        nodes.filter((other) => other !== node),
        secrets,
        options,
      ),
    );
    node.process = spawn(BINARY, ['-c', configFile], { stdio: 'ignore', detached: options.ownProcessGroup === true });
    node.process.on('exit', () => {
      node.process = null;
    });
  };
  nodes.forEach(launch);

  const urls = nodes.map((node) => node.url).join(',');
  const access = (role: NatsRole): NatsAccess => ({
    servers: urls.split(','),
    ...(secrets === null ? {} : { credsFile: secrets.identities[role].seedFile, caFile: secrets.caFile }),
  });
  const connectOptions = (role: NatsRole, overrides: Partial<ConnectionOptions> = {}): ConnectionOptions => ({
    ...connectionOptionsOf(access(role), role),
    ...overrides,
  });
  const cluster: LocalNats = {
    nodes,
    urls,
    secrets,
    access,
    connectOptions,
    connect: (role, overrides) => connectBatched(connectOptions(role, overrides)),
    env(role) {
      const { credsFile, caFile } = access(role);
      return {
        NATS_URL: urls,
        ...(credsFile === undefined ? {} : { NATS_CREDS: credsFile }),
        ...(caFile === undefined ? {} : { NATS_CA: caFile }),
      };
    },
    async kill(index) {
      const node = nodes[index];
      const child = node.process;
      if (child === null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
    async restart(index) {
      const node = nodes[index];
      if (node.process === null) launch(node);
      await waitHealthy(node);
    },
    async stop() {
      await Promise.all(nodes.map((_, index) => cluster.kill(index)));
      for (const node of nodes) rmSync(node.storeDir, { recursive: true, force: true });
      cleanUp();
    },
  };
  try {
    await Promise.all(nodes.map((node) => waitHealthy(node)));
    return { ok: true, nats: cluster };
  } catch (error) {
    // Not stop(): the secrets stay for the next attempt.
    await Promise.all(nodes.map((_, index) => cluster.kill(index)));
    for (const node of nodes) rmSync(node.storeDir, { recursive: true, force: true });
    return { ok: false, error };
  }
}

/** Waits until the node answers its health check (JetStream included) or gives up after `timeoutMs`. */
async function waitHealthy(node: NatsNode, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (node.process === null) throw new Error(`nats-server ${node.name} exited while starting`);
    try {
      const response = await fetch(`http://127.0.0.1:${node.monitorPort}/healthz`);
      if (response.ok) return;
      last = `${response.status} ${await response.text()}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nats-server ${node.name} was not healthy within ${timeoutMs} ms: ${last}`);
}
