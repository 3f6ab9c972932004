/** A lab worker thread (labRun.ts): plays the shares it is sent, one at a time, and answers each with its tally. */
import { parentPort } from 'node:worker_threads';
import { playShare, type LabShare } from './labGames.js';
import type { WorkerAnswer } from './labRun.js';

/** Progress is told every this many games: often enough for a smooth line, rarely enough to cost nothing. */
const GAMES_PER_PROGRESS = 10;

parentPort!.on('message', (share: LabShare) => {
  let games = 0;
  const tell = (answer: WorkerAnswer) => parentPort!.postMessage(answer);
  try {
    const corpus = playShare(share, () => {
      games++;
      if (games % GAMES_PER_PROGRESS === 0) tell({ kind: 'progress', games: GAMES_PER_PROGRESS });
    });
    tell({ kind: 'progress', games: games % GAMES_PER_PROGRESS });
    tell({ kind: 'done', sections: [...corpus.values()] });
  } catch (error) {
    tell({ kind: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
