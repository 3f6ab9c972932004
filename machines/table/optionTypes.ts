/**
 * The names of the games and the types of their table options: what the
 * games' rules objects (machines/games/rules/) are written in, below them, so
 * that a game's rules and the table's context can both name them.
 */
import { FULL_DECK, SUIT_DECK, type Card } from '../cards/card.js';

/** Every game the service plays; adding a name here makes tsc ask for its rules (machines/games/rules/index.ts). */
export type GameName = 'sevenSuitors' | 'antiCupid' | 'traitorOfLove' | 'firstLesson';

export type Specials = 'off' | 'plain' | 'powers';
/** Seven Suitors' end condition, written as in a record: "allSuits", "hands:7", "marriages:10". */
export type EndCondition = 'allSuits' | `hands:${number}` | `marriages:${number}`;
type Passing = 'none' | 'oneEach';

export interface SevenSuitorsOptions {
  end: EndCondition;
  specials: Specials;
}
export interface AntiCupidOptions {
  specials: Exclude<Specials, 'off'>;
  passing: Passing;
}
interface TraitorOfLoveOptions {
  specials: Exclude<Specials, 'off'>;
}
/** A first lesson: Seven Suitors' scoring over a fixed few hands, without special cards. */
interface FirstLessonOptions {
  end: `hands:${number}`;
  specials: 'off';
}
export type TableOptions = SevenSuitorsOptions | AntiCupidOptions | TraitorOfLoveOptions | FirstLessonOptions;

export function deckFor(options: TableOptions): readonly Card[] {
  return options.specials === 'off' ? SUIT_DECK : FULL_DECK;
}

export type ParsedEnd = { kind: 'allSuits' } | { kind: 'hands'; hands: number } | { kind: 'marriages'; marriages: number };

export function parseEnd(end: EndCondition): ParsedEnd {
  if (end === 'allSuits') return { kind: 'allSuits' };
  const [kind, count] = end.split(':');
  return kind === 'hands' ? { kind: 'hands', hands: Number(count) } : { kind: 'marriages', marriages: Number(count) };
}
