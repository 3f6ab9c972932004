/**
 * NATS trouble that asking again later can cure: a reconnect, a JetStream
 * leader election, a node restarting. The event store retries its requests
 * through it, and the seat tokens theirs.
 */
import { JetStreamApiError } from '@nats-io/jetstream';

/** What a reconnect or a leader election answers, which asking again later can cure. */
export function isTransient(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (['TimeoutError', 'NoResponders', 'JetStreamNotEnabled'].includes(cause.name)) return true;
    if (cause.name === 'RequestError' && /no responders|timeout/i.test(cause.message)) return true;
    // 503: "JetStream system temporarily unavailable" (no leader yet).
    if (cause instanceof JetStreamApiError && cause.status === 503) return true;
  }
  return false;
}

/** Runs `request` until it is answered, asking again (backing off) after transient trouble for up to `retryForMs`. */
export async function retryWhileTransient<T>(
  request: () => Promise<T>,
  retryForMs: number,
  gaveUp: () => boolean = () => false,
): Promise<T> {
  const deadline = Date.now() + retryForMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      if (!isTransient(error) || Date.now() >= deadline || gaveUp()) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 50 * 2 ** attempt)));
    }
  }
}
