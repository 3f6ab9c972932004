/**
 * A KV bucket kept in view: every key's last value, then every change, for
 * as long as the worker runs. A watch can end or fail when NATS nodes
 * restart (its consumer lost with them): it is then opened again, from the
 * bucket's last values, backing off up to 5 s between tries.
 */
import { KvWatchInclude, type KV, type KvEntry } from '@nats-io/kv';

export interface BucketView {
  /** Called as each watch opens, before its first entry: what was seen before is to be forgotten. */
  readonly onOpen: () => void;
  readonly onEntry: (entry: KvEntry) => void;
  /** What is watched, for the log: "the claims". */
  readonly what: string;
  readonly log: (line: string) => void;
}

/** Opens the watch (rejecting when it cannot, this first time) and keeps it open; returns what stops it. */
export async function keepBucketInView(kv: KV, view: BucketView): Promise<{ stop(): void }> {
  let stopped = false;
  let current: { stop(): void } | null = null;
  const open = async (): Promise<void> => {
    const updates = await kv.watch({ include: KvWatchInclude.LastValue });
    current = updates;
    view.onOpen();
    void (async () => {
      for await (const entry of updates) view.onEntry(entry);
    })()
      .catch((error: unknown) => view.log(`watching ${view.what} failed: ${(error as Error).message}`))
      .finally(() => {
        if (!stopped) void openAgain();
      });
  };
  const openAgain = async (): Promise<void> => {
    for (let attempt = 1; !stopped; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 250 * attempt)));
      if (stopped) return;
      try {
        await open();
        view.log(`watching ${view.what} again`);
        return;
      } catch {
        // NATS is away: try again.
      }
    }
  };
  await open();
  return {
    stop() {
      stopped = true;
      current?.stop();
    },
  };
}
