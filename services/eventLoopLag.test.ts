import { describe, expect, it } from 'vitest';
import { waitFor } from '../drivers/polling.js';
import { EventLoopLag } from './eventLoopLag.js';

/** Holds the event loop for `ms` by the clock on the wall: a loaded machine holds it at least as long. */
function holdTheLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy: the event loop lags
  }
}

describe("the event loop's lag", () => {
  it('shows a loop held for 400 ms as a lag of about that, then falls back once the loop is free', async () => {
    const lag = new EventLoopLag(100);
    try {
      // Node's histogram records a delay from its second reading on: the loop is held until the lag shows.
      const held = await waitFor(
        () => {
          holdTheLoop(400);
          return lag.currentMs >= 350 && lag.currentMs;
        },
        'the held loop to show as lag',
        { everyMs: 10 },
      );
      expect(held).toBeGreaterThanOrEqual(350);
      await waitFor(() => lag.currentMs < 350, 'the lag to fall back once the loop is free', { everyMs: 10 });
    } finally {
      lag.stop();
    }
  });
});
