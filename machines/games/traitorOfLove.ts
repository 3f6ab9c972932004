/** A Traitor of Love: six players in two teams of three, one of them secretly the Traitor. */
import { tableSetup } from '../table/setup.js';
import { initialContext } from '../table/initialContext.js';
import { seatEvents, seatingState } from '../fragments/seating.js';
import { dealingState } from '../fragments/dealing.js';
import { passingState } from '../fragments/passing.js';
import { trickPlayState } from '../fragments/trickPlay.js';
import { accusationState } from '../fragments/accusation.js';
import { gameOverState, scoringState } from '../fragments/scoring.js';

export const traitorOfLoveMachine = tableSetup.createMachine({
  id: 'traitorOfLove',
  context: ({ input }) => initialContext(input),
  initial: 'seating',
  on: seatEvents,
  states: {
    seating: seatingState,
    dealing: dealingState,
    passing: passingState,
    trickPlay: { ...trickPlayState, onDone: 'accusation' },
    accusation: accusationState,
    scoring: scoringState,
    gameOver: gameOverState,
  },
});
