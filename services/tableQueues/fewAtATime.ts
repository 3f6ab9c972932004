/**
 * Work over many tables, a few at a time (taking up the tables under way at
 * a start, or a dead worker's): `limit` run at once, the next starting as
 * one ends, none started once `stopped()` says so. `work` must not reject.
 */
export async function fewAtATime<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
  stopped: () => boolean = () => false,
): Promise<void> {
  let next = 0;
  const inTurn = async () => {
    while (next < items.length && !stopped()) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, inTurn));
}
