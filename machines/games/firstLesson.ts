/** A first lesson: Seven Suitors' partnerships and scoring; its passing state is left at once (a lesson never passes). */
import { tableSetup } from '../table/setup.js';
import { initialContext } from '../table/initialContext.js';
import { seatEvents, seatingState } from '../fragments/seating.js';
import { dealingState } from '../fragments/dealing.js';
import { skippedPassingState } from '../fragments/passing.js';
import { trickPlayState } from '../fragments/trickPlay.js';
import { gameOverState, scoringState } from '../fragments/scoring.js';

export const firstLessonMachine = tableSetup.createMachine({
  id: 'firstLesson',
  context: ({ input }) => initialContext(input),
  initial: 'seating',
  on: seatEvents,
  states: {
    seating: seatingState,
    dealing: dealingState,
    passing: skippedPassingState,
    trickPlay: { ...trickPlayState, onDone: 'scoring' },
    scoring: scoringState,
    gameOver: gameOverState,
  },
});
