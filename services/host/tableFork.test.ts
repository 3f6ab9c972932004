/**
 * Playing on from an event of a finished game (TableHost.forkTable): the
 * new table stands where the original stood, its log says where it came
 * from, its seats are its own, and an unfinished game is refused.
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '../../machines/cards/shuffle.js';
import { seatHeldBy, type TableContext } from '../../machines/table/context.js';
import { phaseOf } from '../../machines/table/snapshot.js';
import { playBotTurns } from '../../drivers/botTurns.js';
import { openLocalStorage } from '../storage/storage.js';
import type { StoredEvent } from '../eventstore/eventStore.js';
import { isTableRefusal } from './errors.js';
import { TableHost } from './tableHost.js';

const BOTS = (count: number) => Array.from({ length: count }, (_, seat) => ({ name: `Bot ${seat}`, bot: true }));

async function refusalOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isTableRefusal(error)) return { kind: error.kind, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

/** The game's state without who sits where: a fork has players of its own. */
function gameOf(context: TableContext) {
  const { occupants, holders, ...game } = context;
  void occupants;
  void holders;
  return game;
}

/** A finished two-hand game of Seven Suitors whose seat 1 changed hands during the first hand. */
async function finishedGame() {
  const store = openLocalStorage({ kind: 'memory' }).store;
  const host = new TableHost({ store });
  const { tableId } = await host.createTable({ game: 'sevenSuitors', options: { end: 'hands:2' }, players: BOTS(4), seed: 'fork' });
  await host.submit(tableId, { type: 'seat.left', seat: 1 });
  await host.submit(tableId, { type: 'seat.joined', seat: 1, player: { name: 'Bot for Cy', bot: true } });
  await playBotTurns(host, tableId, createRng('fork'));
  expect(phaseOf((await host.snapshot(tableId)).snapshot)).toBe('gameOver');
  return { store, host, tableId, log: await host.events(tableId) };
}

const ADA = 'a'.repeat(64);

const seqOf = (log: readonly StoredEvent[], pick: (event: StoredEvent, index: number) => boolean) => log.findIndex(pick) + 1;

