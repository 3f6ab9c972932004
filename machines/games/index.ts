import type { GameName } from '../table/options.js';
import type { GameRules } from './rules/index.js';
import { sevenSuitorsMachine } from './sevenSuitors.js';
import { RULEBOOKS, type Rulebook, type TableMachine } from './rulebooks.js';

export { sevenSuitorsMachine };
export type { TableMachine };

/** The rules a new table plays by: the latest rulebook's. */
export const CURRENT_RULES: number = RULEBOOKS[RULEBOOKS.length - 1].version;

/** The machines of the current rules: what new tables run, the diagrams show and the model tests walk. */
export const MACHINES: Rulebook['machines'] = rulebookOf(CURRENT_RULES).machines;

/** The machine of `game` under rules version `rules` (the current rules by default). */
export function machineFor(game: GameName, rules: number = CURRENT_RULES): TableMachine {
  return rulebookOf(rules).machines[game];
}

/** Every rules version this release can play and replay, oldest first. */
export const KNOWN_RULES: readonly number[] = RULEBOOKS.map((each) => each.version);

/** The rules of a record or log that names none: everything before rules were versioned was played under the first. */
export const FIRST_RULES = 1;

export function knowsRules(rules: unknown): rules is number {
  return KNOWN_RULES.includes(rules as number);
}

/** Why `rules` cannot be played here, in words that say what would serve. */
export function unknownRulesMessage(rules: unknown): string {
  return `rules version ${JSON.stringify(rules)} is not known to this release (it knows ${KNOWN_RULES.join(', ')}); a table keeps its rules, so deploy a release that has them`;
}

/**
 * The rules object a table's machine plays by: that of the rulebook the
 * machine is of (a machine shared by several rulebooks is of rules that do
 * not differ for its game). The current rules' for a machine of none.
 */
export function rulesOfMachine(game: GameName, machine: unknown): GameRules {
  const rulebook = RULEBOOKS.find((each) => each.machines[game] === machine);
  return (rulebook ?? rulebookOf(CURRENT_RULES)).rules[game];
}

function rulebookOf(rules: number): Rulebook {
  const rulebook = RULEBOOKS.find((each) => each.version === rules);
  if (rulebook === undefined) throw new RangeError(unknownRulesMessage(rules));
  return rulebook;
}
