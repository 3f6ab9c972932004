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
import { commitmentOf, dealFromSeed } from '../../machines/fairness/fairDeal.js';
import { verifyRecord } from '../../machines/record/verify.js';
import type { HandDealt } from '../../machines/table/events.js';
import { offer, phaseOf, startTable } from '../../machines/table/snapshot.js';
import { viewFor } from '../../machines/view.js';
import { nextBotMove } from '../../drivers/botTurns.js';
import { openLocalStorage } from '../storage/storage.js';
import { TableHost } from './tableHost.js';
import { HAND_REVEALED, TABLE_CREATED } from './tableLog.js';
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
    expect(record.format).toBe('seven-suitors-record/2');
    expect(verifyRecord(record)).toEqual({ ok: true, problems: [], unverifiedDeals: [] });
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
