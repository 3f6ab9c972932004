/**
 * Plays a lab plan on worker threads (node:worker_threads), one share of
 * games at a time per worker, and combines the tallies they send back. The
 * tallies are whole-number sums, so the figures are the same for any number
 * of workers and any order in which shares finish: a run depends on its
 * seed alone.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { combinedCorpora, withSection, type CorpusTally } from '../corpus.js';
import type { SectionTally } from '../gameTally.js';
import { sharesOf, type LabPlan, type LabShare } from './labGames.js';

export type WorkerAnswer =
  | { readonly kind: 'progress'; readonly games: number }
  | { readonly kind: 'done'; readonly sections: readonly SectionTally[] }
  | { readonly kind: 'failed'; readonly message: string };

/** Shares per worker and section: small enough that workers finish together, large enough that messages cost nothing. */
const SHARES_PER_WORKER = 4;

export function defaultWorkers(): number {
  return availableParallelism();
}

export async function playOnWorkers(
  plan: LabPlan,
  { workers, onProgress }: { workers: number; onProgress: (gamesDone: number) => void },
): Promise<CorpusTally> {
  const queue = sharesOf(plan, workers * SHARES_PER_WORKER);
  let corpus: CorpusTally = new Map();
  let done = 0;
  const threads = Array.from({ length: Math.min(workers, queue.length) }, () => startWorker());
  try {
    await Promise.all(
      threads.map(async (worker) => {
        for (let share = queue.shift(); share !== undefined; share = queue.shift()) {
          const sections = await played(worker, share, (games) => {
            done += games;
            onProgress(done);
          });
          corpus = combinedCorpora(
            corpus,
            sections.reduce<CorpusTally>((sum, section) => withSection(sum, section), new Map()),
          );
        }
      }),
    );
  } finally {
    await Promise.all(threads.map((worker) => worker.terminate()));
  }
  return corpus;
}

function startWorker(): Worker {
  // The boot module registers tsx on the thread, which does not inherit the main thread's loader.
  return new Worker(new URL('../../host/recordImport/boot.mjs', import.meta.url), {
    workerData: { module: new URL('./playWorker.ts', import.meta.url).href },
  });
}

function played(worker: Worker, share: LabShare, onGames: (games: number) => void): Promise<readonly SectionTally[]> {
  return new Promise((resolve, reject) => {
    const onMessage = (answer: WorkerAnswer) => {
      if (answer.kind === 'progress') return onGames(answer.games);
      worker.off('message', onMessage);
      worker.off('error', reject);
      if (answer.kind === 'done') resolve(answer.sections);
      else reject(new Error(`a lab worker failed on games ${share.from}-${share.to} of seed ${share.seed}: ${answer.message}`));
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
    worker.postMessage(share);
  });
}
