/**
 * The distributed service at many tables (npm run bench:scale, issue 32): a 3-node JetStream cluster on loopback
 * (secured, as production runs), two table workers as child processes, and this process as the gateway
 * (RemoteTables, as bench:nats). For each size in turn (BENCH_SIZES, 10000 then 100000) the room grows to that
 * many tables, each created, seated and played a few moves (BENCH_MOVES, 2) as people would; then most stand idle,
 * as in a real room, and BENCH_ACTIVE tables (200) picked at random among them all play at a human pace
 * (BENCH_THINK_MS, 1000) for BENCH_SECONDS (30). The same number move at every size, so what changes between sizes
 * is only the room around them.
 *
 * Printed at each size: the workers' and the nats-servers' memory per table (RSS over what they held before the
 * first table), the tables the workers keep resident, and CPU per command by role over the steady stretch. Ends
 * with one `summary:` line whose ratios (largest size over smallest) are the goal: ≤ 1.25.
 *
 * Workers let a table go after BENCH_IDLE_SECONDS (30) without a command, so the idle room leaves their memory,
 * as the service's default 300 s does over a longer run; so does the gateway's copy of it (serve.ts's sweep). The gateway's memory per socket is bench:gateway's.
 */
import { createRng } from '../machines/cards/shuffle.js';
import { megabytes, percentile } from '../drivers/figures/latency.js';
import { getText, metricValue, parseMetrics } from '../drivers/figures/metrics.js';
import { procStatus } from '../drivers/figures/processStatus.js';
import { summaryLine } from '../drivers/figures/summary.js';
import { number, readFlags, text, wholeNumber } from '../drivers/flags.js';
import { freePort, startLocalNats } from '../drivers/localNats.js';
import { createRemoteTable, gameOf, nextRemoteMove, submitRemoteMove } from '../drivers/remotePlay.js';
import { startWorkerProcess, type WorkerProcess } from '../drivers/workerProcess.js';
import { RemoteTables } from '../services/bus/remoteTables.js';
import { sweepIdleTables } from '../services/gateway/serve.js';
import { openJetStreamEventStore } from '../services/eventstore/jetstream/index.js';
import { cpuSpent, markCpu, sumOf, type CpuProcess } from './cpuShares.js';

const SETTINGS = readFlags(
  {
    sizes: text({ env: 'BENCH_SIZES', default: '10000,100000' }),
    active: wholeNumber({ env: 'BENCH_ACTIVE', default: 200 }),
    moves: wholeNumber({ env: 'BENCH_MOVES', default: 2, zero: true }),
    seconds: number({ env: 'BENCH_SECONDS', default: 30 }),
    'think-ms': number({ env: 'BENCH_THINK_MS', default: 1000 }),
    'idle-seconds': wholeNumber({ env: 'BENCH_IDLE_SECONDS', default: 30 }),
    'create-concurrency': wholeNumber({ env: 'BENCH_CREATE_CONCURRENCY', default: 64 }),
  },
  'npm run bench:scale [-- --sizes 10000,100000 --active N --moves M --seconds S --think-ms T --idle-seconds I --create-concurrency C]',
);
const SIZES = SETTINGS.sizes.split(',').map((size) => {
  const tables = Number(size);
  if (!Number.isInteger(tables) || tables < 1) throw new Error(`a size is a whole number of tables: "${size}"`);
  return tables;
});
const THINK_MS = SETTINGS['think-ms'];
const WARMUP_MS = Math.min(10_000, (SETTINGS.seconds * 1000) / 3);
const step = (line: string) => console.log(`… ${line}`);

interface SizeFigures {
  readonly tables: number;
  readonly createdPerSecond: number;
  readonly workerKbPerTable: number;
  readonly natsKbPerTablePerNode: number;
  readonly residentTables: number;
  readonly commands: number;
  readonly cpuMicrosPerCommand: { readonly workers: number; readonly nats: number; readonly gateway: number; readonly all: number };
  readonly p50Ms: number;
  readonly p99Ms: number;
}

