/**
 * `suitors check` against records tampered the ways a dishonest dealer or
 * editor would (issue 12): each tampering fails the record with a line
 * naming what is wrong, and a record whose game replays the same under the
 * rules is still caught when its deal is not its seed's.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDirectory, suitors, type RecordDocument } from '../../../test/kit/cli.js';
import type { Card } from '../../../machines/cards/card.js';
import { commitmentOf } from '../../../machines/fairness/fairDeal.js';
import { randomMove } from '../../../machines/bots/randomBot.js';
import { createRng, seedFrom } from '../../../machines/cards/shuffle.js';
import { contributedDeal } from '../../../machines/fragments/dealing.js';
import { recordFromEvents } from '../../../machines/record/record.js';
import type { TableEvent } from '../../../machines/table/events.js';
import { awaitedActions } from '../../../machines/table/refusal.js';
import { offer, phaseOf, startTable } from '../../../machines/table/snapshot.js';

const scratch = scratchDirectory('suitors-check-test');

/**
 * The two 7s of a suit are alike in play: swapping their names through a
 * whole hand (deal, passes, plays) leaves a game that replays to the same
 * result, so only the seed can tell that the deal was changed. Returns
 * false when no suit's 7s were dealt to two different seats.
 */
function swapSevensBetweenSeats(hand: RecordDocument['hands'][number]): boolean {
  for (let suit = 1; suit <= 7; suit++) {
    const [a, b] = [`${suit}-7a`, `${suit}-7b`] as Card[];
    const holder = (card: Card) => hand.deal.findIndex((cards) => cards.includes(card));
    if (holder(a) === holder(b)) continue;
    const swapped = (card: Card): Card => (card === a ? b : card === b ? a : card);
    hand.deal = hand.deal.map((cards) => cards.map(swapped));
    hand.passes = hand.passes.map((pass) => ({ ...pass, card: swapped(pass.card) }));
    hand.plays = hand.plays.map(([seat, card]) => [seat, swapped(card)]);
    return true;
  }
  return false;
}

