/**
 * Waiting on a condition, not on a sleep (STYLE.md): `waitFor` asks a probe
 * again and again until it gives a value, and when it gives up it says what
 * it was waiting for. The tests, the browser flows, the screenshots and the
 * runs here all wait with it.
 */

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface WaitSettings {
  /** How long to wait before failing (20 s). */
  readonly timeoutMs?: number;
  /** How long between two probes (5 ms; a probe that is costly, such as a browser query or an HTTP call, wants more). */
  readonly everyMs?: number;
}

/** The probe's first value that is not undefined, null or false; fails after `timeoutMs` naming `what`. */
export async function waitFor<T>(
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  what: string,
  { timeoutMs = 20_000, everyMs = 5 }: WaitSettings = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(everyMs);
  }
}
