/**
 * A seeded pseudo-random source. The machines never call it: the host and the
 * simulator decide every shuffle and role deal with it and record the result
 * in events, so a log replays to the same game without the seed.
 */

export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, bound). */
  below(bound: number): number;
}

/** mulberry32: tiny, fast and good enough for dealing cards. */
export function createRng(seed: number | string): Rng {
  let state = typeof seed === 'number' ? seed >>> 0 : hashSeed(seed);
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, below: (bound) => Math.floor(next() * bound) };
}

function hashSeed(seed: string): number {
  let hash = 2166136261;
  for (let i = 0; i < seed.length; i++) {
    hash ^= seed.charCodeAt(i);
    hash = Math.imul(hash, 16777619);
  }
  return hash >>> 0;
}

/**
 * A hand's seed (256 bits, 64 hex digits) drawn from `rng`: a deal as
 * checkable as one from a secret seed, and reproducible, for the simulator
 * and the tests. The host draws the seeds of real tables from crypto
 * (services/host/dealer.ts).
 */
export function seedFrom(rng: Rng): string {
  return Array.from({ length: 8 }, () =>
    rng
      .below(2 ** 32)
      .toString(16)
      .padStart(8, '0'),
  ).join('');
}

/** Fisher-Yates on a copy. */
export function shuffle<T>(items: readonly T[], rng: Rng): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    const held = out[i];
    out[i] = out[j];
    out[j] = held;
  }
  return out;
}
