/**
 * The distributed service's benchmark (npm run bench:nats): a 3-node
 * JetStream cluster on loopback, table workers as child processes, and this
 * process as the gateway (RemoteTables) playing bot games at many concurrent
 * tables. Prints accepted commands/s and command latency (gateway request to
 * acknowledgement, the log append included), replay speed from JetStream,
 * and the raw JetStream publish rate measured in the same run on the same
 * cluster (awaited one by one, and with a window of publishes in flight),
 * with the service's rate as a share of the windowed one. For scale it also
 * measures the JetStream event store by itself (appends with no service
 * around them): the most the service could reach with that store.
 *
 * And what a command costs: the CPU time each process spent while the games
 * were played (this process as the gateway, less the load generator's move
 * picking; each worker; each nats-server) per accepted command, against the
 * nats-servers' CPU time per raw R3 append measured in the same run (issue
 * 17's goal: service CPU per command / raw append CPU per message <= 2.5).
 * A nats-server spends less per message the more it can batch, so the raw
 * append is measured both with a full window (its best case) and paced at
 * the rate the service reached, over a subject per table (the service's
 * conditions), each with its ratio.
 *
 * BENCH_TABLES (--tables, 1000), BENCH_SECONDS (--seconds, 20), BENCH_THINK_MS
 * (--think-ms, 0: each table moves as soon as its last move is acknowledged;
 * more models players who take 0.5 to 1.5 times that to choose, and the
 * latency is then also given after a warm-up of a third of the run, at most
 * 10 s, as every table's first move goes out at once),
 * BENCH_WORKERS (--workers, 2), BENCH_LEASE_TTL_MS (--lease-ttl-ms, 3000),
 * BENCH_REPLICAS (--replicas, 3), BENCH_RAW_MESSAGES (--raw-messages,
 * 40000); BENCH_WORKER_NODE_ARGS (--worker-node-args, e.g. `--cpu-prof
 * --cpu-prof-dir=/tmp/prof` to profile the workers), BENCH_GATEWAY_PROFILE
 * (--gateway-profile, a .cpuprofile file: this process while the games are
 * played), BENCH_NATS_SECURITY (--security, on: credentials, permissions and
 * TLS as production runs; off: an open cluster, to measure what they cost).
 * Ends with one `summary:` line of the headline figures.
 */
import { jetstream, jetstreamManager, RetentionPolicy, StorageType, type JetStreamClient } from '@nats-io/jetstream';
import { createRng } from '../machines/cards/shuffle.js';
import type { TableSnapshot } from '../machines/table/snapshot.js';
import { RemoteTables } from '../services/bus/remoteTables.js';
import type { NatsConnection } from '@nats-io/nats-core';
import type { EventStore } from '../services/eventstore/eventStore.js';
import { openJetStreamEventStore } from '../services/eventstore/jetstream/index.js';
import { foldLog } from '../services/host/replay.js';
import { startLocalNats } from '../drivers/localNats.js';
import { measureRawPublishRate, RAW_APPEND_PAYLOAD, type PublishRate } from '../drivers/publishRate.js';
import { startWorkerProcess, type WorkerProcess } from '../drivers/workerProcess.js';
import { createRemoteTable, gameOf, nextRemoteMove, submitRemoteMove } from '../drivers/remotePlay.js';
import { latencySummary, percentile } from '../drivers/figures/latency.js';
import { cpuSpent, markCpu, microsEach, profileStretch, sumOf, type CpuProcess } from './cpuShares.js';
import { number, readFlags, text, wholeNumber } from '../drivers/flags.js';

