/**
 * Projection throughput: how many events the runner folds per CPU-second,
 * from scratch over a memory store of finished bot games of every game, for
 * a projection that only counts (the runner's own cost: delivery and
 * bookkeeping) and for the fleet overlay (each event offered to the table's
 * machine, restored from its persisted snapshot).
 *
 * BENCH_TABLES (--tables, 40 per game). Ends with one `summary:` line.
 * `node --import tsx bench/projections.ts [-- --tables N]`
 */
import { GAME_NAMES, GAMES } from '../machines/table/options.js';
import { playBotTurns } from '../drivers/botTurns.js';
import { readFlags, wholeNumber } from '../drivers/flags.js';
import { createRng } from '../machines/cards/shuffle.js';
import { createMemoryEventStore } from '../services/eventstore/memoryEventStore.js';
import { TableHost } from '../services/host/tableHost.js';
import { fleetOverlay } from '../services/projections/fleet/fleetOverlay.js';
import type { Projection } from '../services/projections/projection.js';
import { startProjection } from '../services/projections/runner.js';

const { tables: TABLES } = readFlags(
  { tables: wholeNumber({ env: 'BENCH_TABLES', default: 40 }) },
  'node --import tsx bench/projections.ts [-- --tables N]',
);

const store = createMemoryEventStore();
const host = new TableHost({ store });
console.log(`projection benchmark: ${TABLES} finished bot games of each of ${GAME_NAMES.join(', ')}, memory store`);
let playing = 0;
for (const game of GAME_NAMES) {
  const players = Array.from({ length: GAMES[game].seats }, (_, seat) => ({ name: `Bot ${seat}`, bot: true }));
  for (let i = 0; i < TABLES; i++) {
    const { tableId } = await host.createTable({ game, players, seed: `bench-${game}-${i}` });
    await playBotTurns(host, tableId, createRng(`bench-${game}-${i}`));
    if (++playing % 20 === 0) process.stdout.write(`  ${playing} games played\r`);
  }
}
await host.close();
let events = 0;
for (const { version } of await store.listTables()) events += version;
console.log(`  ${playing} games, ${events} events`);

const counting: Projection<{ events: number }> = {
  name: 'counting',
  initial: () => ({ events: 0 }),
  apply(state) {
    state.events++;
    return state;
  },
};

/** Folds every log from scratch; the events folded per CPU-second and per wall-second. */
async function measure<State>(projection: Projection<State>): Promise<{ perCpuSecond: number; perSecond: number }> {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const runner = startProjection({ source: store, projection });
  await runner.caughtUp;
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  if (runner.folded() !== events) throw new Error(`${projection.name} folded ${runner.folded()} of ${events} events`);
  await runner.stop();
  const figures = { perCpuSecond: events / cpuSeconds, perSecond: events / seconds };
  console.log(
    `  ${projection.name}: ${figures.perCpuSecond.toFixed(0)} events per CPU-second, ${figures.perSecond.toFixed(0)}/s (${seconds.toFixed(2)} s)`,
  );
  return figures;
}

const count = await measure(counting);
const fleet = await measure(fleetOverlay);
console.log(
  `summary: events=${events} counting_events_per_cpu_s=${count.perCpuSecond.toFixed(0)} ` +
    `fleet_events_per_cpu_s=${fleet.perCpuSecond.toFixed(0)} fleet_events_per_s=${fleet.perSecond.toFixed(0)}`,
);
