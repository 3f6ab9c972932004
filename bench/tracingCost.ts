/**
 * What tracing costs a command (SUITORS_TRACING), measured short: bot moves
 * submitted to a table host on SQLite, each inside a command span
 * as the gateway makes it (playerCommands.ts), so each command is the four
 * spans of the embedded service. Three ways, in alternating rounds: as
 * before tracing (no span, no trace), tracing off (the no-op tracer, as
 * `npm start` runs by default), and tracing on with OTLP to a collector
 * stand-in (a child process that reads and drops each export). Prints the
 * CPU of this process per command (main thread and the exporter alike).
 *
 * BENCH_COMMANDS (--commands, 5000 a round), BENCH_ROUNDS (--rounds, 5).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createRng } from '../machines/cards/shuffle.js';
import { GAMES } from '../machines/table/options.js';
import { nextBotMove } from '../drivers/botTurns.js';
import { readFlags, wholeNumber } from '../drivers/flags.js';
import { TableHost } from '../services/host/tableHost.js';
import { openLocalStorage } from '../services/storage/storage.js';
import { commandAttributes, inSpan, SPAN_NAMES } from '../services/tracing/commandSpans.js';
import { CommandSteps } from '../services/tracing/commandSteps.js';
import { NO_TRACING, startTracing, type Tracing } from '../services/tracing/tracing.js';
import { summaryLine } from '../drivers/figures/summary.js';

const { commands: COMMANDS, rounds: ROUNDS } = readFlags(
  {
    commands: wholeNumber({ env: 'BENCH_COMMANDS', default: 5000 }),
    rounds: wholeNumber({ env: 'BENCH_ROUNDS', default: 5 }),
  },
  'node --import tsx bench/tracingCost.ts [-- --commands N --rounds R]',
);
const TABLES = 20;
const players = Array.from({ length: GAMES.sevenSuitors.seats }, (_, seat) => ({ name: `Bot ${seat}`, bot: true }));

/** An OTLP/HTTP collector stand-in in a process of its own: it reads each export, counts its spans and answers 200. */
async function startCollector() {
  const source = `let spans = 0;
    require('node:http').createServer((q, r) => {
      let body = '';
      q.on('data', (chunk) => (body += chunk));
      q.on('end', () => {
        for (const resource of JSON.parse(body).resourceSpans ?? []) for (const scope of resource.scopeSpans ?? []) spans += scope.spans.length;
        console.log('spans ' + spans);
        r.writeHead(200, { 'content-type': 'application/json' });
        r.end('{}');
      });
    }).listen(0, '127.0.0.1', function () { console.log('port ' + this.address().port); });`;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  let received = 0;
  const port = await new Promise<string>((resolve) =>
    lines.on('line', (line) => {
      const [what, figure] = line.split(' ');
      if (what === 'port') resolve(figure);
      else received = Number(figure);
    }),
  );
  return { url: `http://127.0.0.1:${port}/v1/traces`, received: () => received, stop: () => child.kill() };
}

type Way = 'before tracing' | 'tracing off' | 'tracing on (otlp)';
/** Commands made with tracing on, four spans each: what the collector should have received. */
let tracedCommands = 0;

