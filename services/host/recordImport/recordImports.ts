/**
 * Imports prepared off the event loop: one worker thread verifies and folds
 * records (prepareImport.ts) one at a time, so an import costs the players
 * at the tables nothing; a few may wait, and past that the next is refused
 * at once as busy rather than queued without end.
 */
import { Worker } from 'node:worker_threads';
import { TableRefusal } from '../errors.js';
import type { ImportPlan } from './prepareImport.js';

/** Imports under way or waiting for the worker, beyond which the next is refused (503). */
export const MAX_PENDING_IMPORTS = 4;
/** The longest one import may take on the worker; past it the worker is restarted and the import refused. */
export const IMPORT_TIMEOUT_MS = 20_000;

interface Pending {
  readonly resolve: (plan: ImportPlan) => void;
  readonly reject: (error: Error) => void;
}

export class RecordImports {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private timer: NodeJS.Timeout | undefined;

  prepare(document: unknown): Promise<ImportPlan> {
    if (this.pending.size >= MAX_PENDING_IMPORTS) {
      return Promise.reject(new TableRefusal('busy', `${MAX_PENDING_IMPORTS} record imports are under way already; try again shortly`));
    }
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise<ImportPlan>((resolve, reject) => {
      try {
        // Copying to the worker walks the whole document: one nested past the stack's depth cannot be sent.
        worker.postMessage({ id, document });
      } catch {
        reject(new TableRefusal('invalidRecord', 'the record cannot be read: it is nested too deeply to be a game record'));
        return;
      }
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) this.armTimer();
      worker.ref();
    });
  }

  /**
   * Times the import the worker is on: the oldest pending one, since it
   * takes them in order. Re-armed as each finishes, so waiting in line
   * does not count against an import.
   */
  private armTimer(): void {
    clearTimeout(this.timer);
    if (this.pending.size === 0) return;
    this.timer = setTimeout(
      () => void this.restart(`an import took over ${IMPORT_TIMEOUT_MS / 1000} s and was stopped`),
      IMPORT_TIMEOUT_MS,
    );
    this.timer.unref();
  }

  /** Stops a worker stuck on an import: every import under way is refused, and the next starts a new worker. */
  private async restart(why: string): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.failAll(new TableRefusal('busy', `${why}; try again shortly`));
    await worker?.terminate();
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.failAll(new TableRefusal('busy', 'the service is stopping; import the record again once it is back'));
    await worker?.terminate();
  }

  private start(): Worker {
    const worker = new Worker(new URL('./boot.mjs', import.meta.url), {
      workerData: { module: new URL('./importWorker.ts', import.meta.url).href },
    });
    worker.on('message', ({ id, plan, error }: { id: number; plan?: ImportPlan; error?: string }) => {
      const waiting = this.pending.get(id);
      this.pending.delete(id);
      // An idle worker must not keep the process alive.
      if (this.pending.size === 0) worker.unref();
      this.armTimer();
      if (error !== undefined) waiting?.reject(new Error(`preparing an import failed: ${error}`));
      else waiting?.resolve(plan!);
    });
    worker.on('error', (error) => {
      if (this.worker === worker) this.failAll(error);
    });
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.failAll(new Error('the import worker stopped'));
    });
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
    clearTimeout(this.timer);
  }
}
