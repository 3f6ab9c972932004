/**
 * `npm run fuzz -- --game G --commands N --seed S [--via host|gateway|both]
 * [--gateway-commands M] [--store memory|sqlite]`: the command fuzzer
 * (commandFuzzer.ts) from the command line. Prints a progress line every
 * 10 s, then the figures of each game and path; exits 1 on any finding.
 */
import { readFlags, text, wholeNumber } from '../../drivers/flags.js';
import { GAME_NAMES } from '../../machines/table/options.js';
import { fuzz, progressLine, type FuzzReport } from './commandFuzzer.js';
import { VIAS } from './fuzzPath.js';

const USAGE =
  'npm run fuzz -- --game sevenSuitors|antiCupid|traitorOfLove|all --commands N --seed S [--via host|gateway|both] [--gateway-commands M] [--store memory|sqlite]';
const FLAGS = readFlags(
  {
    game: text({ required: true, choices: [...GAME_NAMES, 'all'] }),
    commands: wholeNumber({ required: true, zero: true }),
    seed: text({ required: true }),
    via: text({ default: 'both', choices: [...VIAS, 'both'] }),
    'gateway-commands': wholeNumber({ zero: true }),
    store: text({ default: 'memory', choices: ['memory', 'sqlite'] }),
  },
  USAGE,
);

async function main(): Promise<number> {
  const { game, commands, seed, via, 'gateway-commands': gatewayCommands, store } = FLAGS;
  const started = performance.now();
  const report = await fuzz({
    games: game === 'all' ? GAME_NAMES : [game],
    commands,
    gatewayCommands,
    seed,
    via: via === 'both' ? VIAS : [via],
    store,
    onProgress: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(summary(report, (performance.now() - started) / 1000));
  return report.ok ? 0 : 1;
}

function summary(report: FuzzReport, seconds: number): string {
  const lines: string[] = [];
  for (const run of report.runs) {
    lines.push(progressLine(run));
    lines.push(`  games finished ${run.gamesFinished}; answers: ${listed(run.answers)}`);
    lines.push(`  sent by kind: ${listed(run.sentByKind)}`);
    lines.push(`  refused by kind: ${listed(run.refusedByKind)}`);
  }
  const total = (pick: (run: FuzzReport['runs'][number]) => number) => report.runs.reduce((sum, run) => sum + pick(run), 0);
  const sent = total((run) => run.sent);
  lines.push(
    `total: ${sent} commands in ${seconds.toFixed(1)} s (${Math.round(sent / seconds)} commands/s): ${total((run) => run.accepted)} accepted, ${total((run) => run.refused)} refused; ` +
      `crashes ${total((run) => run.findings.crash)}, invariant breaks ${total((run) => run.findings.invariantBreak)}, ` +
      `refused but applied ${total((run) => run.findings.refusedButApplied)}, wrong answers ${total((run) => run.findings.wrongAnswer)}`,
  );
  for (const finding of report.findings) lines.push(`  ${finding.kind} at ${finding.tableId}: ${finding.detail}`);
  lines.push(report.ok ? 'fuzz: no findings' : 'fuzz: FINDINGS (see above)');
  return `${lines.join('\n')}\n`;
}

function listed(counts: Record<string, number>): string {
  return Object.entries(counts)
    .sort(([, a], [, b]) => b - a)
    .map(([key, count]) => `${key} ${count}`)
    .join(', ');
}

process.exitCode = await main();
