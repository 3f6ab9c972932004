/**
 * Fair deals through the host (docs/fairness.md): a fresh secret seed for
 * every hand, its commitment public from the deal on, the seed kept out of
 * every view until the hand is scored, then revealed in the log and the
 * views; the record verifies every deal.
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '../../machines/cards/shuffle.js';
import { shuffleDeal } from '../../machines/fragments/dealing.js';
import type { TableOptions } from '../../machines/table/options.js';
import { commitmentOf, dealFromSeed, dealSeedOf } from '../../machines/fairness/fairDeal.js';
import { verifyRecord } from '../../machines/record/verify.js';
import type { HandDealt } from '../../machines/table/events.js';
import { offer, phaseOf, startTable } from '../../machines/table/snapshot.js';
import { viewFor } from '../../machines/view.js';
import { nextBotMove } from '../../drivers/botTurns.js';
import { openLocalStorage } from '../storage/storage.js';
import type { EventStore } from '../eventstore/eventStore.js';
import { randomMove } from '../../machines/bots/randomBot.js';
import { awaitedActions } from '../../machines/table/refusal.js';
import { TableHost } from './tableHost.js';
import { DEAL_CONTRIBUTED, HAND_REVEALED, TABLE_CREATED } from './tableLog.js';
import { isTableRefusal } from './errors.js';
import { upcast } from './upcasters.js';

const BOTS = (count: number) => Array.from({ length: count }, (_, seat) => ({ name: `Bot ${seat}`, bot: true }));

describe('fair deals at the host', () => {
  it('deals every hand from a fresh seed, shows its commitment from the deal on and its seed only once the hand is scored', async () => {
    const store = openLocalStorage({ kind: 'memory' }).store;
    const host = new TableHost({ store });
    const { tableId } = await host.createTable({ game: 'traitorOfLove', options: {}, players: BOTS(6) });
    const rng = createRng('fair-host');
    const seenSeeds = new Set<string>();
    for (let handsScored = 0; handsScored < 2; ) {
      const { snapshot } = await host.snapshot(tableId);
      const hand = snapshot.context.hand!;
      const fairness = hand.fairness!;
      expect(fairness.commitment).toBe(commitmentOf(fairness.seed));
      expect(dealFromSeed(snapshot.context, fairness.seed)).toEqual({ deal: hand.deal, roles: hand.roles });
      seenSeeds.add(fairness.seed);
      for (const viewer of [0, 3, 'spectator'] as const) {
        const view = viewFor(snapshot, viewer);
        expect(view.hand!.commitment).toBe(fairness.commitment);
        expect(JSON.stringify(view)).not.toContain(fairness.seed);
      }
      const before = snapshot.context.handResults.length;
      await host.submit(tableId, nextBotMove(snapshot, rng)!);
      const after = (await host.snapshot(tableId)).snapshot;
      if (after.context.handResults.length > before) {
        handsScored++;
        for (const viewer of [0, 'spectator'] as const) {
          expect(viewFor(after, viewer).revealedDeals.at(-1)).toEqual({ index: hand.index, ...fairness });
        }
      }
    }
    seenSeeds.add((await host.snapshot(tableId)).snapshot.context.hand!.fairness!.seed);
    expect(seenSeeds.size).toBe(3);
    // Fresh for every table too: a table made just like this one deals from seeds of its own, not from its hand numbers.
    const twin = await host.createTable({ game: 'traitorOfLove', options: {}, players: BOTS(6) });
    expect(seenSeeds.has((await host.snapshot(twin.tableId)).snapshot.context.hand!.fairness!.seed)).toBe(false);

    const log = await store.read(tableId);
    expect(log[0].type).toBe(TABLE_CREATED);
    expect(log[0].data).not.toHaveProperty('seed');
    const deals = log.filter((event) => event.type === 'hand.dealt');
    const reveals = log.filter((event) => event.type === HAND_REVEALED);
    expect(reveals.map((event) => upcast(event).data)).toEqual(
      deals.slice(0, 2).map((event, index) => ({ index, ...(event.data as Omit<HandDealt, 'type'>).fairness })),
    );
    // Each reveal comes right after the event that scored its hand, before the next deal.
    for (const reveal of reveals) expect(log[reveal.seq].type).toBe('hand.dealt');
  });

  it('exports a record whose every deal verifies against its seed', async () => {
    const host = new TableHost({ store: openLocalStorage({ kind: 'memory' }).store });
    const { tableId } = await host.createTable({ game: 'sevenSuitors', options: { end: 'hands:2' }, players: BOTS(4) });
    const rng = createRng('fair-record');
    for (let { snapshot } = await host.snapshot(tableId); phaseOf(snapshot) !== 'gameOver'; { snapshot } = await host.snapshot(tableId)) {
      await host.submit(tableId, nextBotMove(snapshot, rng)!);
    }
    const record = JSON.parse(JSON.stringify(await host.exportRecord(tableId)));
    expect(record.format).toBe('seven-suitors-record/3');
    expect(verifyRecord(record)).toEqual({ ok: true, problems: [], unverifiedDeals: [], uncontributedDeals: [0, 1] });
    // The imported game keeps its proofs: its table shows the same revealed deals.
    const imported = await host.importRecord(record);
    const { snapshot } = await host.snapshot(imported.tableId);
    expect(viewFor(snapshot, 'spectator').revealedDeals.map((deal) => deal.seed)).toEqual(
      record.hands.map((hand: { fairness: { seed: string } }) => hand.fairness.seed),
    );
  });

  it('derives every hand’s seed from a fixed table seed, so a seeded table deals the same every time', async () => {
    const deals = await Promise.all(
      [1, 2].map(async () => {
        const host = new TableHost({ store: openLocalStorage({ kind: 'memory' }).store });
        const { tableId } = await host.createTable({ game: 'antiCupid', players: BOTS(5), seed: 'fixed' });
        return (await host.snapshot(tableId)).snapshot.context.hand!.fairness;
      }),
    );
    expect(deals[0]).toEqual(deals[1]);
  });

  it('takes up a log written before deals were provable: its unproven hand replays and plays on, and the next deal is proven', async () => {
    const store = openLocalStorage({ kind: 'memory' }).store;
    const at = new Date().toISOString();
    const options = { end: 'hands:2', specials: 'off' };
    const legacy = startTable({ game: 'sevenSuitors', options: options as TableOptions });
    const seats = BOTS(4).map((player, seat) => ({ type: 'seat.joined' as const, seat, player }));
    for (const event of seats) offer(legacy, event);
    const unproven = shuffleDeal(legacy.getSnapshot().context, createRng('legacy'));
    const { type: _type, ...dealt } = unproven;
    await store.append(
      't-legacy',
      [
        // The old shape: a random table seed in table.created, deals without fairness.
        { type: TABLE_CREATED, at, data: { game: 'sevenSuitors', options, seed: '0123456789abcdef0123456789abcdef' } },
        ...seats.map(({ type, ...data }) => ({ type, at, data })),
        { type: 'hand.dealt', at, data: dealt },
      ],
      0,
    );
    const host = new TableHost({ store });
    const rng = createRng('legacy-play');
    let { snapshot } = await host.snapshot('t-legacy');
    expect(snapshot.context.hand!.fairness).toBeNull();
    expect(viewFor(snapshot, 0).hand!.commitment).toBeNull();
    while (snapshot.context.handResults.length === 0) {
      await host.submit('t-legacy', nextBotMove(snapshot, rng)!);
      ({ snapshot } = await host.snapshot('t-legacy'));
    }
    expect(viewFor(snapshot, 'spectator').revealedDeals).toEqual([]);
    expect(snapshot.context.hand!.fairness!.commitment).toBe(commitmentOf(snapshot.context.hand!.fairness!.seed));
  });
});

/** 32 bytes of a seat's own randomness, as a client sends them: here reproducible, one per label. */
function contributionOf(label: string): string {
  return commitmentOf(Buffer.from(label.padEnd(32, '.').slice(0, 32)).toString('hex'));
}