const SETTINGS = readFlags(
  {
    tables: wholeNumber({ env: 'BENCH_TABLES', default: 1000 }),
    seconds: number({ env: 'BENCH_SECONDS', default: 20 }),
    'think-ms': number({ env: 'BENCH_THINK_MS', default: 0, zero: true }),
    workers: wholeNumber({ env: 'BENCH_WORKERS', default: 2 }),
    'lease-ttl-ms': wholeNumber({ env: 'BENCH_LEASE_TTL_MS', default: 3000 }),
    replicas: wholeNumber({ env: 'BENCH_REPLICAS', default: 3 }),
    'raw-messages': wholeNumber({ env: 'BENCH_RAW_MESSAGES', default: 40_000 }),
    'worker-node-args': text({ env: 'BENCH_WORKER_NODE_ARGS', default: '' }),
    'gateway-profile': text({ env: 'BENCH_GATEWAY_PROFILE', default: '' }),
    security: text({ env: 'BENCH_NATS_SECURITY', default: 'on', choices: ['on', 'off'] }),
  },
  'npm run bench:nats [-- --tables N --seconds S --think-ms T --workers W --lease-ttl-ms L --replicas R --raw-messages M --worker-node-args="--cpu-prof ..." --gateway-profile FILE --security on|off]',
);
const TABLES = SETTINGS.tables;
const SECONDS = SETTINGS.seconds;
const THINK_MS = SETTINGS['think-ms'];
const WARMUP_MS = Math.min(10_000, (SECONDS * 1000) / 3);
const WORKERS = SETTINGS.workers;
const LEASE_TTL_MS = SETTINGS['lease-ttl-ms'];
const REPLICAS = SETTINGS.replicas;
const RAW_MESSAGES = SETTINGS['raw-messages'];

const step = (line: string) => console.log(`… ${line}`);
const PICKS_SAMPLED = 16;

