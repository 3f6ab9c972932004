/**
 * A clock the test moves by hand, for what runs on services/clock/timers.ts
 * (the bots' delay, the turn clock): nothing happens until the test calls
 * `advance`, whatever the machine's load, and then exactly what fell due.
 */
import type { Timer, Timers } from '../../services/clock/timers.js';

export interface ManualTimers extends Timers {
  /** Moves the clock on by `ms`, running every timer that falls due on the way, earliest first (set first among equals). */
  advance(ms: number): void;
  /** How many timers are set and have not run or been cancelled. */
  readonly waiting: number;
}

interface Pending {
  readonly due: number;
  readonly order: number;
  readonly run: () => void;
}

/** A clock that starts at `startAt` (ms since the epoch) and moves only when told. */
export function manualTimers(startAt = Date.parse('2030-01-01T00:00:00.000Z')): ManualTimers {
  let now = startAt;
  let set = 0;
  const pending = new Set<Pending>();
  const nextDue = (until: number): Pending | undefined =>
    [...pending].filter(({ due }) => due <= until).sort((a, b) => a.due - b.due || a.order - b.order)[0];
  return {
    now: () => now,
    after(ms, run): Timer {
      const timer: Pending = { due: now + Math.max(0, ms), order: set++, run };
      pending.add(timer);
      return { cancel: () => pending.delete(timer) };
    },
    advance(ms) {
      const until = now + ms;
      for (let timer = nextDue(until); timer !== undefined; timer = nextDue(until)) {
        pending.delete(timer);
        now = Math.max(now, timer.due);
        timer.run();
      }
      now = until;
    },
    get waiting() {
      return pending.size;
    },
  };
}
