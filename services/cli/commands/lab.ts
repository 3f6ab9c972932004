/**
 * `suitors lab`: the designer's lab (docs/lab.md). Folds a corpus of game
 * records (`--records DIR`), or plays one on worker threads (`--game G`),
 * and writes OUT/stats.json and OUT/report.html.
 */
import { GAME_NAMES, rulesOf } from '../../../machines/games/rules/index.js';
import { GAME_NAMES_IN_WORDS, isGameName, parseOptions, type GameName, type TableOptions } from '../../../machines/table/options.js';
import { BOT_KINDS, type BotKind } from '../../bots/botRunner.js';
import { writeLabOutput } from '../../lab/labOutput.js';
import { labStatsOf } from '../../lab/labStats.js';
import { defaultWorkers, playOnWorkers } from '../../lab/play/labRun.js';
import { readRecords, recordFilesIn } from '../../lab/records.js';
import { integerFlag, optionalStringFlag, stringFlag, UsageError, type ParsedArgs } from '../args.js';
import type { Command } from '../command.js';
import { progressLine } from '../progress.js';

/** Every option any game has, each a flag that may list several values (`--specials off,plain,powers`). */
const OPTION_FLAGS: readonly string[] = [...new Set(GAME_NAMES.flatMap((game) => Object.keys(rulesOf(game).options)))];
/** Enough for any real game; a cap only so that a bad option cannot run forever (as `suitors simulate`). */
const DEFAULT_MAX_HANDS = 200;
/** A run plays at most this many games in all, so a typo in --games cannot tie the machine up for a day. */
const MOST_GAMES = 1_000_000;

export const labCommand: Command = {
  name: 'lab',
  flags: ['records', 'game', 'games', 'bots', 'seed', ...OPTION_FLAGS, 'max-hands', 'workers', 'out'],
  usage:
    'suitors lab (--records DIR | --game G --games N --seed S [--bots random,heuristic] [--specials off,plain,powers] [--end …] [--passing …] [--max-hands H] [--workers W]) --out OUT',
  summary:
    'the designer’s lab: figures over a corpus of records, or over games it plays (each listed option value and bot, side by side), written to OUT/stats.json and OUT/report.html',
  async run(args) {
    const out = stringFlag(args, 'out');
    if (args.flags.has('records')) {
      if (args.flags.has('game')) throw new UsageError('give --records DIR or --game G, not both');
      return fromRecords(stringFlag(args, 'records'), out);
    }
    if (!args.flags.has('game')) throw new UsageError('give --records DIR (a corpus to read) or --game G (games to play)');
    return fromPlay(args, out);
  },
};

async function fromRecords(directory: string, out: string): Promise<number> {
  let files: string[];
  try {
    files = recordFilesIn(directory);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const progress = progressLine(`reading ${directory}`, files.length);
  const { corpus, read, skipped } = readRecords(files, (done) => progress.tick(done));
  progress.end();
  for (const { file, problem } of skipped) process.stderr.write(`${file}: left out: ${problem}\n`);
  const written = writeLabOutput(out, labStatsOf(corpus, { source: `${read} records read from ${directory}`, skipped }));
  console.log(`${read} records read, ${skipped.length} left out -> ${written.stats}, ${written.report}`);
  return 0;
}

async function fromPlay(args: ParsedArgs, out: string): Promise<number> {
  const game = stringFlag(args, 'game');
  if (!isGameName(game)) throw new UsageError(`--game must be ${GAME_NAMES_IN_WORDS}, not "${game}"`);
  const plan = {
    game,
    optionSets: optionSetsOf(game, args),
    bots: botsOf(args),
    games: integerFlag(args, 'games'),
    seed: stringFlag(args, 'seed'),
    maxHands: integerFlag(args, 'max-hands', DEFAULT_MAX_HANDS),
  };
  const total = plan.games * plan.optionSets.length * plan.bots.length;
  if (plan.games === 0) throw new UsageError('--games must be at least 1');
  if (total > MOST_GAMES) throw new UsageError(`${total} games in all is more than the ${MOST_GAMES} one run plays; ask for fewer`);
  const workers = integerFlag(args, 'workers', defaultWorkers());
  if (workers === 0) throw new UsageError('--workers must be at least 1');
  const progress = progressLine(`playing ${game}`, total);
  const started = performance.now();
  const corpus = await playOnWorkers(plan, { workers, onProgress: (done) => progress.tick(done) });
  progress.end();
  const seconds = (performance.now() - started) / 1000;
  const bots = plan.bots.join(' and ');
  const stats = labStatsOf(corpus, { source: `${total} games played by ${bots} bots, seed ${plan.seed}` });
  const written = writeLabOutput(out, stats);
  console.log(
    `${total} games on ${workers} worker thread${workers === 1 ? '' : 's'}, ${seconds.toFixed(1)} seconds -> ${written.stats}, ${written.report}`,
  );
  return 0;
}

function listFlag(args: ParsedArgs, name: string): string[] | undefined {
  const value = optionalStringFlag(args, name);
  return value?.split(',').map((each) => each.trim());
}

function botsOf(args: ParsedArgs): BotKind[] {
  const bots = listFlag(args, 'bots') ?? ['random'];
  for (const kind of bots) {
    if (!(BOT_KINDS as readonly string[]).includes(kind)) throw new UsageError(`--bots must list ${BOT_KINDS.join(' or ')}, not "${kind}"`);
  }
  return [...new Set(bots)] as BotKind[];
}

/** Every combination of the values listed, each parsed (and refused) as a table's options are. */
function optionSetsOf(game: GameName, args: ParsedArgs): TableOptions[] {
  let combinations: Record<string, string>[] = [{}];
  for (const flag of OPTION_FLAGS) {
    const values = listFlag(args, flag);
    if (values === undefined) continue;
    combinations = combinations.flatMap((given) => [...new Set(values)].map((value) => ({ ...given, [flag]: value })));
  }
  return combinations.map((given) => {
    const parsed = parseOptions(game, given);
    if (!parsed.ok) throw new UsageError(parsed.errors.join('; '));
    return parsed.options;
  });
}
