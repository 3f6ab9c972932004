/**
 * Table host benchmark on the embedded SQLite store: bot games across many
 * concurrent tables in one process. Prints accepted commands/s, command
 * latency to acknowledgement, resident memory per table and replay speed.
 *
 * BENCH_TABLES (--tables, 1000), BENCH_SECONDS (--seconds, 10), BENCH_GAME
 * (--game, sevenSuitors).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRng } from '../machines/cards/shuffle.js';
import { GAME_NAMES, GAMES } from '../machines/table/options.js';
import { nextBotMove } from '../drivers/botTurns.js';
import { foldLog } from '../services/host/replay.js';
import { TableHost } from '../services/host/tableHost.js';
import { openLocalStorage } from '../services/storage/storage.js';
import { latencySummary, megabytes, percentile } from '../drivers/figures/latency.js';
import { summaryLine } from '../drivers/figures/summary.js';
import { number, readFlags, text, wholeNumber } from '../drivers/flags.js';

const {
  tables: TABLES,
  seconds: SECONDS,
  game: GAME,
} = readFlags(
  {
    tables: wholeNumber({ env: 'BENCH_TABLES', default: 1000 }),
    seconds: number({ env: 'BENCH_SECONDS', default: 10 }),
    game: text({ env: 'BENCH_GAME', default: 'sevenSuitors', choices: GAME_NAMES }),
  },
  'npm run bench:host [-- --tables N --seconds S --game G]',
);

const directory = mkdtempSync(join(tmpdir(), 'suitors-bench-'));
const { store } = openLocalStorage({ kind: 'sqlite', path: join(directory, 'bench.db') });
const host = new TableHost({ store });
const players = Array.from({ length: GAMES[GAME].seats }, (_, seat) => ({ name: `Bot ${seat}`, bot: true }));

console.log(`host benchmark: ${TABLES} concurrent ${GAME} tables of bots, SQLite (WAL, synchronous=FULL), ${SECONDS}s`);
global.gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const tableIds: string[] = [];
for (let i = 0; i < TABLES; i++) tableIds.push((await host.createTable({ game: GAME, players, seed: `bench-${i}` })).tableId);
global.gc?.();
const heapPerTable = (process.memoryUsage().heapUsed - heapBefore) / TABLES;

const latencies: number[] = [];
let accepted = 0;
const deadline = performance.now() + SECONDS * 1000;
const rng = createRng('bench');

/** One table's bot loop: a move, wait for its acknowledgement, the next; a new game when one ends. */
async function playTable(index: number): Promise<void> {
  let tableId = tableIds[index];
  while (performance.now() < deadline) {
    const { snapshot } = await host.snapshot(tableId);
    const move = nextBotMove(snapshot, rng);
    if (move === null) {
      tableId = (await host.createTable({ game: GAME, players, seed: `bench-${index}-${accepted}` })).tableId;
      tableIds[index] = tableId;
      continue;
    }
    const started = performance.now();
    await host.submit(tableId, move);
    latencies.push(performance.now() - started);
    accepted++;
  }
}

const started = performance.now();
await Promise.all(tableIds.map((_, index) => playTable(index)));
const elapsed = (performance.now() - started) / 1000;
global.gc?.();
const memory = process.memoryUsage();

console.log(`accepted commands: ${accepted} in ${elapsed.toFixed(1)}s = ${(accepted / elapsed).toFixed(0)} commands/s`);
console.log(`latency to acknowledgement: ${latencySummary(latencies)}`);
const sortedLatencies = latencies.slice().sort((a, b) => a - b);
// What the resident tables hold: the heap they free when they are all passivated.
const resident = host.residentTables;
await host.passivateIdle(0);
global.gc?.();
const heapPerResident = (memory.heapUsed - process.memoryUsage().heapUsed) / resident;
console.log(
  `memory: heap ${megabytes(memory.heapUsed)}, rss ${megabytes(memory.rss)} with ${resident} resident tables; ` +
    `${(heapPerResident / 1024).toFixed(1)} KB heap per resident table in play (freed by passivating them), ` +
    `${(heapPerTable / 1024).toFixed(1)} KB per freshly dealt one` +
    (global.gc === undefined ? ' (run with node --expose-gc for steadier figures)' : ''),
);

const whole = await host.createTable({ game: GAME, players, seed: 'bench-replay' });
while (true) {
  const move = nextBotMove((await host.snapshot(whole.tableId)).snapshot, rng);
  if (move === null) break;
  await host.submit(whole.tableId, move);
}
const longest = await store.read(whole.tableId);
const replayStarted = performance.now();
const replayCpu = process.cpuUsage();
let replayed = 0;
while (performance.now() - replayStarted < 2000) {
  foldLog('replay', longest).actor.stop();
  replayed += longest.length;
}
const replaySeconds = (performance.now() - replayStarted) / 1000;
const replayCpuUsed = process.cpuUsage(replayCpu);
const replayCpuSeconds = (replayCpuUsed.user + replayCpuUsed.system) / 1e6;
console.log(
  `replay: ${(replayed / replaySeconds).toFixed(0)} events/s (${(replayed / replayCpuSeconds).toFixed(0)} per CPU-second) ` +
    `rebuilding a finished ${longest.length}-event game from its log`,
);

console.log(
  summaryLine({
    commands_per_s: Math.round(accepted / elapsed),
    p50_ms: percentile(sortedLatencies, 50),
    p99_ms: percentile(sortedLatencies, 99),
    heap_kb_per_resident_table: heapPerResident / 1024,
    replay_events_per_cpu_s: Math.round(replayed / replayCpuSeconds),
  }),
);
await host.close();
await store.close();
rmSync(directory, { recursive: true, force: true });
