/**
 * Every version of the rules this service has played by, oldest first. A
 * table keeps the rules it was created under for its whole life
 * (docs/operations.md, "Rule changes"): a release that changes how a game
 * plays or scores adds a rulebook here with the machines of its new rules,
 * and leaves the earlier ones as they are, so tables under way finish the
 * game they started and their logs replay to the same end.
 */
import type { GameName } from '../table/options.js';
import { GAME_RULES, type GameRules } from './rules/index.js';
import { antiCupidMachine } from './antiCupid.js';
import { firstLessonMachine } from './firstLesson.js';
import { sevenSuitorsMachine } from './sevenSuitors.js';
import { traitorOfLoveMachine } from './traitorOfLove.js';

/**
 * All three machines share one setup: same context, events and vocabulary.
 * Only their state names differ, which code outside a machine reads through
 * `phaseOf`, so one type serves for all three.
 */
export type TableMachine = typeof traitorOfLoveMachine;

export interface Rulebook {
  /** Counts up from 1 by one with each change of rules; never reused. */
  readonly version: number;
  readonly machines: { readonly [G in GameName]: TableMachine };
  /** The rules objects of this version: what its machines score by, and what the client is told of them (end, rules text). */
  readonly rules: { readonly [G in GameName]: GameRules };
}

export const RULEBOOKS: readonly Rulebook[] = [
  {
    version: 1,
    machines: {
      sevenSuitors: sevenSuitorsMachine as unknown as TableMachine,
      antiCupid: antiCupidMachine as unknown as TableMachine,
      traitorOfLove: traitorOfLoveMachine,
      // Added to rules 1, as a new game changes no rule of the others (docs/adding-a-game.md).
      firstLesson: firstLessonMachine as unknown as TableMachine,
    },
    rules: GAME_RULES,
  },
];
