/**
 * The gateway's memory after a full garbage collection, for bench:gateway:
 * the service runs with `--inspect` on a loopback port, and this asks it,
 * through the DevTools protocol, to collect garbage and say how much heap
 * is left, then reads its RSS from /proc. Without the collection a figure
 * says as much about when V8 last collected as about what a table costs.
 */
import { WebSocket } from 'ws';
import { procStatus } from '../drivers/figures/processStatus.js';
import { freePort } from '../drivers/localNats.js';

export interface AfterGc {
  /** Heap in use after the collection, bytes. */
  readonly heapUsed: number;
  /** The process's resident set right after it, bytes (V8 keeps some freed pages). */
  readonly rss: number;
}

export interface GatewayHeap {
  /** Collects garbage twice (what a finalizer freed goes in the second), then measures. */
  afterGc(pid: number): Promise<AfterGc>;
  close(): void;
}

/** A loopback port for the gateway's inspector, and its node flag. */
export async function inspectorFlag(): Promise<{ port: number; flag: string }> {
  const port = await freePort();
  return { port, flag: `--inspect=127.0.0.1:${port}` };
}

export async function connectGatewayHeap(port: number): Promise<GatewayHeap> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  if (targets.length === 0) throw new Error(`the gateway's inspector on port ${port} lists no target`);
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let lastId = 0;
  const waiting = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } };
    const call = message.id === undefined ? undefined : waiting.get(message.id);
    if (call === undefined) return;
    waiting.delete(message.id!);
    if (message.error !== undefined) call.reject(new Error(`inspector: ${message.error.message}`));
    else call.resolve(message.result);
  });
  const send = <T>(method: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = ++lastId;
      waiting.set(id, { resolve: resolve as (result: unknown) => void, reject });
      socket.send(JSON.stringify({ id, method }));
    });
  return {
    async afterGc(pid) {
      await send('HeapProfiler.collectGarbage');
      await send('HeapProfiler.collectGarbage');
      const { usedSize } = await send<{ usedSize: number }>('Runtime.getHeapUsage');
      const status = procStatus(pid);
      if (status === null) throw new Error(`no /proc/${pid}/status: the RSS after GC needs Linux`);
      return { heapUsed: usedSize, rss: status.rss };
    },
    close() {
      socket.close();
    },
  };
}
