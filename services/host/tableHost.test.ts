import { describe, expect, it, vi } from 'vitest';
import { createRng } from '../../machines/cards/shuffle.js';
import { verifyRecord } from '../../machines/record/verify.js';
import { awaitedActions } from '../../machines/table/refusal.js';
import { phaseOf } from '../../machines/table/snapshot.js';
import { randomMove } from '../../machines/bots/randomBot.js';
import { shuffleDeal } from '../../machines/fragments/dealing.js';
import { openLocalStorage } from '../storage/storage.js';
import { isVersionConflict, type EventStore } from '../eventstore/eventStore.js';
import { nextBotMove, playBotTurns } from '../../drivers/botTurns.js';
import { TableHost } from './tableHost.js';
import { NotTheOwner } from './autopilot.js';
import { HELD_BY_A_BOT } from './tenure.js';
import { MAX_IMPORT_HANDS } from './recordImport/prepareImport.js';
import { MAX_PENDING_IMPORTS } from './recordImport/recordImports.js';
import { isTableRefusal } from './errors.js';

const BOTS = (count: number) => Array.from({ length: count }, (_, seat) => ({ name: `Bot ${seat}`, bot: true }));

function newHost(store: EventStore = openLocalStorage({ kind: 'memory' }).store, snapshotEvery = 100) {
  return { store, host: new TableHost({ store, snapshotEvery }) };
}

