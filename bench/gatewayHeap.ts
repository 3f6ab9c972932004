/**
 * The gateway's memory after a full garbage collection, for bench:gateway:
 * the service runs with `--inspect` on a loopback port, and this asks it,
 * through the DevTools protocol, to collect garbage and say how much heap
 * is left, then reads its RSS from /proc. Without the collection a figure
 * says as much about when V8 last collected as about what a table costs.
 */
import { writeFileSync } from 'node:fs';
import { WebSocket } from 'ws';
import { procStatus } from '../drivers/figures/processStatus.js';
import { freePort } from '../drivers/localNats.js';

export interface AfterGc {
  /** Heap in use after the collection, bytes. */
  readonly heapUsed: number;
  /** The process's resident set right after it, bytes (V8 keeps some freed pages). */
  readonly rss: number;
}

/** Where the sampling heap profiler saw bytes allocated: a function and its source position. */
export interface AllocationSite {
  readonly site: string;
  readonly bytes: number;
}

export interface GatewayHeap {
  /** Collects garbage twice (what a finalizer freed goes in the second), then measures. */
  afterGc(pid: number): Promise<AfterGc>;
  /** Starts counting what the main thread allocates on the heap (v8.GCProfiler, which sees every collection). */
  startCountingAllocations(): Promise<void>;
  /** Bytes allocated since startCountingAllocations: what each collection found in use, less what the last left. */
  allocatedBytes(): Promise<number>;
  /** Starts V8's sampling heap profiler, keeping what collections free: every allocation's call stack, sampled. */
  startSamplingAllocations(): Promise<void>;
  /** Stops it: sampled bytes by the allocating function and by the nearest of ours on its stack, largest first. */
  sampledAllocations(): Promise<{ bySite: AllocationSite[]; byOwnCaller: AllocationSite[] }>;
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
  const send = <T>(method: string, params?: object): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = ++lastId;
      waiting.set(id, { resolve: resolve as (result: unknown) => void, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  // The console's command-line API gives the evaluated code `require`, which an ES module process lacks.
  const evaluate = async (expression: string): Promise<string> => {
    const { result, exceptionDetails } = await send<{ result: { value: string }; exceptionDetails?: { text: string } }>(
      'Runtime.evaluate',
      { expression, includeCommandLineAPI: true },
    );
    if (exceptionDetails !== undefined) throw new Error(`inspector: ${exceptionDetails.text} in ${expression}`);
    return result.value;
  };
  return {
    async afterGc(pid) {
      await send('HeapProfiler.collectGarbage');
      await send('HeapProfiler.collectGarbage');
      const { usedSize } = await send<{ usedSize: number }>('Runtime.getHeapUsage');
      const status = procStatus(pid);
      if (status === null) throw new Error(`no /proc/${pid}/status: the RSS after GC needs Linux`);
      return { heapUsed: usedSize, rss: status.rss };
    },
    async startCountingAllocations() {
      await evaluate(
        "globalThis.__benchAllocations = { profiler: new (require('v8').GCProfiler)(), usedAtStart: process.memoryUsage().heapUsed }; __benchAllocations.profiler.start(); 'started'",
      );
    },
    async allocatedBytes() {
      return Number(await evaluate(`(${ALLOCATED_SINCE_START})()`));
    },
    async startSamplingAllocations() {
      await send('HeapProfiler.startSampling', {
        samplingInterval: 4096,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
    },
    async sampledAllocations() {
      const { profile } = await send<{ profile: { head: SamplingNode } }>('HeapProfiler.stopSampling');
      if (process.env.BENCH_ALLOCATION_PROFILE) writeFileSync(process.env.BENCH_ALLOCATION_PROFILE, JSON.stringify(profile));
      return allocationSites(profile.head);
    },
    close() {
      socket.close();
    },
  };
}

interface SamplingNode {
  readonly callFrame: { functionName: string; url: string; lineNumber: number };
  readonly selfSize: number;
  readonly children: readonly SamplingNode[];
}

function allocationSites(head: SamplingNode): { bySite: AllocationSite[]; byOwnCaller: AllocationSite[] } {
  const bySite = new Map<string, number>();
  const byOwnCaller = new Map<string, number>();
  const add = (into: Map<string, number>, site: string, bytes: number) => into.set(site, (into.get(site) ?? 0) + bytes);
  const visit = (node: SamplingNode, ownCaller: string) => {
    const site = siteOf(node.callFrame);
    const own = /^(machines|services|drivers)\//.test(site.split(' ').at(-1) ?? '') ? site : ownCaller;
    if (node.selfSize > 0) {
      add(bySite, site, node.selfSize);
      add(byOwnCaller, own, node.selfSize);
    }
    for (const child of node.children) visit(child, own);
  };
  visit(head, '(no caller of ours)');
  const sorted = (sites: Map<string, number>) => [...sites].map(([site, bytes]) => ({ site, bytes })).sort((a, b) => b.bytes - a.bytes);
  return { bySite: sorted(bySite), byOwnCaller: sorted(byOwnCaller) };
}

function siteOf({ functionName, url, lineNumber }: SamplingNode['callFrame']): string {
  const where = url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\//, 'node_modules/')
    .replace(/^\/work\/[^/]+\//, '');
  return `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
}

/**
 * Evaluated in the measured process. The heap in use grows only by allocation between collections, so what was
 * allocated is each collection's heap before it less what the previous one left, and the same to the end.
 */
const ALLOCATED_SINCE_START = `() => {
  const { profiler, usedAtStart } = globalThis.__benchAllocations;
  const { statistics } = profiler.stop();
  let allocated = 0;
  let left = usedAtStart;
  for (const gc of statistics) {
    allocated += Math.max(0, gc.beforeGC.heapStatistics.usedHeapSize - left);
    left = gc.afterGC.heapStatistics.usedHeapSize;
  }
  allocated += Math.max(0, process.memoryUsage().heapUsed - left);
  return String(allocated);
}`;