const PERSON = { name: 'Ann', bot: false };

/** The refusal `work` meets: its kind and message. */
async function refusalOf(work: Promise<unknown>): Promise<{ kind: string; message: string }> {
  const error = await work.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!isTableRefusal(error)) throw new Error(`expected a refusal, got ${String(error)}`);
  return { kind: error.kind, message: error.message };
}

describe('deals the seats contribute to', () => {
  it('commits to the first hand at creation, deals it from the secret and the contributions sent before the table filled, then refuses a late one', async () => {
    const store = openLocalStorage({ kind: 'memory' }).store;
    const host = new TableHost({ store });
    const { tableId } = await host.createTable({ game: 'sevenSuitors', players: [PERSON, PERSON, BOTS(3)[2], null] });
    const before = (await host.snapshot(tableId)).snapshot;
    const published = viewFor(before, 0).nextDeal!;
    expect(published).toEqual({ index: 0, commitment: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(viewFor(before, 'spectator').nextDeal).toEqual(published);

    const mine = contributionOf('seat 0, hand 1');
    const theirs = contributionOf('seat 1, hand 1');
    await host.submit(tableId, { type: DEAL_CONTRIBUTED, seat: 0, hand: 0, contribution: mine });
    await host.submit(tableId, { type: DEAL_CONTRIBUTED, seat: 1, hand: 0, contribution: theirs });
    // A contribution is as secret as the seed until the hand is scored.
    const waiting = (await host.snapshot(tableId)).snapshot;
    for (const viewer of [0, 1, 'spectator'] as const) expect(JSON.stringify(viewFor(waiting, viewer))).not.toContain(mine);
    expect(await refusalOf(host.submit(tableId, { type: DEAL_CONTRIBUTED, seat: 0, hand: 0, contribution: theirs }))).toEqual({
      kind: 'notNow',
      message: 'seat 0 has contributed to hand 1 already; a seat contributes once a hand',
    });
    expect((await refusalOf(host.submit(tableId, { type: DEAL_CONTRIBUTED, seat: 2, hand: 0, contribution: theirs }))).message).toBe(
      "seat 2 is not a person's: only people contribute to a deal, bots do not",
    );

    // The seat that fills the table is the cut-off: the deal is in the same append, so nobody waits for a contribution.
    const filled = await host.submit(tableId, { type: 'seat.joined', seat: 3, player: BOTS(4)[3] });
    expect(filled.events.map((event) => event.type)).toEqual(['seat.joined', 'hand.dealt']);
    const { snapshot } = await host.snapshot(tableId);
    const fairness = snapshot.context.hand!.fairness!;
    expect(fairness).toEqual({
      scheme: 'seat-contributions-sha256/2',
      commitment: published.commitment,
      seed: expect.any(String),
      contributions: [mine, theirs, null, null],
    });
    expect(dealFromSeed(snapshot.context, dealSeedOf(fairness.seed, [mine, theirs, null, null])).deal).toEqual(snapshot.context.hand!.deal);
    // The next hand's secret is committed to with this deal, before anyone can contribute to it.
    expect(viewFor(snapshot, 0).nextDeal).toEqual({ index: 1, commitment: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(viewFor(snapshot, 0).nextDeal!.commitment).not.toBe(published.commitment);

    const version = await store.version(tableId);
    const late = await refusalOf(host.submit(tableId, { type: DEAL_CONTRIBUTED, seat: 0, hand: 0, contribution: contributionOf('late') }));
    expect(late.kind).toBe('notNow');
    expect(late.message).toMatch(/^too late: hand 1 is dealt already, and this contribution is not used/);
    expect(await store.version(tableId)).toBe(version);
    expect((await refusalOf(host.submit(tableId, { type: DEAL_CONTRIBUTED, seat: 0, hand: 2, contribution: mine }))).message).toMatch(
      /^hand 3 is not open to contributions yet/,
    );
    expect(await refusalOf(host.submit(tableId, { type: DEAL_CONTRIBUTED, seat: 0, hand: 1, contribution: 'ab' }))).toEqual({
      kind: 'malformed',
      message: 'contribution must be 32 random bytes as 64 lowercase hex characters',
    });
    expect(await store.version(tableId)).toBe(version);
  });

  it('deals the next hand in the same append as the last card of the one before, from the contributions logged by then, read back after a restart', async () => {
    const store = openLocalStorage({ kind: 'memory' }).store;
    const first = new TableHost({ store });
    const { tableId } = await first.createTable({
      game: 'sevenSuitors',
      options: { end: 'hands:3' },
      players: [PERSON, ...BOTS(4).slice(1)],
    });
    const contribution = contributionOf('seat 0, hand 2');
    await first.submit(tableId, { type: DEAL_CONTRIBUTED, seat: 0, hand: 1, contribution });
    const committed = viewFor((await first.snapshot(tableId)).snapshot, 0).nextDeal!;
    await first.close();

    // Another host takes the table up from its log: the contribution is read back from it.
    const host = new TableHost({ store });
    const rng = createRng('contributed-hands');
    let { snapshot } = await host.snapshot(tableId);
    let last: string[] = [];
    while (snapshot.context.handResults.length === 0) {
      const [awaited] = awaitedActions(snapshot);
      last = (await host.submit(tableId, randomMove(snapshot, awaited.seat, awaited.action, rng))).events.map((event) => event.type);
      ({ snapshot } = await host.snapshot(tableId));
    }
    // A seat that sends nothing delays nothing: the deal is made with the event that ends the hand.
    expect(last).toContain('hand.dealt');
    expect(last.indexOf(HAND_REVEALED)).toBeLessThan(last.indexOf('hand.dealt'));
    const fairness = snapshot.context.hand!.fairness!;
    expect(fairness.commitment).toBe(committed.commitment);
    expect(fairness.contributions).toEqual([contribution, null, null, null]);
    const made = dealFromSeed(snapshot.context, dealSeedOf(fairness.seed, fairness.contributions!));
    expect(made.deal).toEqual(snapshot.context.hand!.deal);
    // Without the contribution the secret deals another hand: the contribution is used, not merely logged.
    expect(dealFromSeed(snapshot.context, fairness.seed).deal).not.toEqual(snapshot.context.hand!.deal);
    await host.close();
  });
});

describe('a table taken up cold', () => {
  it('reads its seats’ contributions back from the last deal on, not from the start of its game', async () => {
    const store = openLocalStorage({ kind: 'memory' }).store;
    const first = new TableHost({ store });
    const { tableId } = await first.createTable({
      game: 'sevenSuitors',
      options: { end: 'hands:5' },
      players: [PERSON, ...BOTS(4).slice(1)],
    });
    const rng = createRng('cold-contributions');
    const playUntilScored = async (host: TableHost, hands: number) => {
      let { snapshot } = await host.snapshot(tableId);
      while (snapshot.context.handResults.length < hands) {
        const [awaited] = awaitedActions(snapshot);
        await host.submit(tableId, randomMove(snapshot, awaited.seat, awaited.action, rng));
        ({ snapshot } = await host.snapshot(tableId));
      }
      return snapshot;
    };
    await playUntilScored(first, 3);
    const contribution = contributionOf('seat 0, hand 5');
    await first.submit(tableId, { type: DEAL_CONTRIBUTED, seat: 0, hand: 4, contribution });
    // Let go with a snapshot, as a worker hands a table on: the next host starts from it and the log after it.
    await first.passivate(tableId);
    await first.close();
    // Longer than the first read back from the end (128 events), so reading from the start would show.
    expect(await store.version(tableId)).toBeGreaterThan(150);

    const readsFrom: number[] = [];
    const watched: EventStore = {
      ...store,
      read: (id, afterVersion = 0) => {
        readsFrom.push(afterVersion);
        return store.read(id, afterVersion);
      },
    };
    const host = new TableHost({ store: watched });
    const snapshot = await playUntilScored(host, 4);
    expect(snapshot.context.hand!.fairness!.contributions).toEqual([contribution, null, null, null]);
    // The whole game is never read again: its contributions to the hand open now come after its last deal.
    expect(readsFrom.filter((after) => after === 0)).toEqual([]);
    await host.close();
  });
});

describe('a fork and its deals', () => {
  it('deals its first new hand from a secret of its own, not the original’s commitment, and takes contributions from the next on', async () => {
    const store = openLocalStorage({ kind: 'memory' }).store;
    const host = new TableHost({ store });
    const { tableId } = await host.createTable({ game: 'sevenSuitors', options: { end: 'hands:2' }, players: BOTS(4) });
    const rng = createRng('fork-deals');
    for (let { snapshot } = await host.snapshot(tableId); phaseOf(snapshot) !== 'gameOver'; { snapshot } = await host.snapshot(tableId)) {
      await host.submit(tableId, nextBotMove(snapshot, rng)!);
    }
    const log = await store.read(tableId);
    const originalSecond = viewFor((await host.snapshot(tableId)).snapshot, 'spectator').revealedDeals[1];
    // Right after the first card of the first hand: the fork inherits the commitment the original made to the second.
    const at = log.find((event) => event.type === 'card.played')!.seq;
    const fork = await host.forkTable(tableId, { at, taker: { seat: 0, name: 'Ada', holder: 'ab'.repeat(32) } });
    const forked = (await host.snapshot(fork.tableId)).snapshot;
    expect(viewFor(forked, 0).nextDeal).toEqual({ index: 1, commitment: originalSecond.commitment });
    expect(
      (await refusalOf(host.submit(fork.tableId, { type: DEAL_CONTRIBUTED, seat: 0, hand: 1, contribution: contributionOf('fork') }))).kind,
    ).toBe('notNow');
    let snapshot = forked;
    while (snapshot.context.handResults.length === 0) {
      const [awaited] = awaitedActions(snapshot);
      await host.submit(fork.tableId, randomMove(snapshot, awaited.seat, awaited.action, rng));
      ({ snapshot } = await host.snapshot(fork.tableId));
    }
    const fairness = snapshot.context.hand!.fairness!;
    expect(fairness.scheme).toBe('hmac-sha256-fisher-yates/1');
    expect(fairness.seed).not.toBe(originalSecond.seed);
    const next = viewFor(snapshot, 0).nextDeal!;
    expect(next.index).toBe(2);
    expect(
      (await host.submit(fork.tableId, { type: DEAL_CONTRIBUTED, seat: 0, hand: 2, contribution: contributionOf('fork') })).events,
    ).toHaveLength(1);
  });
});