console.log(
  `NATS benchmark: ${TABLES} concurrent tables of bots, ${WORKERS} table workers, a 3-node JetStream cluster on loopback ` +
    `(R${REPLICAS}), lease TTL ${LEASE_TTL_MS} ms, ${SECONDS}s${THINK_MS > 0 ? `, ${THINK_MS} ms think time per move` : ''}`,
);
step('starting 3 nats-server processes');
// Secured as production runs (credentials, permissions, TLS); --security off measures what they cost.
const nats = await startLocalNats(3, { security: SETTINGS.security });
const workers: WorkerProcess[] = [];
const natsProcesses: CpuProcess[] = nats.nodes.map((node) => ({ name: `nats-server ${node.name}`, pid: node.process?.pid ?? -1 }));
const isNats = (name: string) => name.startsWith('nats-server');
try {
  // This process is the gateway (as the gateway identity) and, for the raw figures, the operator (admin).
  const admin = await nats.connect('admin');
  const adminStore = await openJetStreamEventStore({ connection: admin, replicas: REPLICAS });
  const rawBefore = await rawPublishRates(admin, 'before');
  const storeAloneCpuBefore = markCpu(natsProcesses);
  const storeAlone = await storeAppendRate(adminStore);
  const storeAloneCpu = sumOf(cpuSpent(storeAloneCpuBefore, markCpu(natsProcesses)), () => true) / storeAlone.appended;
  step(`starting ${WORKERS} table workers`);
  for (let i = 0; i < WORKERS; i++) {
    workers.push(
      await startWorkerProcess({
        natsEnv: nats.env('worker'),
        workerId: `w-bench-${i + 1}`,
        replicas: REPLICAS,
        leaseTtlMs: LEASE_TTL_MS,
        nodeArgs: SETTINGS['worker-node-args'].split(' ').filter((arg) => arg !== ''),
      }),
    );
  }
  const nc = await nats.connect('gateway');
  const store = await openJetStreamEventStore({ connection: nc, createMissing: false });
  const tables = new RemoteTables({ nc, store });

  step(`creating ${TABLES} tables through the workers`);
  const tableIds: string[] = new Array(TABLES);
  let created = 0;
  const createStarted = performance.now();
  await inParallel(TABLES, 100, async (index) => {
    const game = gameOf(index);
    tableIds[index] = (await createRemoteTable(tables, { game })).tableId;
    created++;
  });
  step(`created ${created} tables in ${((performance.now() - createStarted) / 1000).toFixed(1)}s`);

  const latencies: number[] = [];
  const steadyLatencies: number[] = [];
  let accepted = 0;
  let troubles = 0;
  let games = 0;
  const rng = createRng('bench-nats');
  // The tables the moves were picked at, one in PICKS_SAMPLED, to time the picking after the play (pickingCpuSeconds).
  const pickedAt: TableSnapshot[] = [];
  let picks = 0;
  const deadline = performance.now() + SECONDS * 1000;
  let playStarted = performance.now();
  const progress = setInterval(() => step(`${accepted} commands accepted, ${games} games finished, ${troubles} retried`), 5000);

  /** One table's bot loop: read (locally), move, wait for the acknowledgement; a new game when one ends. */
  const playTable = async (index: number): Promise<void> => {
    let tableId = tableIds[index];
    while (performance.now() < deadline) {
      const { snapshot } = await tables.snapshot(tableId);
      if (picks++ % PICKS_SAMPLED === 0) pickedAt.push(snapshot);
      const move = nextRemoteMove(snapshot, rng);
      if (move === null) {
        games++;
        const game = gameOf(index);
        tableId = (await createRemoteTable(tables, { game })).tableId;
        continue;
      }
      if (THINK_MS > 0) await sleep(THINK_MS * (0.5 + rng.below(1001) / 1000));
      const started = performance.now();
      try {
        await submitRemoteMove(tables, tableId, move);
      } catch {
        troubles++;
        continue;
      }
      const latency = performance.now() - started;
      latencies.push(latency);
      if (started - playStarted >= WARMUP_MS) steadyLatencies.push(latency);
      accepted++;
    }
  };
  const serviceProcesses: CpuProcess[] = [
    { name: 'gateway', pid: null },
    ...workers.map((worker) => ({ name: worker.workerId, pid: worker.child.pid ?? -1 })),
    ...natsProcesses,
  ];
  const profiled = await profileStretch(SETTINGS['gateway-profile']);
  const cpuBefore = markCpu(serviceProcesses);
  const started = performance.now();
  playStarted = started;
  await Promise.all(tableIds.map((_, index) => playTable(index)));
  const elapsed = (performance.now() - started) / 1000;
  const cpu = cpuSpent(cpuBefore, markCpu(serviceProcesses));
  await profiled();
  clearInterval(progress);
  // The load generator shares the gateway's process: its move picking is taken out of the gateway's CPU time.
  const loadGenerator = pickingCpuSeconds(pickedAt, picks);
  cpu.set('gateway', (cpu.get('gateway') ?? 0) - loadGenerator);
  const commandsPerSecond = accepted / elapsed;

  const rawAfter = await rawPublishRates(admin, 'after');
  const rawAtServiceRate = accepted === 0 ? null : await rawAppendsAtRate(admin, commandsPerSecond, Math.min(10, SECONDS));
  const replay = await replayFromJetStream(admin);

  await tables.close();
  await store.close();
  await nc.close();
  await adminStore.close();
  await admin.close();

  const best = (pick: (rates: typeof rawBefore) => PublishRate) => Math.max(pick(rawBefore).perSecond, pick(rawAfter).perSecond);
  const awaited = best((rates) => rates.awaited);
  const windowed = best((rates) => rates.windowed);
  const spread = best((rates) => rates.spread);
  const share = (rate: number) => `${((commandsPerSecond / rate) * 100).toFixed(0)}%`;
  console.log('');
  console.log(
    `accepted commands:  ${accepted} in ${elapsed.toFixed(1)}s = ${commandsPerSecond.toFixed(0)} commands/s (${games} games finished, ${troubles} commands retried)`,
  );
  console.log(
    `command latency:    ${latencySummary(latencies)} (gateway request to acknowledgement, append to JetStream R${REPLICAS} included)`,
  );
  if (THINK_MS > 0)
    console.log(
      `  after the first ${(WARMUP_MS / 1000).toFixed(0)} s: ${latencySummary(steadyLatencies)} (${steadyLatencies.length} commands)`,
    );
  console.log(
    `replay:             ${replay.perSecond.toFixed(0)} events/s (${replay.events} events of ${replay.tables} tables, ` +
      `${(replay.events / replay.tables).toFixed(0)} a table, read from JetStream and folded, 20 tables at a time; ` +
      `one table's read: ${latencySummary(replay.readMs)})`,
  );
  console.log(`raw JetStream publish (same cluster, R${REPLICAS}, best of before and after the run):`);
  console.log(`  awaited, 1 in flight:                                  ${awaited.toFixed(0).padStart(6)} msgs/s`);
  console.log(`  windowed, ${rawBefore.windowed.window} in flight on one subject:               ${windowed.toFixed(0).padStart(6)} msgs/s`);
  console.log(`  windowed, ${rawBefore.spread.window} in flight, a subject each (as tables):    ${spread.toFixed(0).padStart(6)} msgs/s`);
  console.log(
    `event store alone, ${TABLES} tables, an append in flight each: ${storeAlone.perSecond.toFixed(0).padStart(6)} appends/s, nats-servers' CPU ${microsEach(storeAloneCpu, 1)} an append`,
  );
  const serviceCpu = sumOf(cpu, () => true);
  const rawCpu = Math.min(rawBefore.spreadCpuSeconds, rawAfter.spreadCpuSeconds) / RAW_MESSAGES;
  console.log(
    `CPU per accepted command, by process (${accepted} commands; load generator apart: ${microsEach(loadGenerator, accepted)} of move picking):`,
  );
  for (const [name, seconds] of cpu) console.log(`  ${name.padEnd(22)} ${microsEach(seconds, accepted).padStart(8)}`);
  console.log(`  ${'nats-servers'.padEnd(22)} ${microsEach(sumOf(cpu, isNats), accepted).padStart(8)}`);
  console.log(`  ${'service'.padEnd(22)} ${microsEach(serviceCpu, accepted).padStart(8)}`);
  console.log(
    `raw R${REPLICAS} append, nats-servers' CPU per message (windowed over table subjects, least of before and after): ${microsEach(rawCpu, 1)}; ` +
      `windowed on one subject: ${microsEach(Math.min(rawBefore.windowedCpuSeconds, rawAfter.windowedCpuSeconds) / RAW_MESSAGES, 1)}; ` +
      `awaited one by one: ${microsEach(Math.min(rawBefore.awaitedCpuSeconds, rawAfter.awaitedCpuSeconds) / rawBefore.awaited.messages, 1)}`,
  );
  console.log(`service CPU per command / raw append CPU per message: ${(serviceCpu / accepted / rawCpu).toFixed(2)} (goal ≤ 2.5)`);
  // A nats-server's cost per message falls as it can batch more, so the raw figure above (a full window) is its best case.
  if (rawAtServiceRate !== null) {
    const rawCpuAtRate = rawAtServiceRate.cpuSeconds / rawAtServiceRate.published;
    console.log(
      `raw R${REPLICAS} append at the service's rate (${rawAtServiceRate.perSecond.toFixed(0)} msgs/s over ${TABLES} table subjects, ` +
        `${rawAtServiceRate.seconds.toFixed(0)} s): nats-servers' CPU ${microsEach(rawCpuAtRate, 1)} a message; ` +
        `service CPU per command / that: ${(serviceCpu / accepted / rawCpuAtRate).toFixed(2)}; nats-servers' alone: ${(sumOf(cpu, isNats) / accepted / rawCpuAtRate).toFixed(2)}`,
    );
  } else console.log(`raw R${REPLICAS} append at the service's rate: not measured, no command was accepted`);
  console.log(
    `service / raw windowed publish rate: ${share(windowed)} (goal ≥ 50%); / windowed over table subjects: ${share(spread)}; ` +
      `/ event store alone: ${share(storeAlone.perSecond)}; / awaited: ${(commandsPerSecond / awaited).toFixed(1)}×`,
  );
  const sortedLatencies = latencies.slice().sort((a, b) => a - b);
  const micros = (seconds: number) => ((seconds / Math.max(1, accepted)) * 1e6).toFixed(0);
  const pacedRatio =
    rawAtServiceRate === null ? 'none' : (serviceCpu / accepted / (rawAtServiceRate.cpuSeconds / rawAtServiceRate.published)).toFixed(2);
  console.log(
    `summary: security=${SETTINGS.security} commands_per_s=${commandsPerSecond.toFixed(0)} ` +
      `p50_ms=${percentile(sortedLatencies, 50).toFixed(1)} p99_ms=${percentile(sortedLatencies, 99).toFixed(1)} ` +
      `service_cpu_us_per_command=${micros(serviceCpu)} gateway_cpu_us_per_command=${micros(cpu.get('gateway') ?? 0)} ` +
      `nats_cpu_us_per_command=${micros(sumOf(cpu, isNats))} paced_raw_ratio=${pacedRatio}`,
  );
} finally {
  await Promise.allSettled(workers.map((worker) => worker.stop()));
  await nats.stop();
}

