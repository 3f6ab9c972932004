import { createHash, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FULL_DECK, HEARTS, inCanonicalOrder, type Card } from '../cards/card.js';
import type { TableOptions } from '../table/options.js';
import { DEAL_SCHEME, commitmentOf, dealFromSeed, fairnessRefusal, seedStream } from './fairDeal.js';
import { hmacSha256, sha256, toHex } from './sha256.js';
import type { Rng } from '../cards/shuffle.js';
import { shuffle } from '../cards/shuffle.js';

/** Reproducible seeds that are as good as random: SHA-256 of a counter. */
function seedNumber(i: number): string {
  return createHash('sha256').update(`statistics-${i}`).digest('hex');
}

describe('SHA-256 and HMAC-SHA256', () => {
  it('agree with node:crypto on messages of every length around the block boundaries, and on random ones', () => {
    const lengths = [0, 1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000];
    for (const length of lengths) {
      const message = randomBytes(length);
      expect(toHex(sha256(message))).toBe(createHash('sha256').update(message).digest('hex'));
      for (const keyLength of [0, 16, 32, 64, 65, 100]) {
        const key = randomBytes(keyLength);
        expect(toHex(hmacSha256(key, message))).toBe(createHmac('sha256', key).update(message).digest('hex'));
      }
    }
  });
});

describe('the seed stream', () => {
  it('is HMAC-SHA256(seed, counter as 8 bytes big-endian), read as big-endian 32-bit words, exactly as docs/fairness.md says', () => {
    const seed = seedNumber(0);
    const stream = seedStream(seed);
    const words: number[] = [];
    for (let i = 0; i < 24; i++) words.push(stream.below(2 ** 32));
    const expected: number[] = [];
    for (let counter = 0; counter < 3; counter++) {
      const message = Buffer.alloc(8);
      message.writeBigUInt64BE(BigInt(counter));
      const block = createHmac('sha256', Buffer.from(seed, 'hex')).update(message).digest();
      for (let w = 0; w < 8; w++) expected.push(block.readUInt32BE(w * 4));
    }
    expect(words).toEqual(expected);
  });

  it('rejects the words past the last whole multiple of the bound, so every value is equally likely', () => {
    // With bound 3 * 2^30, the words from 3 * 2^30 up are rejected: the stream draws until one is below.
    const seed = seedNumber(1);
    const raw = seedStream(seed);
    const bound = 3 * 2 ** 30;
    const fromRaw: number[] = [];
    while (fromRaw.length < 50) {
      const word = raw.below(2 ** 32);
      if (word < bound) fromRaw.push(word % bound);
    }
    const drawn = seedStream(seed);
    expect(Array.from({ length: 50 }, () => drawn.below(bound))).toEqual(fromRaw);
  });
});

/**
 * Pearson's chi-squared statistic of a table of counts against equal
 * expectations in every cell, with its degrees of freedom.
 */
function chiSquared(counts: number[][]): { statistic: number; freedom: number } {
  const rows = counts.length;
  const columns = counts[0].length;
  const total = counts.flat().reduce((sum, count) => sum + count, 0);
  const expected = total / (rows * columns);
  const statistic = counts.flat().reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
  return { statistic, freedom: (rows - 1) * (columns - 1) };
}

/** Pearson's goodness of fit of one row of counts against equal expectations: (cells - 1) degrees of freedom. */
function goodnessOfFit(counts: readonly number[]): { statistic: number; freedom: number } {
  const expected = counts.reduce((sum, count) => sum + count, 0) / counts.length;
  return { statistic: counts.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0), freedom: counts.length - 1 };
}

/**
 * The bound a fair shuffle stays under essentially always: the mean of the
 * chi-squared distribution plus six standard deviations (with thousands of
 * degrees of freedom it is near normal, so a fair shuffle fails about once
 * in a billion runs).
 */
function sixSigmaBound(freedom: number): number {
  return freedom + 6 * Math.sqrt(2 * freedom);
}

/** How often each card of the deck lands at each position, over `runs` shuffles. */
function positionCounts(runs: number, shuffleOnce: (run: number) => readonly Card[]): number[][] {
  const index = new Map(FULL_DECK.map((card, i) => [card, i]));
  const counts = FULL_DECK.map(() => FULL_DECK.map(() => 0));
  for (let run = 0; run < runs; run++) {
    shuffleOnce(run).forEach((card, position) => counts[index.get(card)!][position]++);
  }
  return counts;
}

const RUNS = 12_000;

