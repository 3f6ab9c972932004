/** machines/games/rulebooks.ts as the next release has it: the released rulebooks and rules 2 (rulesTwo.ts). */
import { RULEBOOKS as RELEASED } from '../../machines/games/rulebooks.js';
import { withRulesTwo } from './rulesTwo.js';

export type { Rulebook, TableMachine } from '../../machines/games/rulebooks.js';

export const RULEBOOKS = withRulesTwo(RELEASED);
