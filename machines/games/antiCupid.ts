/** Anti-Cupid: five players; the rotating Anti-Cupid tries to keep every suit from marrying. */
import { tableSetup } from '../table/setup.js';
import { initialContext } from '../table/initialContext.js';
import { seatEvents, seatingState } from '../fragments/seating.js';
import { dealingState } from '../fragments/dealing.js';
import { optionalPassingState } from '../fragments/passing.js';
import { trickPlayState } from '../fragments/trickPlay.js';
import { gameOverState, scoringState } from '../fragments/scoring.js';

export const antiCupidMachine = tableSetup.createMachine({
  id: 'antiCupid',
  context: ({ input }) => initialContext(input),
  initial: 'seating',
  on: seatEvents,
  states: {
    seating: seatingState,
    dealing: dealingState,
    passing: optionalPassingState,
    trickPlay: { ...trickPlayState, onDone: 'scoring' },
    scoring: scoringState,
    gameOver: gameOverState,
  },
});
