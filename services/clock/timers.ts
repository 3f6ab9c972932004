/**
 * The time the bots and the turn clock live by, as a port: the system's
 * clock and timers in production, a clock the test moves by hand in tests
 * (test/kit/manualTimers.ts), so a test of a delay or a deadline waits on
 * nothing but its own step forward (STYLE.md: time in tests is a value you
 * control).
 */

/** A timer that has been set: cancelling one that already ran does nothing. */
export interface Timer {
  cancel(): void;
}

interface TimerSettings {
  /** Whether a timer still waiting keeps the process alive (true, as setTimeout does). */
  readonly keepsProcessAlive?: boolean;
}

export interface Timers {
  /** The time now, in ms since the epoch (as Date.now). */
  now(): number;
  /** Runs `run` once, `ms` from now (at once for 0 or less). */
  after(ms: number, run: () => void, settings?: TimerSettings): Timer;
}

/** The system's clock and timers. */
export const systemTimers: Timers = {
  now: () => Date.now(),
  after(ms, run, { keepsProcessAlive = true } = {}) {
    const timer = setTimeout(run, Math.max(0, ms));
    if (!keepsProcessAlive) timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
};
