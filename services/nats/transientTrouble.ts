/**
 * Asking again through NATS trouble that asking again later can cure (a
 * reconnect, a JetStream leader election, a node restarting; natsErrors.ts
 * tells it). The event store retries its requests through it, and the seat
 * tokens theirs.
 */
import { isTransient } from './natsErrors.js';

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
