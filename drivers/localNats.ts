/**
 * Real nats-server processes on loopback for tests, benchmarks and the
 * no-Docker cluster script: one JetStream server, or a 3-node JetStream
 * cluster whose nodes can be killed and restarted. Each node keeps its
 * JetStream files in its own temporary folder, kept across restarts.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { natsServerProgram } from '../services/settings.js';

export interface NatsNode {
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
  /** SIGKILL one node (its files stay). */
  kill(index: number): Promise<void>;
  /** Start a stopped node again on the same ports and files, and wait until it is healthy. */
  restart(index: number): Promise<void>;
  stop(): Promise<void>;
}

const BINARY = natsServerProgram();

/** Throws, with what to do, when no nats-server can be run here. */
export function requireNatsServer(): void {
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

/**
 * Starts `size` JetStream servers (1, or 3 for a cluster) on free loopback
 * ports. A port found free can be taken by another process before the
 * server binds it (tests start servers in parallel), so a start whose node
 * exits is retried on fresh ports.
 */
export async function startLocalNats(size: 1 | 3 = 1): Promise<LocalNats> {
  requireNatsServer();
  for (let attempt = 1; ; attempt++) {
    const started = await startOnFreshPorts(size);
    if (started.ok) return started.nats;
    await started.nats.stop();
    if (attempt === START_ATTEMPTS) throw started.error;
  }
}

async function startOnFreshPorts(size: 1 | 3): Promise<{ ok: true; nats: LocalNats } | { ok: false; nats: LocalNats; error: unknown }> {
  const nodes: NatsNode[] = [];
  for (let i = 0; i < size; i++) {
    const clientPort = await freePort();
    nodes.push({
      name: `n${i + 1}`,
      url: `nats://127.0.0.1:${clientPort}`,
      clientPort,
      clusterPort: await freePort(),
      monitorPort: await freePort(),
      storeDir: mkdtempSync(join(tmpdir(), `suitors-nats-n${i + 1}-`)),
      process: null,
    });
  }
  const launch = (node: NatsNode) => {
    const args = [
      '-a',
      '127.0.0.1',
      '-p',
      String(node.clientPort),
      '-m',
      String(node.monitorPort),
      '-n',
      node.name,
      '-js',
      '-sd',
      node.storeDir,
    ];
    if (size > 1) {
      const routes = nodes.filter((other) => other !== node).map((other) => `nats://127.0.0.1:${other.clusterPort}`);
      args.push('--cluster_name', 'suitors', '--cluster', `nats://127.0.0.1:${node.clusterPort}`, '--routes', routes.join(','));
    }
    node.process = spawn(BINARY, args, { stdio: 'ignore' });
    node.process.on('exit', () => {
      node.process = null;
    });
  };
  nodes.forEach(launch);

  const cluster: LocalNats = {
    nodes,
    urls: nodes.map((node) => node.url).join(','),
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
    },
  };
  try {
    await Promise.all(nodes.map((node) => waitHealthy(node)));
    return { ok: true, nats: cluster };
  } catch (error) {
    return { ok: false, nats: cluster, error };
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
