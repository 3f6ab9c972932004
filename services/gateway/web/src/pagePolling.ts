/**
 * A page that shows something live (the fleet, the operator's page) asks
 * for it again every few seconds while it is shown. One request at a time:
 * the next is timed from when the last settled, so a slow service is never
 * asked faster than it answers; a failure doubles the wait, up to a minute.
 * Nothing is asked while the tab is hidden, and nothing once the page is
 * left, so a forgotten tab costs the service nothing.
 */

const LONGEST_WAIT_MS = 60_000;

export interface PollingOptions {
  /** The wait between two refreshes that succeed. */
  readonly everyMs: number;
  /** Told when refreshing pauses (the tab hidden) and resumes. */
  readonly onPaused?: (paused: boolean) => void;
}

/** Runs `refresh` now and then again and again as above; the answer stops it for good. */
export function pollWhileShown(refresh: () => Promise<void>, { everyMs, onPaused }: PollingOptions): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  let stopped = false;
  let failures = 0;

  const tick = async () => {
    timer = undefined;
    if (stopped || document.hidden) return;
    running = true;
    try {
      await refresh();
      failures = 0;
    } catch {
      failures++;
    } finally {
      running = false;
    }
    if (!stopped && !document.hidden) timer = setTimeout(tick, Math.min(everyMs * 2 ** failures, LONGEST_WAIT_MS));
  };
  const visibilityChanged = () => {
    onPaused?.(document.hidden);
    if (document.hidden) {
      clearTimeout(timer);
      timer = undefined;
    } else if (!running && timer === undefined && !stopped) {
      void tick();
    }
  };

  document.addEventListener('visibilitychange', visibilityChanged);
  void tick();
  return () => {
    stopped = true;
    clearTimeout(timer);
    document.removeEventListener('visibilitychange', visibilityChanged);
  };
}
