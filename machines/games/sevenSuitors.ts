/** Seven Suitors: four players in two partnerships pass, play and mark off married suits. */
import { tableSetup } from '../table/setup.js';
import { initialContext } from '../table/initialContext.js';
import { seatEvents, seatingState } from '../fragments/seating.js';
import { dealingState } from '../fragments/dealing.js';
import { passingState } from '../fragments/passing.js';
import { trickPlayState } from '../fragments/trickPlay.js';
import { gameOverState, scoringState } from '../fragments/scoring.js';

export const sevenSuitorsMachine = tableSetup.createMachine({
  id: 'sevenSuitors',
  context: ({ input }) => initialContext(input),
  initial: 'seating',
  on: seatEvents,
  states: {
    seating: seatingState,
    dealing: dealingState,
    passing: passingState,
    trickPlay: { ...trickPlayState, onDone: 'scoring' },
    scoring: scoringState,
    gameOver: gameOverState,
  },
});
