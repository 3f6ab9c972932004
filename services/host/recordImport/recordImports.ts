/**
 * Long folds off the event loop: one worker thread verifies and folds
 * imported records (prepareImport.ts), or folds forks of long games
 * (tableFork.ts, foldFork), one at a time, so they cost the players at the
 * tables nothing; a few may wait, and past that the next is refused at once
 * as busy rather than queued without end. The host keeps one for imports
 * and one for forks, so that neither waits behind the other.
 */
import { Worker } from 'node:worker_threads';
import { TableRefusal, type RefusalKind } from '../errors.js';
import type { FoldedFork, ForkRequest } from '../tableFork.js';
import type { StoredEvent } from '../../eventstore/eventStore.js';
import type { ImportPlan } from './prepareImport.js';

/** Imports under way or waiting for the worker, beyond which the next is refused (503). */
export const MAX_PENDING_IMPORTS = 4;
/** The longest one import may take on the worker; past it the worker is restarted and the import refused. */
const IMPORT_TIMEOUT_MS = 20_000;

/** A fork to fold: the original's whole log, the fork asked for, and when its events are stamped. */
export interface ForkToFold {
  readonly tableId: string;
  readonly log: readonly StoredEvent[];
  readonly request: ForkRequest;
  readonly at: string;
}

/** What the worker is sent (with an id), and answers. */
export type FoldOrder = { readonly document: unknown } | { readonly fork: ForkToFold };
export interface FoldAnswer {
  readonly id: number;
  readonly plan?: ImportPlan;
  readonly folded?: FoldedFork;
  /** A refusal of the host's (a fork the rules do not allow), kept as such. */
  readonly refusal?: { readonly kind: RefusalKind; readonly message: string };
  readonly error?: string;
}

interface Pending {
  readonly resolve: (answer: FoldAnswer) => void;
  readonly reject: (error: Error) => void;
}

export class FoldWorker {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private timer: NodeJS.Timeout | undefined;

  /** `what` names the work in refusals ("record imports"); at most `maxPending` under way or waiting. */
  constructor(
    private readonly what = 'record imports',
    private readonly maxPending = MAX_PENDING_IMPORTS,
  ) {}

  /** An imported record, verified and folded. */
  async prepare(document: unknown): Promise<ImportPlan> {
    return (await this.send({ document })).plan!;
  }

  /** A fork, folded (tableFork.ts, foldFork); a fork the rules refuse is that TableRefusal. */
  async foldFork(fork: ForkToFold): Promise<FoldedFork> {
    return (await this.send({ fork })).folded!;
  }

  private send(order: FoldOrder): Promise<FoldAnswer> {
    if (this.pending.size >= this.maxPending) {
      return Promise.reject(new TableRefusal('busy', `${this.maxPending} ${this.what} are under way already; try again shortly`));
    }
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise<FoldAnswer>((resolve, reject) => {
      try {
        // Copying to the worker walks the whole document: one nested past the stack's depth cannot be sent.
        worker.postMessage({ id, ...order });
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
      () => void this.restart(`one of the ${this.what} took over ${IMPORT_TIMEOUT_MS / 1000} s and was stopped`),
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
    this.failAll(new TableRefusal('busy', `the service is stopping; send the ${this.what} again once it is back`));
    await worker?.terminate();
  }

  private start(): Worker {
    const worker = new Worker(new URL('./boot.mjs', import.meta.url), {
      workerData: { module: new URL('./importWorker.ts', import.meta.url).href },
    });
    worker.on('message', (answer: FoldAnswer) => {
      const waiting = this.pending.get(answer.id);
      this.pending.delete(answer.id);
      // An idle worker must not keep the process alive.
      if (this.pending.size === 0) worker.unref();
      this.armTimer();
      if (answer.refusal !== undefined) waiting?.reject(new TableRefusal(answer.refusal.kind, answer.refusal.message));
      else if (answer.error !== undefined) waiting?.reject(new Error(`folding one of the ${this.what} failed: ${answer.error}`));
      else waiting?.resolve(answer);
    });
    worker.on('error', (error) => {
      if (this.worker === worker) this.failAll(error);
    });
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.failAll(new Error(`the worker folding ${this.what} stopped`));
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
