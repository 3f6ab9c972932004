/**
 * The deal seed of scheme 2 (docs/fairness.md): exactly the documented
 * SHA-256, every contribution used and bound to its seat, and a deal as
 * unbiased as scheme 1's.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FULL_DECK, type Card } from '../cards/card.js';
import { shuffle } from '../cards/shuffle.js';
import type { TableOptions } from '../table/options.js';
import { contributedFairnessOf, dealOfFairness, fairnessRefusal, seedStream } from './fairDeal.js';
import { DEAL_SEED_TAG, dealSeedOf } from './seatContributions.js';

const hex = (label: string) => createHash('sha256').update(label).digest('hex');
const SECRET = hex('the host');
const shape = { game: 'traitorOfLove' as const, options: { specials: 'plain' } as TableOptions };
const CONTRIBUTIONS = [hex('seat 0'), null, hex('seat 2'), hex('seat 3'), null, hex('seat 5')];

describe('the deal seed of a hand the seats contributed to', () => {
  it('is SHA-256(tag, 0, secret, then seat byte and contribution for each seat that sent one), as docs/fairness.md writes it', () => {
    const message = Buffer.concat([
      Buffer.from(DEAL_SEED_TAG, 'ascii'),
      Buffer.from([0]),
      Buffer.from(SECRET, 'hex'),
      ...[0, 2, 3, 5].flatMap((seat) => [Buffer.from([seat]), Buffer.from(CONTRIBUTIONS[seat]!, 'hex')]),
    ]);
    expect(dealSeedOf(SECRET, CONTRIBUTIONS)).toBe(createHash('sha256').update(message).digest('hex'));
    // Nobody contributed: the secret alone, so such a hand deals as scheme 1 did.
    expect(dealSeedOf(SECRET, [null, null, null, null, null, null])).toBe(SECRET);
  });

  it('cannot be re-derived without every contribution used: dropping, changing or moving any one changes the deal', () => {
    const deal = dealOfFairness(shape, contributedFairnessOf(SECRET, CONTRIBUTIONS));
    const variants: (string | null)[][] = [];
    for (const seat of [0, 2, 3, 5]) {
      variants.push(CONTRIBUTIONS.map((each, i) => (i === seat ? null : each)));
      variants.push(CONTRIBUTIONS.map((each, i) => (i === seat ? hex(`another ${seat}`) : each)));
    }
    // The same value sent by another seat is another deal: contributions are bound to their seats.
    variants.push([null, hex('seat 0'), hex('seat 2'), hex('seat 3'), null, hex('seat 5')]);
    for (const variant of variants) {
      expect(dealOfFairness(shape, contributedFairnessOf(SECRET, variant))).not.toEqual(deal);
    }
    expect(dealOfFairness(shape, contributedFairnessOf(hex('another host'), CONTRIBUTIONS))).not.toEqual(deal);
  });

  it('proves its deal with the secret and the contributions, and a changed contribution is refused', () => {
    const fairness = contributedFairnessOf(SECRET, CONTRIBUTIONS);
    const dealt = dealOfFairness(shape, fairness);
    expect(fairnessRefusal(shape, dealt, fairness)).toBeNull();
    const changed = { ...fairness, contributions: CONTRIBUTIONS.map((each, i) => (i === 3 ? hex('forged') : each)) };
    expect(fairnessRefusal(shape, dealt, changed)).toMatch(/^seat \d's cards are not the ones the seed and the contributions deal$/);
    expect(fairnessRefusal(shape, dealt, { ...fairness, contributions: CONTRIBUTIONS.slice(1) })).toBe(
      "contributions must list each of the 6 seats' contribution, or null for a seat that sent none",
    );
  });

  it(`puts every card at every position equally often under one secret and a changing contribution (12000 deals, chi-squared over 60 x 60 cells)`, () => {
    const index = new Map(FULL_DECK.map((card, i) => [card, i]));
    const counts = FULL_DECK.map(() => FULL_DECK.map(() => 0));
    const runs = 12_000;
    for (let run = 0; run < runs; run++) {
      const seed = dealSeedOf(SECRET, [hex(`contribution ${run}`), null, null, null]);
      shuffle(FULL_DECK, seedStream(seed)).forEach((card: Card, position) => counts[index.get(card)!][position]++);
    }
    const expected = runs / FULL_DECK.length;
    const statistic = counts.flat().reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
    const freedom = (FULL_DECK.length - 1) ** 2;
    const bound = freedom + 6 * Math.sqrt(2 * freedom);
    console.log(`contributed deal seeds: chi-squared ${statistic.toFixed(0)} on ${freedom} degrees of freedom, bound ${bound.toFixed(0)}`);
    expect(statistic).toBeLessThan(bound);
  });
});