async function refusalOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isTableRefusal(error)) return { kind: error.kind, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('the table host', () => {
  it('deals as soon as every seat is taken, and plays a whole bot game into a verified record', async () => {
    const { host, store } = newHost();
    const { tableId, version } = await host.createTable({ game: 'sevenSuitors', players: BOTS(4), seed: 'whole-game' });
    expect(version).toBe(6); // created, four seats, the first deal
    expect(phaseOf((await host.snapshot(tableId)).snapshot)).toBe('passing');
    await playBotTurns(host, tableId, createRng('whole-game'));
    const { snapshot } = await host.snapshot(tableId);
    expect(phaseOf(snapshot)).toBe('gameOver');
    const log = await store.read(tableId);
    expect(log.map((event) => event.seq)).toEqual(log.map((_, i) => i + 1));
    const record = await host.exportRecord(tableId);
    expect(record.result.finished).toBe(true);
    expect(verifyRecord(JSON.parse(JSON.stringify(record))).problems).toEqual([]);
    const [summary] = await host.listTables();
    expect(summary).toMatchObject({ tableId, version: log.length, status: { game: 'sevenSuitors', phase: 'gameOver', finished: true } });
  });

  it('runs concurrent commands for one table one at a time: no gap, no duplicate', async () => {
    const { host, store } = newHost();
    const { tableId } = await host.createTable({ game: 'traitorOfLove', players: BOTS(6), seed: 'concurrent' });
    const { snapshot } = await host.snapshot(tableId);
    const rng = createRng('concurrent');
    const passes = awaitedActions(snapshot).map(({ seat, action }) => randomMove(snapshot, seat, action, rng));
    // Every pass twice, all at once: the queue takes the six first, so passing is over for the repeats.
    const outcomes = await Promise.allSettled([...passes, ...passes].map((pass) => host.submit(tableId, pass)));
    const accepted = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    expect(accepted).toHaveLength(6);
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
    expect(refused).toHaveLength(6);
    for (const error of refused) expect(error.message).toMatch(/^no passing now: passing is over; it is seat \d's turn to play$/);
    const log = await store.read(tableId);
    expect(log.map((event) => event.seq)).toEqual(log.map((_, i) => i + 1));
    expect(log.filter((event) => event.type === 'cards.passed')).toHaveLength(6);
  });

  it('refuses bad commands with a kind and a precise message, and leaves the log untouched', async () => {
    const { host, store } = newHost();
    const { tableId } = await host.createTable({ game: 'sevenSuitors', players: BOTS(4), seed: 'refusals' });
    const before = await store.read(tableId);
    const { snapshot } = await host.snapshot(tableId);
    const held = snapshot.context.hand!.holdings;
    expect(await refusalOf(host.submit('no-such-table', { type: 'card.played', seat: 0, card: '1-1' }))).toEqual({
      kind: 'unknownTable',
      message: 'there is no table "no-such-table"',
    });
    expect(await refusalOf(host.submit(tableId, { type: 'card.played', seat: 0, card: '9-9' }))).toMatchObject({
      kind: 'malformed',
      message: '"9-9" is not a card: suits are 1 to 7',
    });
    expect(await refusalOf(host.submit(tableId, { type: 'card.played', seat: 7, card: '1-1' }))).toMatchObject({ kind: 'malformed' });
    expect(await refusalOf(host.submit(tableId, { type: 'launch' }))).toMatchObject({ kind: 'malformed' });
    expect(await refusalOf(host.submit(tableId, { type: 'card.played', seat: 0, card: held[0][0] }))).toMatchObject({
      kind: 'notNow',
      message: expect.stringContaining('no card can be played now: the hand is in passing'),
    });
    const notHeld = held[1][0];
    const badPass = { type: 'cards.passed', seat: 0, passes: [1, 2, 3].map((to) => ({ to, card: notHeld })) };
    expect(await refusalOf(host.submit(tableId, badPass))).toEqual({ kind: 'illegal', message: `${notHeld} is not in seat 0's hand` });
    expect(await refusalOf(host.submit(tableId, { type: 'hand.dealt', deal: held, roles: null }))).toMatchObject({ kind: 'malformed' });
    expect(await store.read(tableId)).toEqual(before);
    expect((await host.snapshot(tableId)).snapshot).toBe(snapshot);
  });

  it('refuses to create a table with unknown or contradictory options', async () => {
    const { host, store } = newHost();
    expect(await refusalOf(host.createTable({ game: 'antiCupid', options: { specials: 'off' } }))).toMatchObject({
      kind: 'malformed',
      message: expect.stringContaining('specials "off" is impossible in antiCupid'),
    });
    expect(await refusalOf(host.createTable({ game: 'chess' }))).toMatchObject({ kind: 'malformed' });
    expect(await refusalOf(host.createTable({ game: 'sevenSuitors', options: { trumps: 'none' } }))).toMatchObject({
      message: expect.stringContaining('unknown option "trumps"'),
    });
    expect(await store.listTables()).toEqual([]);
  });

  it.each([
    ['from the whole log', 10_000],
    ['from a snapshot and the events after it', 7],
  ])('passivates and rehydrates a table to the identical state (%s)', async (_, snapshotEvery) => {
    const { host, store } = newHost(openLocalStorage({ kind: 'memory' }).store, snapshotEvery);
    const { tableId } = await host.createTable({ game: 'antiCupid', options: { passing: 'oneEach' }, players: BOTS(5), seed: 'passivate' });
    const rng = createRng('passivate');
    for (let i = 0; i < 5; i++) {
      for (let move = 0; move < 17; move++) {
        const { snapshot } = await host.snapshot(tableId);
        await host.submit(tableId, nextBotMove(snapshot, rng)!);
      }
      const live = (await host.snapshot(tableId)).snapshot;
      await host.passivate(tableId);
      expect(host.residentTables).toBe(0);
      const rehydrated = await host.snapshot(tableId);
      expect(rehydrated.version).toBe(await store.version(tableId));
      expect(rehydrated.snapshot.value).toEqual(live.value);
      expect(rehydrated.snapshot.context).toEqual(live.context);
    }
  });

  it('lets a finished game leave memory sooner than a table in play, and reads it back whole', async () => {
    const store = openLocalStorage({ kind: 'memory' }).store;
    const host = new TableHost({ store, finishedIdleMs: 0 });
    const finished = (await host.createTable({ game: 'sevenSuitors', options: { end: 'hands:1' }, players: BOTS(4), seed: 'over' }))
      .tableId;
    await playBotTurns(host, finished, createRng('over'));
    const inPlay = (await host.createTable({ game: 'sevenSuitors', players: BOTS(4), seed: 'in play' })).tableId;
    const over = (await host.snapshot(finished)).snapshot;
    expect(over.context.outcome?.finished).toBe(true);
    expect(await host.passivateIdle(60_000)).toBe(1);
    expect(host.residentTables).toBe(1);
    expect((await host.snapshot(finished)).snapshot.context).toEqual(over.context);
    expect(await host.passivateIdle(60_000)).toBe(1); // read again, and gone again: in play it stays
    expect(host.residentTables).toBe(1);
    expect(phaseOf((await host.snapshot(inPlay)).snapshot)).toBe('passing');
  });

  it('answers a command without waiting for its snapshot, and lands the snapshots in the order they were taken', async () => {
    const inner = openLocalStorage({ kind: 'memory' }).store;
    let release = () => {};
    const firstWriteHeld = new Promise<void>((resolve) => (release = resolve));
    const written: number[] = [];
    // The first snapshot write hangs until released, as a slow KV put would.
    const store: EventStore = Object.create(inner);
    store.saveSnapshot = async (tableId, snapshot) => {
      if (written.push(snapshot.version) === 1) await firstWriteHeld;
      await inner.saveSnapshot(tableId, snapshot);
    };
    const { host } = newHost(store, 3);
    const { tableId } = await host.createTable({ game: 'sevenSuitors', players: BOTS(4), seed: 'snapshots' });
    const rng = createRng('snapshots');
    for (let move = 0; move < 12; move++) await host.submit(tableId, nextBotMove((await host.snapshot(tableId)).snapshot, rng)!);
    expect(written.length).toBe(1); // the later writes wait behind the first, and the commands did not
    release();
    const live = (await host.snapshot(tableId)).snapshot;
    await host.passivate(tableId);
    expect(written.length).toBeGreaterThan(3);
    expect(written).toEqual([...written].sort((a, b) => a - b));
    expect((await inner.loadSnapshot(tableId))?.version).toBe(written.at(-1));
    expect((await host.snapshot(tableId)).snapshot.context).toEqual(live.context);
  });

  it('replays the table at every event of a full game exactly as it was live', async () => {
    const { host } = newHost();
    const { tableId, version } = await host.createTable({ game: 'traitorOfLove', players: BOTS(6), seed: 'replay' });
    const live = new Map<number, unknown>([[version, (await host.snapshot(tableId)).snapshot.context]]);
    await playBotTurns(host, tableId, createRng('replay'), async (accepted) => {
      live.set(accepted.version, (await host.snapshot(tableId)).snapshot.context);
    });
    await new Promise((resolve) => setImmediate(resolve));
    for (const [at, context] of live) {
      expect((await host.replayAt(tableId, at)).snapshot.context).toEqual(context);
    }
    expect(live.size).toBeGreaterThan(200);
  });

  it('imports an exported record into a new table that verifies the same', async () => {
    const { host } = newHost();
    const { tableId } = await host.createTable({ game: 'antiCupid', options: { specials: 'powers' }, players: BOTS(5), seed: 'export' });
    await playBotTurns(host, tableId, createRng('export'));
    const record = await host.exportRecord(tableId);
    const imported = await host.importRecord(JSON.parse(JSON.stringify(record)));
    expect(await host.exportRecord(imported.tableId)).toEqual(record);
    const broken = JSON.parse(JSON.stringify(record));
    broken.hands[0].result.handScores[0] += 1;
    expect(await refusalOf(host.importRecord(broken))).toMatchObject({
      kind: 'invalidRecord',
      message: expect.stringContaining('hands[0].result.handScores'),
    });
  });

  it('refuses to import an unfinished game, a record past the hands cap, and more records at once than the import worker takes', async () => {
    const { host, store } = newHost();
    const { tableId } = await host.createTable({ game: 'sevenSuitors', options: { end: 'hands:2' }, players: BOTS(4), seed: 'caps' });
    const unfinished = JSON.parse(JSON.stringify(await host.exportRecord(tableId)));
    expect(await refusalOf(host.importRecord(unfinished))).toEqual({
      kind: 'invalidRecord',
      message: 'the record is of an unfinished game: only finished games can be imported (nobody could take its seats)',
    });
    await playBotTurns(host, tableId, createRng('caps'));
    const record = JSON.parse(JSON.stringify(await host.exportRecord(tableId)));
    const long = { ...record, hands: Array.from({ length: MAX_IMPORT_HANDS + 1 }, () => record.hands[0]) };
    expect(await refusalOf(host.importRecord(long))).toEqual({
      kind: 'invalidRecord',
      message: `the record holds ${MAX_IMPORT_HANDS + 1} hands; at most ${MAX_IMPORT_HANDS} can be imported`,
    });
    const tablesBefore = (await store.listTables()).length;
    const outcomes = await Promise.allSettled(Array.from({ length: MAX_PENDING_IMPORTS + 2 }, () => host.importRecord(record)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(MAX_PENDING_IMPORTS);
    for (const refused of outcomes.slice(MAX_PENDING_IMPORTS)) {
      expect(await refusalOf(Promise.reject((refused as PromiseRejectedResult).reason))).toEqual({
        kind: 'busy',
        message: `${MAX_PENDING_IMPORTS} record imports are under way already; try again shortly`,
      });
    }
    expect((await store.listTables()).length).toBe(tablesBefore + MAX_PENDING_IMPORTS);

    // A document nested too deeply to be sent to the worker is refused, and takes no import's place.
    let nested: unknown = [];
    for (let depth = 0; depth < 20_000; depth++) nested = [nested];
    for (let i = 0; i <= MAX_PENDING_IMPORTS; i++) {
      expect(await refusalOf(host.importRecord({ ...record, junk: nested }))).toEqual({
        kind: 'invalidRecord',
        message: 'the record cannot be read: it is nested too deeply to be a game record',
      });
    }
    await host.importRecord(record);
    // A format 1 record is read without proofs, whatever fairness it carries.
    const old = {
      ...record,
      format: 'seven-suitors-record/1',
      hands: record.hands.map((hand: object) => ({ ...hand, fairness: { scheme: 'bogus', commitment: 'x', seed: 'y' } })),
    };
    await host.importRecord(old);
    await host.close();
  });

  it('a host with a stale table gets a VersionConflict, appends nothing, and recovers from the log', async () => {
    const store = openLocalStorage({ kind: 'memory' }).store;
    const first = new TableHost({ store });
    const second = new TableHost({ store });
    const { tableId } = await first.createTable({ game: 'sevenSuitors', players: BOTS(4), seed: 'stale' });
    const stale = (await second.snapshot(tableId)).snapshot;
    const rng = createRng('stale');
    const move = nextBotMove(stale, rng)!;
    await first.submit(tableId, move);
    const before = await store.read(tableId);
    const other = nextBotMove(stale, rng)!;
    const error = await second.submit(tableId, other).catch((caught: unknown) => caught);
    expect(isVersionConflict(error)).toBe(true);
    expect(await store.read(tableId)).toEqual(before);
    const fresh = (await second.snapshot(tableId)).snapshot;
    expect(fresh.context).toEqual((await first.snapshot(tableId)).snapshot.context);
  });

  it('lets an external dealer deal when configured so, and only then', async () => {
    const store = openLocalStorage({ kind: 'memory' }).store;
    const host = new TableHost({ store, dealing: 'external' });
    const { tableId, version } = await host.createTable({ game: 'sevenSuitors', players: BOTS(4) });
    expect(version).toBe(5);
    const { snapshot } = await host.snapshot(tableId);
    expect(phaseOf(snapshot)).toBe('dealing');
    const deal = shuffleDeal(snapshot.context, createRng('boards'));
    expect(await refusalOf(host.submit(tableId, deal))).toMatchObject({ kind: 'malformed' });
    expect(await refusalOf(host.deal(tableId, { ...deal, deal: deal.deal.slice(1) }))).toMatchObject({
      kind: 'illegal',
      message: 'a deal has one hand for each of the 4 seats',
    });
    await host.deal(tableId, deal);
    expect(phaseOf((await host.snapshot(tableId)).snapshot)).toBe('passing');
    const shuffling = newHost().host;
    const other = await shuffling.createTable({ game: 'sevenSuitors', players: BOTS(4) });
    expect(await refusalOf(shuffling.deal(other.tableId, deal))).toMatchObject({ kind: 'malformed' });
  });

  it('acknowledges a durable command even when its snapshot cannot be saved', async () => {
    const store = openLocalStorage({ kind: 'memory' }).store;
    const failures: string[] = [];
    const failingSnapshots: EventStore = { ...store, saveSnapshot: async () => Promise.reject(new Error('snapshot too large')) };
    const host = new TableHost({
      store: failingSnapshots,
      snapshotEvery: 1,
      onSnapshotError: (error, id) => failures.push(`${id}: ${(error as Error).message}`),
    });
    const { tableId } = await host.createTable({ game: 'sevenSuitors', players: BOTS(4), seed: 'snapshots' });
    const { snapshot } = await host.snapshot(tableId);
    const accepted = await host.submit(tableId, nextBotMove(snapshot, createRng('snapshots'))!);
    expect(accepted.version).toBe(await store.version(tableId));
    // Reported once each write has failed, after the answers: they do not wait for snapshots.
    await vi.waitFor(() => expect(failures).toEqual([`${tableId}: snapshot too large`, `${tableId}: snapshot too large`]));
  });
});

describe('seat tenure: a token acts only while its seat is held with it', () => {
  const ALICE = 'a'.repeat(64);
  const BOB = 'b'.repeat(64);

  it('refuses, in the table’s queue, a command from a token whose seat changed hands while it waited, and changes nothing', async () => {
    const { host, store } = newHost();
    const players = [null, ...BOTS(4).slice(1)];
    const { tableId } = await host.createTable({ game: 'sevenSuitors', players });
    await host.submit(tableId, { type: 'seat.joined', seat: 0, player: { name: 'Alice', bot: false }, holder: ALICE });
    const { snapshot } = await host.snapshot(tableId);
    const [alicesPass] = awaitedActions(snapshot)
      .filter(({ seat }) => seat === 0)
      .map(({ seat, action }) => randomMove(snapshot, seat, action, createRng('tenure')));
    // Sent in this order, as a busy gateway would: her leaving, Bob joining, then her pass, resolved before she left.
    const [left, joined, pass] = await Promise.allSettled([
      host.submit(tableId, { type: 'seat.left', seat: 0 }, { holder: ALICE }),
      host.submit(tableId, { type: 'seat.joined', seat: 0, player: { name: 'Bob', bot: false }, holder: BOB }),
      host.submit(tableId, alicesPass, { holder: ALICE }),
    ]);
    expect([left.status, joined.status]).toEqual(['fulfilled', 'fulfilled']);
    expect(pass.status).toBe('rejected');
    expect(await refusalOf(Promise.reject((pass as PromiseRejectedResult).reason))).toEqual({
      kind: 'notHolder',
      message: `seat 0 at table ${tableId} is no longer held by this token's player`,
    });
    const log = await store.read(tableId);
    expect(log.at(-1)).toMatchObject({ type: 'seat.joined', data: { seat: 0, holder: BOB } });
    // Bob's token acts; Alice's stays refused, whatever it sends, and so does any token for a bot's seat.
    await host.submit(tableId, alicesPass, { holder: BOB });
    expect(await refusalOf(host.submit(tableId, { type: 'seat.left', seat: 0 }, { holder: ALICE }))).toMatchObject({ kind: 'notHolder' });
    expect(await refusalOf(host.submit(tableId, { type: 'card.played', seat: 1, card: '1-1' }, { holder: BOB }))).toMatchObject({
      kind: 'notHolder',
    });
  });

  it('refuses a bot’s move for a seat a person took between the bot’s look and its move', async () => {
    const { host } = newHost();
    const { tableId } = await host.createTable({ game: 'sevenSuitors', players: BOTS(4) });
    const { snapshot } = await host.snapshot(tableId);
    const botsPass = randomMove(snapshot, 0, 'pass', createRng('bot-look'));
    await host.submit(tableId, { type: 'seat.left', seat: 0 });
    await host.submit(tableId, { type: 'seat.joined', seat: 0, player: { name: 'Dee', bot: false }, holder: ALICE });
    expect(await refusalOf(host.submit(tableId, botsPass, { holder: HELD_BY_A_BOT }))).toMatchObject({ kind: 'notHolder' });
    await host.submit(tableId, randomMove(snapshot, 1, 'pass', createRng('bot-look')), { holder: HELD_BY_A_BOT });
  });

  it('refuses a joining seat whose tenure is not a token hash, or a bot with one', async () => {
    const { host } = newHost();
    const { tableId } = await host.createTable({ game: 'antiCupid' });
    expect(
      await refusalOf(host.submit(tableId, { type: 'seat.joined', seat: 0, player: { name: 'Eve', bot: false }, holder: 'my-token' })),
    ).toEqual({
      kind: 'illegal',
      message: 'holder must be the SHA-256 of the seat token, in 64 lowercase hex characters',
    });
    expect(
      await refusalOf(host.submit(tableId, { type: 'seat.joined', seat: 0, player: { name: 'Bot', bot: true }, holder: ALICE })),
    ).toMatchObject({
      message: 'a bot takes a seat without a token',
    });
  });
});

describe('the autopilot of an owner that may not act', () => {
  it('neither moves nor loads a table it may not act for', async () => {
    const store = openLocalStorage({ kind: 'memory' }).store;
    const lost: string[] = [];
    const host = new TableHost({ store, autopilot: { botDelayMs: 20, mayAct: () => false, onMoveLost: (tableId) => lost.push(tableId) } });
    const { tableId, version } = await host.createTable({ game: 'sevenSuitors', players: BOTS(4), seed: 'not mine' });
    // Dropped from memory with its bot still armed, as a worker's table is when its lease lapses.
    await host.passivate(tableId);
    await vi.waitFor(() => expect(lost).toContain(tableId));
    expect(host.residentTables).toBe(0);
    expect(await store.version(tableId)).toBe(version);
    await host.close();
  });

  it('refuses a bot move or a timeout whose turn in the queue comes after the owner lost the table', async () => {
    const inner = openLocalStorage({ kind: 'memory' }).store;
    let releaseAppend = () => {};
    let holdNextAppend = false;
    let appendHeld = () => {};
    const held = new Promise<void>((resolve) => (appendHeld = resolve));
    const store: EventStore = Object.create(inner);
    store.append = async (...args) => {
      if (holdNextAppend) {
        holdNextAppend = false;
        appendHeld();
        await new Promise<void>((resolve) => (releaseAppend = resolve));
      }
      return inner.append(...args);
    };
    let mayAct = true;
    // Bots slow enough never to move by themselves here: the test makes their moves.
    const host = new TableHost({ store, autopilot: { botDelayMs: 60_000, mayAct: () => mayAct } });
    const { tableId } = await host.createTable({ game: 'sevenSuitors', players: BOTS(4), seed: 'lost while queued' });
    const rng = createRng('lost while queued');
    const { snapshot, version } = await host.snapshot(tableId);
    const [first, second] = awaitedActions(snapshot).map(({ seat, action }) => randomMove(snapshot, seat, action, rng));
    holdNextAppend = true;
    const made = host.botMove(tableId, first);
    const waiting = host.botMove(tableId, second);
    const timedOut = host.timeOut(tableId, version + 1, second);
    await held;
    mayAct = false; // the lease goes while the append under way is held up
    releaseAppend();
    await made;
    await expect(waiting).rejects.toBeInstanceOf(NotTheOwner);
    await expect(timedOut).rejects.toBeInstanceOf(NotTheOwner);
    expect(await inner.version(tableId)).toBe(version + 1);
    await host.close();
  });
});
