/**
 * What it costs a worker to take up a dead worker's tables
 * (`npm run bench:takeover [-- --tables 300 --moves 60 --snapshot-every 25]`):
 * on a local 3-node cluster, a host plays `--tables` all-bot Seven Suitors
 * tables `--moves` moves each (spread from half to one and a half times
 * that, so their last snapshots lie anywhere), then stops without a word,
 * as a killed worker does. A second worker then takes them all up as its
 * orphan sweep does: claim, rebuild from snapshot and log, `--concurrency`
 * at a time. Prints the wall time, the tables per second, this process's
 * CPU per table, the nats-servers' CPU per table, and what the reads cost.
 * First, on the same cluster, how long a table stands still while
 * rebalancing hands it to a worker that joins (bench/handOffPause.ts,
 * `--handoff-tables` tables, half of them handed). Ends with one
 * `summary:` line of the headline figures.
 */
import { loadavg } from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRng } from '../machines/cards/shuffle.js';
import { nextBotMove } from '../drivers/botTurns.js';
import { readFlags, text, wholeNumber } from '../drivers/flags.js';
import { openJetStreamEventStore } from '../services/eventstore/jetstream/index.js';
import type { EventStore } from '../services/eventstore/eventStore.js';
import { startLocalNats } from '../drivers/localNats.js';
import { TableHost } from '../services/host/tableHost.js';
import { fewAtATime } from '../services/tableQueues/fewAtATime.js';
import { openLeaseBuckets } from '../services/worker/leaseBuckets.js';
import { TableLeases } from '../services/worker/tableLeases.js';
import { measureHandOffPauses } from './handOffPause.js';

const flags = readFlags(
  {
    tables: wholeNumber({ default: 300 }),
    moves: wholeNumber({ default: 60 }),
    concurrency: wholeNumber({ default: 32 }),
    'snapshot-every': wholeNumber({ default: 100 }),
    'handoff-tables': wholeNumber({ default: 20 }),
    profile: text({ default: '' }),
  },
  'npm run bench:takeover [-- --tables N --moves M --concurrency C --snapshot-every E --handoff-tables H --profile FILE.cpuprofile]',
);
const players = Array.from({ length: 4 }, (_, seat) => ({ name: `bot ${seat}`, bot: true }));

/** CPU seconds a process has used, from /proc (utime + stime, in clock ticks of 1/100 s). */
function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The store, counting the reads a take-up makes and the time they take. */
function countingReads(store: EventStore) {
  const counts = { snapshots: 0, reads: 0, events: 0, ms: 0 };
  const counted: EventStore = Object.create(store);
  counted.loadSnapshot = async (tableId) => {
    const started = performance.now();
    counts.snapshots++;
    try {
      return await store.loadSnapshot(tableId);
    } finally {
      counts.ms += performance.now() - started;
    }
  };
  counted.read = async (tableId, after) => {
    const started = performance.now();
    counts.reads++;
    const events = await store.read(tableId, after);
    counts.events += events.length;
    counts.ms += performance.now() - started;
    return events;
  };
  return { counted, counts };
}

