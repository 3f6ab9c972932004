/**
 * `npm run fuzz -- --game G --commands N --seed S [--via host|gateway|both]
 * [--gateway-commands M] [--store memory|sqlite]`: the command fuzzer
 * (commandFuzzer.ts) from the command line. Prints a progress line every
 * 10 s, then the figures of each game and path; exits 1 on any finding.
 */
import { integerFlag, optionalStringFlag, parseArgs, stringFlag, UsageError } from '../../services/cli/args.js';
import { GAME_NAMES, isGameName, type GameName } from '../../machines/table/options.js';
import { fuzz, progressLine, VIAS, type FuzzReport, type Via } from './commandFuzzer.js';

const USAGE =
  'npm run fuzz -- --game sevenSuitors|antiCupid|traitorOfLove|all --commands N --seed S [--via host|gateway|both] [--gateway-commands M] [--store memory|sqlite]';
const FLAGS = ['game', 'commands', 'seed', 'via', 'gateway-commands', 'store'];

async function main(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv);
  const unknown = [...args.flags.keys()].filter((flag) => !FLAGS.includes(flag));
  if (unknown.length > 0) throw new UsageError(`unknown flag ${unknown.map((flag) => `--${flag}`).join(', ')}; fuzz takes ${FLAGS.map((flag) => `--${flag}`).join(', ')}`);
  if (args.positional.length > 0) throw new UsageError(`fuzz takes no arguments besides flags, not ${args.positional.join(' ')}`);
  const game = stringFlag(args, 'game');
  if (game !== 'all' && !isGameName(game)) throw new UsageError(`--game must be ${GAME_NAMES.join(', ')} or all, not "${game}"`);
  const via = stringFlag(args, 'via', 'both');
  if (via !== 'both' && !(VIAS as readonly string[]).includes(via)) throw new UsageError(`--via must be host, gateway or both, not "${via}"`);
  const store = stringFlag(args, 'store', 'memory');
  if (store !== 'memory' && store !== 'sqlite') throw new UsageError(`--store must be memory or sqlite, not "${store}"`);
  const commands = integerFlag(args, 'commands');
  const gatewayCommands = optionalStringFlag(args, 'gateway-commands') === undefined ? undefined : integerFlag(args, 'gateway-commands');
  const seed = stringFlag(args, 'seed');

  const started = performance.now();
  const report = await fuzz({
    games: game === 'all' ? GAME_NAMES : [game as GameName],
    commands,
    gatewayCommands,
    seed,
    via: via === 'both' ? VIAS : [via as Via],
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

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  process.stderr.write(`fuzz: ${error.message}\nusage: ${USAGE}\n`);
  process.exitCode = 2;
}