/**
 * The raw publish rate into a stream configured like the event log (file
 * storage, same replicas): awaited one by one, windowed on one subject (the
 * usual raw figure), and windowed over as many subjects as there are tables
 * (as the event log is laid out: one subject per table).
 */
async function rawPublishRates(
  nc: NatsConnection,
  when: string,
): Promise<{
  awaited: PublishRate;
  windowed: PublishRate;
  spread: PublishRate;
  awaitedCpuSeconds: number;
  windowedCpuSeconds: number;
  spreadCpuSeconds: number;
}> {
  step(`measuring the raw JetStream publish rate (${when})`);
  const { js, remove } = await rawStream(nc, when);
  const window = Math.min(TABLES, 1000);
  const serversCpu = () => sumOf(markCpu(natsProcesses), () => true);
  const beforeAwaited = serversCpu();
  const awaited = await measureRawPublishRate(js, `bench.raw.${when}.awaited`, Math.min(2000, RAW_MESSAGES), 1);
  const beforeWindowed = serversCpu();
  const windowed = await measureRawPublishRate(js, `bench.raw.${when}.windowed`, RAW_MESSAGES, window);
  const beforeSpread = serversCpu();
  const spread = await spreadPublishRate(js, `bench.raw.${when}.table`, RAW_MESSAGES, window);
  const afterSpread = serversCpu();
  await remove();
  return {
    awaited,
    windowed,
    spread,
    awaitedCpuSeconds: beforeWindowed - beforeAwaited,
    windowedCpuSeconds: beforeSpread - beforeWindowed,
    spreadCpuSeconds: afterSpread - beforeSpread,
  };
}