/** CPU microseconds per command of `commands` bot moves across the tables, made the `way` way. */
async function round(way: Way, tracing: Tracing, commands: number): Promise<number> {
  // SQLite, as `npm start` runs: each append waits for its writer thread, so the exporter's requests go out meanwhile
  // (on a memory store a round never yields to I/O, and the batch processor drops what its queue cannot hold).
  const { store } = openLocalStorage({ kind: 'sqlite', path: join(directory, `${way}-${Math.random()}.db`) });
  const host = new TableHost({ store, tracer: tracing.tracer });
  const rng = createRng(`tracing-${way}`);
  const tableIds = await Promise.all(
    Array.from({ length: TABLES }, async (_, i) => (await host.createTable({ game: 'sevenSuitors', players, seed: `t-${i}` })).tableId),
  );
  let made = 0;
  const submit = (tableId: string, move: unknown) =>
    way === 'before tracing'
      ? host.submit(tableId, move)
      : inSpan(tracing.tracer, SPAN_NAMES.gatewayCommand, { attributes: commandAttributes(tableId, move) }, (trace) =>
          host.submit(tableId, move, { trace }),
        );
  const play = async (index: number) => {
    while (made < commands) {
      const { snapshot } = await host.snapshot(tableIds[index]);
      const move = nextBotMove(snapshot, rng);
      if (move === null) {
        tableIds[index] = (await host.createTable({ game: 'sevenSuitors', players, seed: `t-${index}-${made}` })).tableId;
        continue;
      }
      made++;
      await submit(tableIds[index], move);
    }
  };
  const before = process.cpuUsage();
  await Promise.all(tableIds.map((_, index) => play(index)));
  // The spans still held are sent inside the measurement: exporting them is a part of what tracing costs.
  await tracing.flush();
  const used = process.cpuUsage(before);
  if (way === 'tracing on (otlp)') tracedCommands += made;
  await host.close();
  await store.close();
  return (used.user + used.system) / made;
}

/**
 * The code tracing adds to a command when it is off, alone: the gateway's
 * span and the host's three, on the no-op tracer, around no work. A round of
 * commands varies by more than this on a shared machine, so it is measured
 * apart, as CPU microseconds a command over `commands` of them.
 */
async function offPathAlone(commands: number): Promise<number> {
  const { tracer } = NO_TRACING;
  const move = { type: 'card.played', seat: 0, card: '4-9' };
  const before = process.cpuUsage();
  for (let i = 0; i < commands; i++) {
    await inSpan(tracer, SPAN_NAMES.gatewayCommand, { attributes: commandAttributes('t-1', move) }, async (trace) => {
      const steps = new CommandSteps(tracer, trace, commandAttributes('t-1', move));
      steps.waiting()();
      steps.step(() => 0);
      return steps.append(1, async () => 1);
    });
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / commands;
}

const directory = mkdtempSync(join(tmpdir(), 'suitors-tracing-'));
const collector = await startCollector();
const traced = startTracing({ service: 'suitors-embedded', settings: { export: 'otlp', url: collector.url } });
const ways: readonly [Way, Tracing][] = [
  ['before tracing', NO_TRACING],
  ['tracing off', NO_TRACING],
  ['tracing on (otlp)', traced],
];
console.log(`tracing cost: ${ROUNDS} rounds of ${COMMANDS} bot moves over ${TABLES} tables, SQLite, each way in turn`);
await round('before tracing', NO_TRACING, COMMANDS); // warm-up: compiled code, not the first round's JIT, is what is compared
const figures = new Map<Way, number[]>();
for (let r = 0; r < ROUNDS; r++) {
  for (const [way, tracing] of ways) figures.set(way, [...(figures.get(way) ?? []), await round(way, tracing, COMMANDS)]);
}
await traced.shutdown();
// The export's answer reaches the collector's count a moment after the flush resolves.
await new Promise((resolve) => setTimeout(resolve, 200));
const spansReceived = collector.received();
console.log(`spans the collector received: ${spansReceived} of the ${tracedCommands * 4} made (a full batch queue drops spans)`);
collector.stop();
rmSync(directory, { recursive: true, force: true });
await offPathAlone(COMMANDS); // warm-up
console.log(`tracing off, its own code alone: ${(await offPathAlone(COMMANDS * 20)).toFixed(2)} µs CPU a command`);
const medians: Record<string, number> = {};
for (const [way, perCommand] of figures) {
  const sorted = [...perCommand].sort((a, b) => a - b);
  medians[`${way.replace(/[^a-z]+/g, '_').replace(/_+$/, '')}_cpu_us_per_command`] = sorted[Math.floor(sorted.length / 2)];
  console.log(
    `${way.padEnd(18)} ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} µs CPU a command (median; rounds: ${perCommand.map((each) => each.toFixed(1)).join(', ')})`,
  );
}
console.log(summaryLine({ ...medians, spans_received: spansReceived }));
