/**
 * The games and their table options (docs/rules.md, "Table options"), parsed
 * and validated when a table is created.
 */
import { FULL_DECK, SUIT_DECK, type Card } from '../cards/card.js';

export type GameName = 'sevenSuitors' | 'antiCupid' | 'traitorOfLove';
export const GAME_NAMES: readonly GameName[] = ['sevenSuitors', 'antiCupid', 'traitorOfLove'];

export type Specials = 'off' | 'plain' | 'powers';
/** Seven Suitors' end condition, written as in a record: "allSuits", "hands:7", "marriages:10". */
export type EndCondition = 'allSuits' | `hands:${number}` | `marriages:${number}`;
export type Passing = 'none' | 'oneEach';

export interface SevenSuitorsOptions {
  end: EndCondition;
  specials: Specials;
}
export interface AntiCupidOptions {
  specials: Exclude<Specials, 'off'>;
  passing: Passing;
}
export interface TraitorOfLoveOptions {
  specials: Exclude<Specials, 'off'>;
}
export type TableOptions = SevenSuitorsOptions | AntiCupidOptions | TraitorOfLoveOptions;

export interface GameShape {
  readonly seats: number;
  readonly title: string;
}

export const GAMES: Record<GameName, GameShape> = {
  sevenSuitors: { seats: 4, title: 'Seven Suitors' },
  antiCupid: { seats: 5, title: 'Anti-Cupid' },
  traitorOfLove: { seats: 6, title: 'A Traitor of Love' },
};

export const DEFAULT_OPTIONS: { [G in GameName]: Record<string, string> } = {
  sevenSuitors: { end: 'allSuits', specials: 'off' },
  antiCupid: { specials: 'plain', passing: 'none' },
  traitorOfLove: { specials: 'plain' },
};

const ALLOWED: { [G in GameName]: Record<string, readonly string[]> } = {
  sevenSuitors: { end: ['allSuits', 'hands:K', 'marriages:M'], specials: ['off', 'plain', 'powers'] },
  antiCupid: { specials: ['plain', 'powers'], passing: ['none', 'oneEach'] },
  traitorOfLove: { specials: ['plain', 'powers'] },
};

/**
 * Each rules option of a game and the values it takes, for clients to offer:
 * "hands:K" stands for K hands and "marriages:M" for M marriages, K and M
 * from 1 to 999.
 */
export function allowedOptionValues(game: GameName): Record<string, readonly string[]> {
  return Object.fromEntries(Object.entries(ALLOWED[game]).map(([name, values]) => [name, [...values]]));
}

export function isGameName(value: unknown): value is GameName {
  return typeof value === 'string' && (GAME_NAMES as readonly string[]).includes(value);
}

export type OptionsResult = { ok: true; options: TableOptions } | { ok: false; errors: string[] };

/**
 * Every rules option of the game, defaults filled in and bare `hands` /
 * `marriages` expanded. Keys that are not rules options of the game are
 * refused, so a typo never silently falls back to a default.
 */
export function parseOptions(game: GameName, given: Record<string, unknown> = {}): OptionsResult {
  const errors: string[] = [];
  const allowed = ALLOWED[game];
  const options: Record<string, string> = { ...DEFAULT_OPTIONS[game] };
  for (const [key, value] of Object.entries(given)) {
    if (!Object.hasOwn(allowed, key)) {
      const known = Object.keys(allowed).join(', ');
      errors.push(`unknown option "${key}" for ${game}: its options are ${known}`);
      continue;
    }
    const normalised = key === 'end' ? normaliseEnd(value) : value;
    if (typeof normalised !== 'string' || !matchesAllowed(normalised, allowed[key])) {
      if (game !== 'sevenSuitors' && key === 'specials' && value === 'off') {
        errors.push(`specials "off" is impossible in ${game}: its hand size needs the 60-card deck; use plain or powers`);
      } else {
        errors.push(`option ${key} of ${game} must be one of ${allowed[key].join(', ')}, not ${JSON.stringify(value)}`);
      }
      continue;
    }
    options[key] = normalised;
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, options: options as unknown as TableOptions };
}

function normaliseEnd(value: unknown): unknown {
  if (value === 'hands') return 'hands:7';
  if (value === 'marriages') return 'marriages:10';
  return value;
}

function matchesAllowed(value: string, allowed: readonly string[]): boolean {
  return allowed.some((pattern) => {
    if (pattern === 'hands:K') return /^hands:([1-9]\d{0,2})$/.test(value);
    if (pattern === 'marriages:M') return /^marriages:([1-9]\d{0,2})$/.test(value);
    return pattern === value;
  });
}

export function specialsOf(options: TableOptions): Specials {
  return options.specials;
}

export function deckFor(options: TableOptions): readonly Card[] {
  return options.specials === 'off' ? SUIT_DECK : FULL_DECK;
}

/** Cards each seat is dealt under these options. */
export function cardsPerSeat(game: GameName, options: TableOptions): number {
  return deckFor(options).length / GAMES[game].seats;
}

export type ParsedEnd = { kind: 'allSuits' } | { kind: 'hands'; hands: number } | { kind: 'marriages'; marriages: number };

export function parseEnd(end: EndCondition): ParsedEnd {
  if (end === 'allSuits') return { kind: 'allSuits' };
  const [kind, count] = end.split(':');
  return kind === 'hands' ? { kind: 'hands', hands: Number(count) } : { kind: 'marriages', marriages: Number(count) };
}
