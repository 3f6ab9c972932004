/**
 * The soak run (`npm run soak -- --tables 1000 --minutes 10 [--backend embedded|nats] [--game G]`):
 * client-side bots play continuously over WebSocket, one socket per seat,
 * new tables replacing finished games, against the embedded service or the
 * distributed one (3 nats-server, 2 workers, a gateway, on loopback). A line
 * of figures every 10 s; at the end a memory-trend verdict per process —
 * the least-squares slope of its memory after the warm-up, in MB/min
 * (hardening/soak/memoryTrend.ts) — and
 * exit 1 unless every judged figure is flat and there were no errors.
 *
 * Options: --think-ms (0), --idle-seconds (60: tables without a command this
 * long leave memory, so finished games stop counting once this has passed
 * twice), --warmup-minutes (2 idle periods and a minute), --max-slope (2
 * MB/min: a figure grows when its slope is above this and above twice its
 * standard error).
 */
import { tablesWithinOpenFiles } from '../../drivers/players/openFiles.js';
import { list, number, readFlags, text, wholeNumber } from '../../drivers/flags.js';
import { GAME_NAMES, GAMES } from '../../machines/table/options.js';
import { describeVerdict, judgeTrend } from './memoryTrend.js';
import { SoakRun, stopEarlyOnSignal } from './soakRun.js';

const flags = readFlags(
  {
    tables: wholeNumber({ default: 1000 }),
    minutes: number({ default: 10 }),
    backend: text({ default: 'embedded', choices: ['embedded', 'nats'] }),
    game: text({ default: 'sevenSuitors', choices: GAME_NAMES }),
    option: list(),
    'think-ms': number({ default: 0, zero: true }),
    'idle-seconds': wholeNumber({ default: 60 }),
    'warmup-minutes': number({ zero: true }),
    'max-slope': number({ default: 2 }),
  },
  'npm run soak -- [--tables N] [--minutes M] [--backend embedded|nats] [--game G] [--option name=value]... [--think-ms T] [--idle-seconds S] [--warmup-minutes W] [--max-slope MB]',
);

const { game, backend } = flags;
// --option end=hands:2 (repeatable): the rules options of every table; the service refuses ones the game does not have.
const tableOptions = Object.fromEntries(
  flags.option.map((given) => {
    const [name, value] = given.split('=', 2);
    if (!name || value === undefined) throw new Error(`--option must be name=value (e.g. end=hands:2), not ${JSON.stringify(given)}`);
    return [name, value];
  }),
);
const { minutes, 'idle-seconds': idleSeconds, 'max-slope': maxSlope, 'think-ms': thinkMs } = flags;
// Finished games stay in memory until idle that long, swept as often: the memory in use levels off after about twice that.
const warmupMinutes = flags['warmup-minutes'] ?? (2 * idleSeconds + 60) / 60;
const tables = tablesWithinOpenFiles(flags.tables, GAMES[game].seats, (line) => console.log(line));

console.log(
  `soak: ${tables} ${GAMES[game].title} tables${flags.option.length === 0 ? '' : ` (${flags.option.join(', ')})`} of client-side bots over WebSocket against the ${backend === 'embedded' ? 'embedded service' : 'distributed service (3 nats-server, 2 workers, a gateway)'}, ` +
    `${minutes} min; idle tables leave memory after ${idleSeconds}s; memory judged after ${warmupMinutes.toFixed(1)} min of warm-up, growing = a slope above ${maxSlope} MB/min and above twice its standard error`,
);

let exitCode = 0;
let run: SoakRun | null = null;
stopEarlyOnSignal(() => run);
try {
  run = await SoakRun.start({ backend, game, tableOptions, tables, thinkMs, service: { idleSeconds, workers: 2, gateways: 1 } });
  const summary = await run.play(minutes);
  console.log('');
  for (const line of run.summarize(summary)) console.log(line);
  console.log(
    `memory trend after the first ${warmupMinutes.toFixed(1)} min (least-squares slope of each half minute's lowest sample, sampled every 2 s):`,
  );
  let growing = 0;
  let unjudged = 0;
  for (const series of run.series.values()) {
    const verdict = judgeTrend(series, warmupMinutes, maxSlope);
    // nats-server keeps the event logs themselves: its memory follows what JetStream stores, not a leak of ours.
    const judged = !series.name.startsWith('nats ');
    console.log(`  ${describeVerdict(verdict)}${judged ? '' : ' (shown, not judged: the JetStream server holds the growing logs)'}`);
    if (!judged) continue;
    if (verdict.flat === false) growing++;
    if (verdict.flat === null) unjudged++;
  }
  const errors = run.players.counters.errorCount();
  const passed = errors === 0 && growing === 0 && unjudged === 0;
  console.log(
    `verdict: ${passed ? 'PASS' : 'FAIL'} — ${errors} errors, ${growing} memory figures growing, ${unjudged} not judged for want of samples`,
  );
  if (!passed) exitCode = 1;
} catch (error) {
  console.error('the soak failed:', error);
  exitCode = 1;
} finally {
  await run?.stop();
}
process.exit(exitCode);
