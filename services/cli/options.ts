/** Table options from command-line flags, validated by the core's own parser. */
import { GAME_NAMES_IN_WORDS, isGameName, parseOptions, type GameName, type TableOptions } from '../../machines/table/options.js';
import { stringFlag, UsageError, type ParsedArgs } from './args.js';

const OPTION_FLAGS = ['specials', 'end', 'passing'] as const;

export function gameAndOptions(args: ParsedArgs): { game: GameName; options: TableOptions } {
  const game = stringFlag(args, 'game');
  if (!isGameName(game)) throw new UsageError(`--game must be ${GAME_NAMES_IN_WORDS}, not "${game}"`);
  const given: Record<string, string> = {};
  for (const flag of OPTION_FLAGS) if (args.flags.has(flag)) given[flag] = stringFlag(args, flag);
  const parsed = parseOptions(game, given);
  if (!parsed.ok) throw new UsageError(parsed.errors.join('; '));
  return { game, options: parsed.options };
}
