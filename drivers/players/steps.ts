/**
 * A step of the API a player takes (a request, a socket opening, a first
 * view): how long it may take, and how it fails, by kind (the key the
 * players' errors are counted under).
 */

export const STEP_TIMEOUT_MS = 30_000;

export class Refused extends Error {
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(message);
  }
}

/** `promise`, or a Refused `<what> timeout` after `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Refused(`${what} timeout`, `no ${what} within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
