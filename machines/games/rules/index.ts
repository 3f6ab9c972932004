/**
 * The games, registered once: each name with its rules object. Code that
 * needs to know how a game differs asks here (`rulesOf(game)`), never by the
 * game's name; a name added to `GameName` without its rules, or rules
 * lacking a field, fail to compile.
 */
import type { Side } from '../../table/context.js';
import type { GameName } from '../../table/optionTypes.js';
import type { Seat } from '../../rules/trick.js';
import { antiCupidRules } from './antiCupid.js';
import { firstLessonRules } from './firstLesson.js';
import type { GameRules } from './gameRules.js';
import { sevenSuitorsRules } from './sevenSuitors.js';
import { traitorOfLoveRules } from './traitorOfLove.js';

export type { GameRules } from './gameRules.js';

export const GAME_RULES: { readonly [G in GameName]: GameRules } = {
  sevenSuitors: sevenSuitorsRules,
  antiCupid: antiCupidRules,
  traitorOfLove: traitorOfLoveRules,
  firstLesson: firstLessonRules,
};

/** Every game, in the order the lobby lists them. */
export const GAME_NAMES: readonly GameName[] = Object.keys(GAME_RULES) as GameName[];

/** The games' names as a refusal lists them: "sevenSuitors, antiCupid, traitorOfLove or firstLesson". */
export const GAME_NAMES_IN_WORDS: string = `${GAME_NAMES.slice(0, -1).join(', ')} or ${GAME_NAMES.at(-1)}`;

export function isGameName(value: unknown): value is GameName {
  return typeof value === 'string' && Object.hasOwn(GAME_RULES, value);
}

export function rulesOf(game: GameName): GameRules {
  return GAME_RULES[game];
}

/** A seat's side in a hand of `game`: a team, a partnership, or Anti-Cupid's own seat. */
export function sideOf(game: GameName, seat: Seat, antiCupid: Seat | null, seatCount: number): Side {
  return GAME_RULES[game].sideOf(seat, { antiCupid, seatCount });
}
