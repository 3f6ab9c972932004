/**
 * A per-second rate of a counter that only grows (commands served, by a
 * gateway or a worker), taken between two readings at least `windowMs`
 * apart: a reading sooner than that gives the last rate again, so a page
 * asked every second does not show the noise of one second's commands.
 */
export function counterRate(read: () => Promise<number>, { windowMs, now }: { windowMs: number; now: () => number }) {
  let last: { at: number; total: number } | undefined;
  let rate: number | null = null;
  /** Per second, to one decimal; null until two readings are far enough apart. */
  return async (): Promise<number | null> => {
    const total = await read();
    const at = now();
    if (last === undefined || at - last.at >= windowMs) {
      if (last !== undefined) rate = Math.round(((total - last.total) / ((at - last.at) / 1000)) * 10) / 10;
      last = { at, total };
    }
    return rate;
  };
}