/**
 * The CPU time `picks` moves' picking took, from picking again at a sample
 * of the tables they were picked at, timed as one stretch: reading the
 * process's CPU time is a system call of its own, and doing it around each
 * move during the play (as this benchmark once did) cost more than the
 * picking and was left in the gateway's figure; wall time around each move
 * would count the moments other processes had the core.
 */
function pickingCpuSeconds(sample: readonly TableSnapshot[], picks: number): number {
  if (sample.length === 0) return 0;
  const rng = createRng('bench-nats-picking-again');
  const started = process.cpuUsage();
  for (const snapshot of sample) nextRemoteMove(snapshot, rng);
  const spent = process.cpuUsage(started);
  return ((spent.user + spent.system) / sample.length) * picks * 1e-6;
}

/** A stream configured like the event log (file storage, the same replicas) for raw publishes to `bench.raw.<when>.>`. */
async function rawStream(nc: NatsConnection, when: string) {
  const jsm = await jetstreamManager(nc);
  const name = `BENCH_RAW_${when.toUpperCase()}`;
  await jsm.streams.add({
    name,
    subjects: [`bench.raw.${when}.>`],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    num_replicas: REPLICAS,
  });
  return { js: jetstream(nc, { timeout: 10_000 }), remove: () => jsm.streams.delete(name) };
}

