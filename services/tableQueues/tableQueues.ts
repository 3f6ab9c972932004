/**
 * One queue of work per table: work for a table runs after every earlier
 * piece of work for the same table has finished, while different tables
 * run concurrently. The host, the gateway's feed, the NATS read model and
 * the JetStream store's appends and snapshots each keep their own, so it
 * sits below all of them, in a folder of its own.
 */
export class TableQueues {
  /** The tail of each busy table's queue; a table leaves the map when its queue empties. */
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(tableId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(tableId) ?? Promise.resolve();
    const result = previous.then(work, work);
    const tail = result.catch(() => undefined);
    this.tails.set(tableId, tail);
    void tail.then(() => {
      if (this.tails.get(tableId) === tail) this.tails.delete(tableId);
    });
    return result;
  }

  isBusy(tableId: string): boolean {
    return this.tails.has(tableId);
  }

  /** Resolves once all work queued so far has finished, whatever its outcome. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.tails.values()]);
  }
}