describe('suitors check on tampered deals', () => {
  it('fails a record whose seed, commitment, deal or role deal was changed, each with a precise line; passes the untouched one; says a format 1 record’s deals are unverified', async () => {
    const out = join(scratch, 'records');
    const simulated = await suitors(
      'simulate',
      '--game',
      'traitorOfLove',
      '--games',
      '7',
      '--seed',
      'tamper',
      '--max-hands',
      '2',
      '--out',
      out,
    );
    expect(simulated.code).toBe(0);
    const file = (i: number) => join(out, `traitorOfLove-tamper-${i}.json`);
    const read = (i: number) => JSON.parse(readFileSync(file(i), 'utf8')) as RecordDocument;
    const write = (i: number, record: RecordDocument) => writeFileSync(file(i), JSON.stringify(record));
    const fairnessOf = (record: RecordDocument, hand: number) => record.hands[hand].fairness!;

    // 1: another seed, under the old commitment.
    const seed = read(1);
    fairnessOf(seed, 0).seed = fairnessOf(seed, 1).seed;
    write(1, seed);
    // 2: another commitment, for the same seed.
    const commitment = read(2);
    fairnessOf(commitment, 1).commitment = fairnessOf(commitment, 0).commitment;
    write(2, commitment);
    // 3: a whole other seed with its own commitment: the pair agrees, but the deal is not that seed's.
    const pair = read(3);
    const otherSeed = fairnessOf(read(4), 0).seed!;
    Object.assign(fairnessOf(pair, 0), { seed: otherSeed, commitment: commitmentOf(otherSeed) });
    write(3, pair);
    // 4: the deal changed, and the plays with it, so the game is still legal and scores the same.
    const deal = read(4);
    expect(swapSevensBetweenSeats(deal.hands[1])).toBe(true);
    write(4, deal);
    // 5: the role deal changed (the Traitor moved).
    const roles = read(5);
    roles.hands[0].roles!.reverse();
    write(5, roles);
    // 6: format 1, which has no proofs.
    const old = read(6);
    (old as { format: string }).format = 'seven-suitors-record/1';
    for (const hand of old.hands) delete hand.fairness;
    write(6, old);
    // 7: untouched.

    const checked = await suitors('check', out);
    const lines = checked.stdout.trimEnd().split('\n');
    const about = (i: number) => lines.filter((line) => line.startsWith(`${file(i)}: `)).map((line) => line.slice(file(i).length + 2));
    expect(about(1)).toEqual(['hands[0].fairness: the commitment is not the SHA-256 of the seed']);
    expect(about(2)).toEqual(['hands[1].fairness: the commitment is not the SHA-256 of the seed']);
    expect(about(3)[0]).toMatch(/^hands\[0\]\.fairness: seat \d's cards are not the ones the seed deals$/);
    expect(about(4)).toHaveLength(1);
    expect(about(4)[0]).toMatch(/^hands\[1\]\.fairness: seat \d's cards are not the ones the seed deals$/);
    // (Moving the Traitor changes the scores too: those lines follow.)
    expect(about(5)[0]).toBe('hands[0].fairness: the role cards are not the ones the seed deals');
    expect(about(6)).toEqual(['deals unverified (no revealed seed): hands 0, 1']);
    expect(about(7)).toEqual([]);
    expect(lines.at(-1)).toBe('2 passed, 5 failed');
    expect(checked.code).toBe(1);
  }, 60_000);
});

/** Two hands of A Traitor of Love dealt from a secret and a contribution from seats 0, 2 and 5, as a record (format 3). */
function contributedRecord(seed: string): RecordDocument {
  const input = { game: 'traitorOfLove' as const, options: { specials: 'plain' as const } };
  const table = startTable(input);
  const events: TableEvent[] = [];
  const send = (event: TableEvent) => {
    expect(offer(table, event)).toBe(true);
    events.push(event);
  };
  for (let seat = 0; seat < 6; seat++) send({ type: 'seat.joined', seat, player: { name: `P${seat}`, bot: false } });
  const rng = createRng(seed);
  for (let snapshot = table.getSnapshot(); phaseOf(snapshot) !== 'gameOver'; snapshot = table.getSnapshot()) {
    if (phaseOf(snapshot) === 'dealing') {
      if (snapshot.context.handResults.length === 2) break;
      const contributions = [0, 1, 2, 3, 4, 5].map((seat) => ([0, 2, 5].includes(seat) ? seedFrom(rng) : null));
      send(contributedDeal(snapshot.context, seedFrom(rng), contributions));
    } else {
      const [next] = awaitedActions(snapshot);
      send(randomMove(snapshot, next.seat, next.action, rng));
    }
  }
  table.stop();
  return JSON.parse(JSON.stringify(recordFromEvents(input, events))) as RecordDocument;
}

describe('suitors check on tampered contributions', () => {
  it('passes a record of deals the seats contributed to, and fails one whose contribution was changed, naming the hand and a seat', async () => {
    const out = join(scratch, 'contributed');
    mkdirSync(out);
    const record = contributedRecord('contributed');
    expect(record.format).toBe('seven-suitors-record/3');
    writeFileSync(join(out, 'untouched.json'), JSON.stringify(record));
    const tampered = contributedRecord('contributed');
    const contributions = tampered.hands[1].fairness!.contributions!;
    contributions[2] = contributions[0];
    writeFileSync(join(out, 'tampered.json'), JSON.stringify(tampered));

    const checked = await suitors('check', out);
    const lines = checked.stdout.trimEnd().split('\n');
    expect(lines.filter((line) => line.includes('untouched.json'))).toEqual([]);
    const problems = lines.filter((line) => line.includes('tampered.json'));
    expect(problems[0]).toMatch(
      /tampered\.json: hands\[1\]\.fairness: seat \d's cards are not the ones the seed and the contributions deal$/,
    );
    expect(lines.at(-1)).toBe('1 passed, 1 failed');
    expect(checked.code).toBe(1);
  }, 60_000);
});