/**
 * Raw appends at `perSecond` (the service's own rate) for `seconds`, over a
 * subject per table as the event log is laid out, each acknowledged on its
 * own (sent in bursts every 5 ms), and the nats-servers' CPU time meanwhile:
 * the raw figure under the service's conditions, not a full window's.
 */
async function rawAppendsAtRate(
  nc: NatsConnection,
  perSecond: number,
  seconds: number,
): Promise<{ published: number; seconds: number; perSecond: number; cpuSeconds: number }> {
  step(`measuring raw appends at the service's rate (${perSecond.toFixed(0)}/s for ${seconds} s)`);
  const { js, remove } = await rawStream(nc, 'paced');
  const acks: Promise<unknown>[] = [];
  // Caught as each is sent: one failing before the pacing ends must not be an unhandled rejection, which would end
  // this process without stopping the servers and workers it started.
  let failure: unknown;
  const cpuBefore = sumOf(markCpu(natsProcesses), () => true);
  const started = performance.now();
  const until = started + seconds * 1000;
  while (performance.now() < until) {
    const due = Math.floor(((performance.now() - started) / 1000) * perSecond);
    while (acks.length < due) {
      const subject = `bench.raw.paced.table.${acks.length % TABLES}`;
      acks.push(js.publish(subject, RAW_APPEND_PAYLOAD).catch((error: unknown) => (failure ??= error)));
    }
    await sleep(5);
  }
  await Promise.all(acks);
  if (failure !== undefined) throw failure;
  const elapsed = (performance.now() - started) / 1000;
  const cpuSeconds = sumOf(markCpu(natsProcesses), () => true) - cpuBefore;
  await remove();
  return { published: acks.length, seconds: elapsed, perSecond: acks.length / elapsed, cpuSeconds };
}

/** Like measureRawPublishRate, each of `window` publishers on a subject of its own. */
async function spreadPublishRate(js: JetStreamClient, prefix: string, count: number, window: number): Promise<PublishRate> {
  let issued = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: window }, async (_, index) => {
      while (issued < count) {
        issued++;
        await js.publish(`${prefix}.${index}`, RAW_APPEND_PAYLOAD);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { messages: count, window, seconds, perSecond: count / seconds };
}

/** Appends/s of the JetStream event store by itself: each of TABLES tables appends one event after another for 5 s. */
async function storeAppendRate(store: EventStore): Promise<{ perSecond: number; appended: number }> {
  step('measuring the event store alone');
  const at = new Date().toISOString();
  const deadline = performance.now() + 5000;
  let appended = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: TABLES }, async (_, index) => {
      for (let version = 0; performance.now() < deadline; version++) {
        await store.append(`bench-store-${index}`, [{ type: 'card.played', at, data: { seat: 2, card: '4-9' } }], version);
        appended++;
      }
    }),
  );
  return { perSecond: appended / ((performance.now() - started) / 1000), appended };
}

/**
 * Reads whole logs from JetStream with a fresh store (nothing cached) and
 * folds them, as a worker taking tables over does: the longest logs of the
 * run, one read per table, 20 at a time.
 */
async function replayFromJetStream(
  connection: NatsConnection,
): Promise<{ events: number; tables: number; perSecond: number; readMs: number[] }> {
  const reader = await openJetStreamEventStore({ connection, replicas: REPLICAS });
  const games = (await reader.listTables()).filter(({ tableId }) => !tableId.startsWith('bench-store-'));
  const longest = games.sort((a, b) => b.version - a.version).slice(0, 200);
  step(`replaying the ${longest.length} longest logs from JetStream`);
  let events = 0;
  const readMs: number[] = [];
  const started = performance.now();
  await inParallel(longest.length, 20, async (index) => {
    const { tableId } = longest[index];
    const reading = performance.now();
    const log = await reader.read(tableId);
    readMs.push(performance.now() - reading);
    foldLog(tableId, log).actor.stop();
    events += log.length;
  });
  const seconds = (performance.now() - started) / 1000;
  await reader.close();
  return { events, tables: longest.length, perSecond: events / seconds, readMs };
}

async function inParallel(count: number, width: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, count) }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