describe('the deal function is unbiased', () => {
  it(`puts every card at every position of the shuffled deck equally often (${RUNS} seeds, chi-squared over 60 x 60 cells)`, () => {
    const fair = chiSquared(positionCounts(RUNS, (run) => shuffle(FULL_DECK, seedStream(seedNumber(run)))));
    console.log(
      `fair shuffle: chi-squared ${fair.statistic.toFixed(0)} on ${fair.freedom} degrees of freedom, bound ${sixSigmaBound(fair.freedom).toFixed(0)}`,
    );
    expect(fair.statistic).toBeLessThan(sixSigmaBound(fair.freedom));
  });

  it('and the same test fails a biased shuffle (sorting with a random comparator; Fisher-Yates off by one), even with a quarter of the runs', () => {
    const naive = chiSquared(
      positionCounts(RUNS / 4, (run) => {
        const rng = seedStream(seedNumber(run));
        return FULL_DECK.slice().sort(() => rng.next() - 0.5);
      }),
    );
    console.log(`sort(() => random - 0.5): chi-squared ${naive.statistic.toFixed(0)} on ${naive.freedom} degrees of freedom`);
    expect(naive.statistic).toBeGreaterThan(sixSigmaBound(naive.freedom));

    // Off by one: j drawn from [0, i) rather than [0, i] never leaves a card where it is (Sattolo's cycle, not a shuffle).
    const offByOne = chiSquared(
      positionCounts(RUNS / 4, (run) => {
        const rng = seedStream(seedNumber(run));
        const skewed: Rng = { next: rng.next, below: (bound) => rng.below(Math.max(1, bound - 1)) };
        return shuffle(FULL_DECK, skewed);
      }),
    );
    console.log(`off-by-one Fisher-Yates: chi-squared ${offByOne.statistic.toFixed(0)} on ${offByOne.freedom} degrees of freedom`);
    expect(offByOne.statistic).toBeGreaterThan(sixSigmaBound(offByOne.freedom));
  });

  it('deals the Traitor (Hearts) to every seat of A Traitor of Love equally often, and every other suit as a tracking card equally often', () => {
    const traitorSeats = Array.from({ length: 6 }, () => 0);
    const suitsDealt = Array.from({ length: 6 }, () => 0);
    for (let run = 0; run < RUNS; run++) {
      const { roles } = dealFromSeed({ game: 'traitorOfLove', options: { specials: 'plain' } as TableOptions }, seedNumber(run));
      traitorSeats[roles!.indexOf(HEARTS)]++;
      for (const suit of roles!) if (suit !== HEARTS) suitsDealt[suit - 1]++;
    }
    for (const [what, counts] of [
      ['the Traitor by seat', traitorSeats],
      ['tracking suits 1-6', suitsDealt],
    ] as const) {
      const { statistic, freedom } = goodnessOfFit(counts);
      console.log(`${what}: ${counts.join(' ')}; chi-squared ${statistic.toFixed(1)} on ${freedom} degrees of freedom, bound 40`);
      // With 5 degrees of freedom the normal approximation is loose: 40 is past the 1-in-ten-million point.
      expect(statistic).toBeLessThan(40);
      expect(freedom).toBe(5);
    }
  });
});

describe('a deal from a seed', () => {
  const shape = { game: 'traitorOfLove' as const, options: { specials: 'plain' } as TableOptions };

  it('is the same every time, shows each hand in canonical order, and deals the whole deck', () => {
    const seed = seedNumber(7);
    const first = dealFromSeed(shape, seed);
    expect(dealFromSeed(shape, seed)).toEqual(first);
    for (const cards of first.deal) expect(cards).toEqual(inCanonicalOrder(cards));
    expect(first.deal.flat().sort()).toEqual(FULL_DECK.slice().sort());
    expect(dealFromSeed(shape, seedNumber(8))).not.toEqual(first);
  });

  it('is proven by its seed, and any change to the seed, commitment, deal or roles is refused with what is wrong', () => {
    const seed = seedNumber(9);
    const { deal, roles } = dealFromSeed(shape, seed);
    const proof = { scheme: DEAL_SCHEME, commitment: commitmentOf(seed), seed };
    expect(fairnessRefusal(shape, { deal, roles }, proof)).toBeNull();

    const swapped = deal.map((cards) => cards.slice());
    [swapped[0][0], swapped[1][0]] = [swapped[1][0], swapped[0][0]];
    const otherSeed = seedNumber(10);
    expect(fairnessRefusal(shape, { deal, roles }, { ...proof, seed: otherSeed })).toBe('the commitment is not the SHA-256 of the seed');
    expect(fairnessRefusal(shape, { deal, roles }, { ...proof, commitment: commitmentOf(otherSeed) })).toBe(
      'the commitment is not the SHA-256 of the seed',
    );
    expect(fairnessRefusal(shape, { deal, roles }, { ...proof, seed: otherSeed, commitment: commitmentOf(otherSeed) })).toMatch(
      /^seat \d's cards are not the ones the seed deals$/,
    );
    expect(fairnessRefusal(shape, { deal: swapped, roles }, proof)).toBe("seat 0's cards are not the ones the seed deals");
    expect(fairnessRefusal(shape, { deal, roles: [...roles!.slice(1), roles![0]] }, proof)).toBe(
      'the role cards are not the ones the seed deals',
    );
    expect(fairnessRefusal(shape, { deal, roles }, { ...proof, scheme: 'sort-by-random' })).toMatch(
      /^the deal scheme must be hmac-sha256-fisher-yates\/1/,
    );
    expect(fairnessRefusal(shape, { deal, roles }, { ...proof, seed: seed.toUpperCase() })).toBe(
      'the deal seed must be 64 lowercase hex characters',
    );
  });
});
