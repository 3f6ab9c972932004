/**
 * Global budgets for the costly operations (issue 26, item 1): per-client
 * rate limits do not hold against many addresses, so each costly route
 * also has a budget for the whole gateway: at most `atOnce` requests under
 * way, at most `waiting` more in line behind them (first come, first
 * served), and past that a 503 with Retry-After at once, before any work.
 * A flood of forks from a thousand addresses then costs the players what
 * `atOnce` forks cost, never a stalled loop; and each route has its own
 * budget, so a fork flood does not refuse a person's new table.
 *
 * Record imports keep their own bound on the import worker
 * (recordImport/recordImports.ts: 4 under way or waiting, one folding at a
 * time), which their budget here wraps.
 */
import type { FastifyInstance } from 'fastify';
import type { CostlyRoute, WorkBudget, WorkBudgets } from './limits.js';
import { GatewayRefusal } from './refusals.js';

/** The routes with a budget of their own, and what each is called in a refusal. */
const BUDGETED: Record<keyof WorkBudgets, string> = {
  createTable: 'new tables',
  forkTable: 'forks',
  importRecord: 'record imports',
  replay: 'replays',
};

/** One route's budget: the work under way and the line behind it. */
export class WorkQueue {
  private underWay = 0;
  private readonly line: (() => void)[] = [];

  constructor(
    private readonly what: string,
    private readonly budget: WorkBudget,
  ) {}

  /** How many requests are being worked on, and how many wait. */
  get load(): { underWay: number; waiting: number } {
    return { underWay: this.underWay, waiting: this.line.length };
  }

  /** Refuses (503) when no place is free and the line is full: what `run` would do, before anything else is done. */
  refuseIfFull(): void {
    if (this.underWay >= this.budget.atOnce && this.line.length >= this.budget.waiting) {
      throw new GatewayRefusal(
        'unavailable',
        `the service is working on ${this.budget.atOnce} ${this.what} at once with ${this.budget.waiting} waiting, the most it takes; try again in a second`,
      );
    }
  }

  /** Runs `work` when a place is free, or refuses it at once (503) when the line is full. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.underWay >= this.budget.atOnce) {
      this.refuseIfFull();
      await new Promise<void>((resolve) => this.line.push(resolve));
    } else {
      this.underWay++;
    }
    try {
      return await work();
    } finally {
      // The place passes straight to the next in line, so underWay counts it throughout.
      const next = this.line.shift();
      if (next === undefined) this.underWay--;
      else next();
    }
  }
}

/** Puts every budgeted route's handler behind its queue; call before the routes are added. */
export function registerWorkBudgets(app: FastifyInstance, budgets: WorkBudgets): Map<string, WorkQueue> {
  const queues = new Map<string, WorkQueue>();
  app.addHook('onRoute', (route) => {
    const cost = (route.config as { cost?: CostlyRoute } | undefined)?.cost;
    if (cost === undefined || !(cost in budgets)) return;
    const budgeted = cost as keyof WorkBudgets;
    // One queue per budget, shared by the route's methods (GET and HEAD of a replay).
    const queue = queues.get(cost) ?? new WorkQueue(BUDGETED[budgeted], budgets[budgeted]);
    queues.set(cost, queue);
    // Refused before its body is read: a record import's body is a megabyte of JSON, whose parsing cost the loop
    // 2.5 ms for each import refused, 7 s in 20 under the imports from rotating addresses (issue 26).
    const refuseIfFull = async () => queue.refuseIfFull();
    route.preParsing = [...toArray(route.preParsing), refuseIfFull];
    const handler = route.handler;
    route.handler = function budgeted(request, reply) {
      return queue.run(async () => handler.call(this, request, reply));
    };
  });
  return queues;
}

function toArray<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}