describe('playing on from an event of a finished game', () => {
  it('starts the new table as the original stood right after the event, with its own seats, and says where it came from', async () => {
    const { host, tableId, log } = await finishedGame();
    const secondDeal = log.findIndex((event, index) => index > 10 && event.type === 'hand.dealt');
    // Mid-trick in the second hand, after the first was scored and revealed.
    const at = seqOf(log, (event, index) => index > secondDeal + 12 && event.type === 'card.played');
    const fork = await host.forkTable(tableId, { at });
    const original = await host.replayAt(tableId, at);
    const forked = await host.snapshot(fork.tableId);
    expect(gameOf(forked.snapshot.context)).toEqual(gameOf(original.snapshot.context));
    expect(forked.snapshot.value).toEqual(original.snapshot.value);
    // A bot's stand-in is named for its seat, not the bot ("Bot for Bot 0"); a stand-in's keeps its name.
    expect(forked.snapshot.context.occupants).toEqual([
      { name: 'Bot for seat 0', bot: true },
      { name: 'Bot for Cy', bot: true },
      { name: 'Bot for seat 2', bot: true },
      { name: 'Bot for seat 3', bot: true },
    ]);

    const events = await host.events(fork.tableId);
    expect(events[0]).toMatchObject({
      seq: 1,
      type: 'table.created',
      data: { game: 'sevenSuitors', options: { end: 'hands:2' }, settings: { forkedFrom: { tableId, at } } },
    });
    // Fresh hands from here on: knowing the original game tells nothing of the new table's deals.
    expect(events[0].data).not.toHaveProperty('seed');
    expect(events.filter((event) => event.type === 'seat.left')).toEqual([]);
    expect(events.filter((event) => event.type === 'seat.joined').map((event) => event.seq)).toEqual([2, 3, 4, 5]);
    const dealsOf = (from: readonly StoredEvent[]) => from.filter((event) => event.type === 'hand.dealt').map((event) => event.data);
    expect(dealsOf(events)).toEqual(dealsOf(log.slice(0, at)));
    expect(dealsOf(events).every((deal) => (deal as { fairness?: unknown }).fairness !== undefined)).toBe(true);
    const revealsOf = (from: readonly StoredEvent[]) => from.filter((event) => event.type === 'hand.revealed').map((event) => event.data);
    expect(revealsOf(events)).toEqual(revealsOf(log.slice(0, at)));
    expect(revealsOf(events)).toHaveLength(1);

    // The new log alone rebuilds the same table.
    const reread = await host.replayAt(fork.tableId);
    expect(reread.snapshot.context).toEqual(forked.snapshot.context);
    expect((await host.snapshot(tableId)).version).toBe(log.length);
  });

  it("deals the next hand itself when the event is between hands, and seats a person who asks with their token's tenure", async () => {
    const { host, tableId, log } = await finishedGame();
    const secondDeal = log.findIndex((event, index) => index > 10 && event.type === 'hand.dealt');
    const at = secondDeal - (log[secondDeal - 1].type === 'hand.revealed' ? 1 : 0);
    const original = await host.replayAt(tableId, at);
    expect(phaseOf(original.snapshot)).toBe('dealing');
    const fork = await host.forkTable(tableId, { at, taker: { seat: 2, name: 'Ada', holder: ADA } });
    const { snapshot } = await host.snapshot(fork.tableId);
    expect(phaseOf(snapshot)).toBe('passing');
    expect(snapshot.context.hand!.index).toBe(1);
    expect(snapshot.context.handResults).toEqual(original.snapshot.context.handResults);
    expect(snapshot.context.occupants[2]).toEqual({ name: 'Ada', bot: false });
    expect(seatHeldBy(snapshot.context, 2, ADA)).toBe(true);
    expect(seatHeldBy(snapshot.context, 2, 'someone-else')).toBe(false);
    const events = await host.events(fork.tableId);
    expect(events.at(-1)).toMatchObject({ type: 'hand.dealt' });
    expect(events.at(-1)!.data).not.toEqual(log[secondDeal].data);
  });

  it('refuses an unfinished game, an event its log has not, the end of the game and a seat it has not, and makes no table', async () => {
    const { host, tableId, log } = await finishedGame();
    const playing = await host.createTable({ game: 'antiCupid', players: BOTS(5), seed: 'playing' });
    const tables = (await host.listTables()).length;
    const phase = phaseOf((await host.snapshot(playing.tableId)).snapshot);
    expect(await refusalOf(host.forkTable(playing.tableId, { at: 3 }))).toEqual({
      kind: 'notNow',
      message: `the game is not over; table ${playing.tableId} can be played on from any event once its game is over (it is in ${phase})`,
    });
    expect(await refusalOf(host.forkTable(tableId, { at: log.length + 1 }))).toEqual({
      kind: 'notNow',
      message: `table ${tableId} has ${log.length} events; play on from event 1 to ${log.length}, not ${log.length + 1}`,
    });
    expect(await refusalOf(host.forkTable(tableId, { at: 0 }))).toEqual({
      kind: 'malformed',
      message: 'at must be a whole number from 1 (the event to play on from), not 0',
    });
    expect(await refusalOf(host.forkTable(tableId, { at: log.length }))).toEqual({
      kind: 'notNow',
      message: `the game of table ${tableId} is already over right after event ${log.length}; play on from an earlier event`,
    });
    expect(await refusalOf(host.forkTable(tableId, { at: 8, taker: { seat: 4, name: 'Ada', holder: 'h' } }))).toEqual({
      kind: 'malformed',
      message: 'seat must be from 0 to 3 at a table of Seven Suitors, not 4',
    });
    expect((await refusalOf(host.forkTable(tableId, { at: 8, taker: { seat: 1, name: 'Ada', holder: 'not a hash' } }))).kind).toBe(
      'malformed',
    );
    expect((await refusalOf(host.forkTable('t-nope', { at: 1 }))).kind).toBe('unknownTable');
    expect((await host.listTables()).length).toBe(tables);
  });
});
