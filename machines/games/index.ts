import type { GameName } from '../table/options.js';
import { antiCupidMachine } from './antiCupid.js';
import { sevenSuitorsMachine } from './sevenSuitors.js';
import { traitorOfLoveMachine } from './traitorOfLove.js';

export { antiCupidMachine, sevenSuitorsMachine, traitorOfLoveMachine };

export const MACHINES = {
  sevenSuitors: sevenSuitorsMachine,
  antiCupid: antiCupidMachine,
  traitorOfLove: traitorOfLoveMachine,
} as const;

/**
 * All three machines share one setup: same context, events and vocabulary.
 * Only their state names differ, which code outside a machine reads through
 * `phaseOf`, so one type serves for all three.
 */
export type TableMachine = typeof traitorOfLoveMachine;

export function machineFor(game: GameName): TableMachine {
  return MACHINES[game] as unknown as TableMachine;
}
