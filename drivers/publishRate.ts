/**
 * The raw JetStream publish rate, for benchmarks to print beside the event
 * store's own rate: the same server, the same kind of payload, nothing of the
 * store's bookkeeping.
 */
import type { JetStreamClient } from '@nats-io/jetstream';

export interface PublishRate {
  readonly messages: number;
  /** Publishes in flight at once (1: each awaited before the next). */
  readonly window: number;
  readonly seconds: number;
  readonly perSecond: number;
}

/** About the size of one single-event append of the store (a played card with its headers' worth of JSON). */
export const RAW_APPEND_PAYLOAD = new TextEncoder().encode(
  JSON.stringify({
    events: [{ type: 'card.played', at: '2025-01-02T03:04:05.678Z', data: { seat: 2, card: '4-9' } }],
    status: { game: 'sevenSuitors', phase: 'trickPlay' },
  }),
);

/**
 * Publishes `count` messages to `subject` (which a stream must capture),
 * keeping `window` publishes in flight: each is acknowledged by the server
 * (stored, and replicated when the stream is) before its slot is reused.
 * Rejects with the first failed publish.
 */
export async function measureRawPublishRate(js: JetStreamClient, subject: string, count: number, window: number): Promise<PublishRate> {
  if (!Number.isSafeInteger(count) || count < 1) throw new RangeError(`count must be a whole number >= 1, not ${count}`);
  if (!Number.isSafeInteger(window) || window < 1) throw new RangeError(`window must be a whole number >= 1, not ${window}`);
  let issued = 0;
  const started = performance.now();
  // `window` workers, each publishing and awaiting its ack before taking the next message: a sliding window.
  const worker = async (): Promise<void> => {
    while (issued < count) {
      issued++;
      await js.publish(subject, RAW_APPEND_PAYLOAD);
    }
  };
  await Promise.all(Array.from({ length: Math.min(window, count) }, worker));
  const seconds = (performance.now() - started) / 1000;
  return { messages: count, window, seconds, perSecond: count / seconds };
}