console.log(
  `scale benchmark: 3 nats-servers (R3, secured), 2 table workers, this process as the gateway; sizes ${SIZES.join(', ')} tables, ` +
    `each table seated and played ${SETTINGS.moves} moves; then ${SETTINGS.active} tables at random play at ${THINK_MS} ms think for ${SETTINGS.seconds}s`,
);
const nats = await startLocalNats(3);
const workers: WorkerProcess[] = [];
const metricsPorts: number[] = [];
try {
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    metricsPorts.push(port);
    workers.push(
      await startWorkerProcess({
        natsEnv: nats.env('worker'),
        workerId: `w-scale-${i + 1}`,
        replicas: 3,
        idleSeconds: SETTINGS['idle-seconds'],
        metricsPort: port,
      }),
    );
  }
  const nc = await nats.connect('gateway');
  const store = await openJetStreamEventStore({ connection: nc, createMissing: false });
  const tables = new RemoteTables({ nc, store });
  // As a gateway process does (serve.ts): the copies of tables no one reads leave this process's memory.
  const stopSweeping = sweepIdleTables(tables, SETTINGS['idle-seconds'] * 1000, { debug: () => undefined, error: console.error });
  const natsPids = nats.nodes.map((node) => node.process?.pid ?? -1);
  const workerPids = workers.map((worker) => worker.child.pid ?? -1);
  const rssOf = (pids: readonly number[]) => pids.map((pid) => procStatus(pid)?.rss ?? NaN);
  const workerRssAtStart = rssOf(workerPids);
  const natsRssAtStart = rssOf(natsPids);
  const rng = createRng('bench-scale');
  const tableIds: string[] = [];
  const figures: SizeFigures[] = [];
  /** Requests that failed (no answer in time, a table between owners): counted, and the work done again. */
  let troubles = 0;

  /** A table created, seated and played its first moves. */
  const openTable = async (index: number): Promise<void> => {
    const { tableId } = await createRemoteTable(tables, { game: gameOf(index) });
    for (let move = 0; move < SETTINGS.moves; move++) {
      const next = nextRemoteMove((await tables.snapshot(tableId)).snapshot, rng);
      if (next === null) break;
      await submitRemoteMove(tables, tableId, next);
    }
    tableIds.push(tableId);
  };

  /** Tables resident in the workers now, from their /metrics. */
  const residentTables = async (): Promise<number> => {
    let held = 0;
    for (const port of metricsPorts) {
      const { body } = await getText(`http://127.0.0.1:${port}/metrics`);
      held += metricValue(parseMetrics(body), 'suitors_worker_tables_held') ?? 0;
    }
    return held;
  };

  for (const size of SIZES) {
    step(`growing the room to ${size} tables`);
    const growStarted = performance.now();
    const first = tableIds.length;
    let next = first;
    let lastProgress = performance.now();
    await Promise.all(
      Array.from({ length: SETTINGS['create-concurrency'] }, async () => {
        while (next < size) {
          const index = next++;
          // A create that timed out under load may or may not have been made: a new one is made in its place.
          await openTable(index).catch(() => {
            troubles++;
            next--;
          });
          if (performance.now() - lastProgress > 10_000) {
            lastProgress = performance.now();
            step(`${tableIds.length} tables (${(((tableIds.length - first) * 1000) / (lastProgress - growStarted)).toFixed(0)}/s)`);
          }
        }
      }),
    );
    const createdPerSecond = ((size - first) * 1000) / (performance.now() - growStarted);
    step(`${size} tables, ${createdPerSecond.toFixed(0)} a second; waiting for the workers to let the idle ones go`);
    // The room's idle tables leave the workers' memory after their idle time; the active ones come back below.
    const idleBy = performance.now() + (SETTINGS['idle-seconds'] + 30) * 1000;
    while ((await residentTables()) > SETTINGS.active && performance.now() < idleBy) await sleep(2000);

    const active = Array.from({ length: SETTINGS.active }, () => tableIds[rng.below(tableIds.length)]);
    const latencies: number[] = [];
    let commands = 0;
    const serviceProcesses: CpuProcess[] = [
      { name: 'gateway', pid: null },
      ...workerPids.map((pid, index) => ({ name: `worker ${index + 1}`, pid })),
      ...natsPids.map((pid, index) => ({ name: `nats-server ${index + 1}`, pid })),
    ];
    const playStarted = performance.now();
    const endsAt = playStarted + SETTINGS.seconds * 1000;
    let cpuAtSteady: ReturnType<typeof markCpu> | null = null;
    const steadyTimer = setTimeout(() => {
      cpuAtSteady = markCpu(serviceProcesses);
    }, WARMUP_MS);
    let commandsAtSteady = 0;
    await Promise.all(
      active.map(async (startAt) => {
        let tableId = startAt;
        await sleep(rng.below(THINK_MS + 1));
        while (performance.now() < endsAt) {
          const sent = performance.now();
          try {
            const move = nextRemoteMove((await tables.snapshot(tableId)).snapshot, rng);
            if (move === null) {
              tableId = tableIds[rng.below(tableIds.length)];
              continue;
            }
            await submitRemoteMove(tables, tableId, move);
          } catch {
            troubles++;
            continue;
          }
          if (sent - playStarted >= WARMUP_MS) {
            latencies.push(performance.now() - sent);
            commands++;
          } else commandsAtSteady++;
          await sleep(THINK_MS * (0.5 + rng.below(1001) / 1000));
        }
      }),
    );
    clearTimeout(steadyTimer);
    const spent = cpuSpent(cpuAtSteady ?? markCpu(serviceProcesses), markCpu(serviceProcesses));
    const perCommand = (seconds: number) => (commands === 0 ? NaN : (seconds / commands) * 1e6);
    const workerRss = rssOf(workerPids);
    const natsRss = rssOf(natsPids);
    const gatewayHeap = process.memoryUsage().heapUsed;
    const sorted = latencies.slice().sort((a, b) => a - b);
    const sizeFigures: SizeFigures = {
      tables: size,
      createdPerSecond,
      workerKbPerTable: sum(workerRss.map((rss, index) => rss - workerRssAtStart[index])) / size / 1024,
      natsKbPerTablePerNode: sum(natsRss.map((rss, index) => rss - natsRssAtStart[index])) / natsPids.length / size / 1024,
      residentTables: await residentTables(),
      commands,
      cpuMicrosPerCommand: {
        workers: perCommand(sumOf(spent, (name) => name.startsWith('worker'))),
        nats: perCommand(sumOf(spent, (name) => name.startsWith('nats-server'))),
        gateway: perCommand(spent.get('gateway') ?? 0),
        all: perCommand(sumOf(spent, () => true)),
      },
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
    };
    figures.push(sizeFigures);
    console.log(
      `${size} tables: created ${createdPerSecond.toFixed(0)}/s; memory per table: workers ${sizeFigures.workerKbPerTable.toFixed(2)} KB ` +
        `(RSS ${workerRss.map(megabytes).join(', ')}, ${sizeFigures.residentTables} tables resident), nats-servers ${sizeFigures.natsKbPerTablePerNode.toFixed(2)} KB a node ` +
        `(RSS ${natsRss.map(megabytes).join(', ')}); ${commands} commands after the warm-up (${commandsAtSteady} before), ` +
        `CPU per command: workers ${sizeFigures.cpuMicrosPerCommand.workers.toFixed(0)} µs, nats-servers ${sizeFigures.cpuMicrosPerCommand.nats.toFixed(0)} µs, ` +
        `gateway (this process, with the players) ${sizeFigures.cpuMicrosPerCommand.gateway.toFixed(0)} µs, its heap ${megabytes(gatewayHeap)}; latency p50 ${sizeFigures.p50Ms.toFixed(1)} ms, p99 ${sizeFigures.p99Ms.toFixed(1)} ms; ${troubles} requests failed so far`,
    );
  }
  stopSweeping();
  await tables.close();
  await store.close();
  await nc.close();

  const smallest = figures[0];
  const largest = figures[figures.length - 1];
  const summary: Record<string, number> = {};
  for (const each of figures) {
    summary[`t${each.tables}_service_cpu_us_per_command`] = each.cpuMicrosPerCommand.workers + each.cpuMicrosPerCommand.nats;
    summary[`t${each.tables}_worker_kb_per_table`] = each.workerKbPerTable;
    summary[`t${each.tables}_nats_kb_per_table_node`] = each.natsKbPerTablePerNode;
    summary[`t${each.tables}_created_per_s`] = Math.round(each.createdPerSecond);
  }
  const serviceCpu = (each: SizeFigures) => each.cpuMicrosPerCommand.workers + each.cpuMicrosPerCommand.nats;
  summary.cpu_per_command_ratio = serviceCpu(largest) / serviceCpu(smallest);
  summary.p50_ratio = largest.p50Ms / smallest.p50Ms;
  summary.failed_requests = troubles;
  console.log(summaryLine(summary, 2));
} finally {
  await Promise.allSettled(workers.map((worker) => worker.stop()));
  await nats.stop();
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