/** The value at the share `q` of sorted values (0 when none). */
function quantile(sorted: readonly number[], q: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

const nats = await startLocalNats(3);
try {
  // Before the take-up below, whose dead worker's claims would be adopted by the workers here.
  const handOff = await measureHandOffPauses(nats, flags['handoff-tables'], 10_000);
  const ms = (value: number) => value.toFixed(0);
  console.log(
    `hand-off to a joining worker: ${handOff.handed} of ${flags['handoff-tables']} tables handed, a command always on its way; ` +
      `release to first command served by the new owner p50 ${ms(quantile(handOff.pausesMs, 0.5))} ms, max ${ms(quantile(handOff.pausesMs, 1))} ms; ` +
      `last answer at the old owner to first at the new p50 ${ms(quantile(handOff.gapsMs, 0.5))} ms, max ${ms(quantile(handOff.gapsMs, 1))} ms`,
  );
  const writer = await openJetStreamEventStore({ connectOptions: nats.connectOptions('worker'), replicas: 3 });
  const dying = new TableHost({ store: writer, snapshotEvery: flags['snapshot-every'] });
  const rng = createRng('takeover');
  const tableIds: string[] = [];
  let moves = 0;
  await fewAtATime(
    Array.from({ length: flags.tables }, (_, index) => index),
    32,
    async () => {
      const { tableId } = await dying.createTable({ game: 'sevenSuitors', players });
      tableIds.push(tableId);
      const wanted = Math.round(flags.moves * (0.5 + rng.below(1000) / 1000));
      for (let made = 0; made < wanted; made++) {
        const move = nextBotMove((await dying.snapshot(tableId)).snapshot, rng);
        if (move === null) break;
        await dying.submit(tableId, move);
        moves++;
      }
    },
    () => false,
  );
  // As a SIGKILL leaves them: whatever snapshots were written while playing, nothing more.
  await writer.close();
  console.log(`${tableIds.length} tables played, ${moves} moves (${(moves / tableIds.length).toFixed(0)} a table)`);

  // As a worker connects: its options matter here (nats.js builds a stack trace per request unless told not to).
  const nc = await nats.connect('worker', { name: 'bench-taker' });
  const store = await openJetStreamEventStore({ connection: nc, replicas: 3 });
  const { counted, counts } = countingReads(store);
  const taker = new TableHost({ store: counted });
  const leases = await TableLeases.start({
    buckets: await openLeaseBuckets(nc, { ttlMs: 10_000, replicas: 3 }),
    workerId: 'bench-taker',
    ttlMs: 10_000,
    onLost: () => undefined,
  });
  const serverPids = nats.nodes.map((node) => node.process?.pid ?? 0);
  const serverCpuBefore = serverPids.reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);
  // --profile: a CPU profile of the take-up alone, for Chrome's DevTools.
  const profiler = flags.profile === '' ? null : new Session();
  profiler?.connect();
  await profiler?.post('Profiler.enable');
  await profiler?.post('Profiler.start');
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  let claimMs = 0;
  await fewAtATime(
    tableIds,
    flags.concurrency,
    async (tableId) => {
      const claimStarted = performance.now();
      await leases.take(tableId);
      claimMs += performance.now() - claimStarted;
      await taker.takeUp(tableId);
    },
    () => false,
  );
  const seconds = (performance.now() - started) / 1000;
  if (profiler !== null) writeFileSync(flags.profile, JSON.stringify((await profiler.post('Profiler.stop')).profile));
  const cpu = process.cpuUsage(cpuBefore);
  const serverCpu = serverPids.reduce((sum, pid) => sum + cpuSecondsOf(pid), 0) - serverCpuBefore;
  const perTable = (total: number) => `${((total / tableIds.length) * 1000).toFixed(2)} ms`;
  console.log(
    `taken up: ${tableIds.length} tables in ${seconds.toFixed(2)} s = ${(tableIds.length / seconds).toFixed(0)} tables/s, ${flags.concurrency} at a time`,
  );
  console.log(`CPU per table: this worker ${perTable((cpu.user + cpu.system) / 1e6)}, the three nats-servers ${perTable(serverCpu)}`);
  console.log(
    `per table: claim ${(claimMs / tableIds.length).toFixed(1)} ms, reads ${(counts.ms / tableIds.length).toFixed(1)} ms waited ` +
      `(${counts.snapshots} snapshot loads, ${counts.reads} log reads, ${(counts.events / tableIds.length).toFixed(1)} events read a table)`,
  );
  const [load1] = loadavg();
  console.log(
    `summary: handoff_tables=${handOff.handed} handoff_pause_p50_ms=${ms(quantile(handOff.pausesMs, 0.5))} ` +
      `handoff_pause_max_ms=${ms(quantile(handOff.pausesMs, 1))} handoff_gap_max_ms=${ms(quantile(handOff.gapsMs, 1))} ` +
      `takeover_tables=${tableIds.length} takeover_tables_per_s=${(tableIds.length / seconds).toFixed(0)} ` +
      `takeover_worker_cpu_ms_per_table=${((cpu.user + cpu.system) / 1e3 / tableIds.length).toFixed(2)} ` +
      `takeover_servers_cpu_ms_per_table=${((serverCpu * 1000) / tableIds.length).toFixed(2)} load_average=${load1.toFixed(1)}`,
  );
  await leases.stop({ endLife: true });
  await taker.close();
  await store.close();
  await nc.close();
} finally {
  await nats.stop();
}
