/**
 * The games and their table options (docs/rules.md, "Table options"), parsed
 * and validated when a table is created. Each game's options are its rules
 * object's catalogue (machines/games/rules/); this module reads them for the
 * callers that only need the options.
 */
import { GAME_NAMES, GAME_NAMES_IN_WORDS, GAME_RULES, isGameName } from '../games/rules/index.js';
import {
  catalogueAt,
  defaultsOf,
  optionsNamed,
  parseByCatalogue,
  valuesOf,
  type OptionCatalogue,
  type OptionsResult as Parsed,
} from './optionCatalogue.js';
import { deckFor, type GameName, type TableOptions } from './optionTypes.js';

export {
  deckFor,
  parseEnd,
  type GameName,
  type TableOptions,
} from './optionTypes.js';
export { GAME_NAMES, GAME_NAMES_IN_WORDS, isGameName };

export interface GameShape {
  readonly seats: number;
  readonly title: string;
}

export const GAMES: Record<GameName, GameShape> = Object.fromEntries(
  GAME_NAMES.map((game) => [game, { seats: GAME_RULES[game].seats, title: GAME_RULES[game].title }]),
) as Record<GameName, GameShape>;

export const DEFAULT_OPTIONS: { [G in GameName]: Record<string, string> } = Object.fromEntries(
  GAME_NAMES.map((game) => [game, defaultsOf(GAME_RULES[game].options)]),
) as { [G in GameName]: Record<string, string> };

/**
 * Each rules option of a game and the values it takes, for clients to offer:
 * "hands:K" stands for K hands and "marriages:M" for M marriages, K and M
 * from 1 to 999.
 */
export function allowedOptionValues(game: GameName): Record<string, readonly string[]> {
  return valuesOf(GAME_RULES[game].options);
}

export type OptionsResult = Parsed<TableOptions>;

/**
 * Every rules option of the game, defaults filled in and bare `hands` /
 * `marriages` expanded. Keys that are not rules options of the game are
 * refused, so a typo never silently falls back to a default. `catalogue` is
 * the current rules' unless a caller checks options of other rules
 * (machines/games/rulebooks.ts).
 */
export function parseOptions(
  game: GameName,
  given: Record<string, unknown> = {},
  catalogue: OptionCatalogue = GAME_RULES[game].options,
): OptionsResult {
  return parseByCatalogue<TableOptions>(game, catalogue, given);
}

/** The options of `game` under rules version `rules` (machines/games/rulebooks.ts). */
export function optionsOfRules(game: GameName, rules: number): OptionCatalogue {
  return catalogueAt(GAME_RULES[game].options, rules);
}

/**
 * What a record or table of `game` under rules `rules` says of each of
 * those rules' options, an absent one read as its declared meaning; the
 * absent ones with none are `missing`.
 */
export function rulesOptionsIn(
  game: GameName,
  rules: number,
  given: Readonly<Record<string, unknown>>,
): { options: Record<string, unknown>; missing: string[] } {
  return optionsNamed(GAME_RULES[game].options, rules, given);
}

/** Cards each seat is dealt under these options. */
export function cardsPerSeat(game: GameName, options: TableOptions): number {
  return deckFor(options).length / GAME_RULES[game].seats;
}
