import { describe, expect, it } from 'vitest';
import { createRng } from '../../machines/cards/shuffle.js';
import { openLocalStorage } from '../storage/storage.js';
import type { EventStore } from '../eventstore/eventStore.js';
import { playBotTurns } from '../../drivers/botTurns.js';
import { replayLog } from './replay.js';
import { ReplayCheckpoints } from './replayCheckpoints.js';
import { TableHost } from './tableHost.js';
import { isTableRefusal } from './errors.js';

const BOTS = (count: number) => Array.from({ length: count }, (_, seat) => ({ name: `Bot ${seat}`, bot: true }));

/** A store that notes where each read starts: how much of a log a replay folds. */
function countingReads(store: EventStore): { store: EventStore; readsFrom: number[] } {
  const readsFrom: number[] = [];
  return {
    readsFrom,
    store: new Proxy(store, {
      get(target, key, receiver) {
        if (key !== 'read') return Reflect.get(target, key, receiver);
        return (tableId: string, after = 0) => {
          readsFrom.push(after);
          return target.read(tableId, after);
        };
      },
    }),
  };
}

describe('replays from checkpoints', () => {
  it('give the same table as folding the whole log, at every event, in any order, and fold at most `every` events once laid', async () => {
    const memory = openLocalStorage({ kind: 'memory' }).store;
    const host = new TableHost({ store: memory });
    const { tableId } = await host.createTable({ game: 'traitorOfLove', options: {}, players: BOTS(6), seed: 'checkpoints' });
    await playBotTurns(host, tableId, createRng('checkpoints'));
    const log = await memory.read(tableId);
    expect(log.length).toBeGreaterThan(250);

    const { store, readsFrom } = countingReads(memory);
    const every = 25;
    const replays = new ReplayCheckpoints(store, { every });
    const rng = createRng('order');
    const order = log.map((event) => event.seq).sort(() => rng.next() - 0.5);
    for (const at of order) {
      const replayed = await replays.replayAt(tableId, at);
      const folded = replayLog(tableId, log, at);
      expect(replayed.version).toBe(at);
      expect(replayed.snapshot.context).toEqual(folded.snapshot.context);
      expect(replayed.snapshot.value).toEqual(folded.snapshot.value);
    }
    // Once the checkpoints are laid (replaying the last event laid them all), each replay starts at most `every` events back.
    readsFrom.length = 0;
    for (const at of [log.length, Math.floor(log.length / 2), 3, every * 4 + 1]) await replays.replayAt(tableId, at);
    expect(readsFrom).toEqual([
      log.length - (log.length % every),
      Math.floor(log.length / 2) - (Math.floor(log.length / 2) % every),
      0,
      every * 4,
    ]);
  });

  it('lets concurrent replays of a table wait for the first, which lays the checkpoints they start from', async () => {
    const memory = openLocalStorage({ kind: 'memory' }).store;
    const host = new TableHost({ store: memory });
    const { tableId } = await host.createTable({ game: 'sevenSuitors', options: { end: 'hands:3' }, players: BOTS(4), seed: 'together' });
    await playBotTurns(host, tableId, createRng('together'));
    const { store, readsFrom } = countingReads(memory);
    const replays = new ReplayCheckpoints(store, { every: 20 });
    const at = (await memory.version(tableId)) - 1;
    await Promise.all(Array.from({ length: 10 }, () => replays.replayAt(tableId, at)));
    expect(readsFrom.filter((from) => from === 0)).toHaveLength(1);
  });

  it('says a table is unknown when it has no log', async () => {
    const replays = new ReplayCheckpoints(openLocalStorage({ kind: 'memory' }).store);
    const refusal = await replays.replayAt('t-nothing', 3).catch((error: unknown) => error);
    expect(isTableRefusal(refusal) && refusal.kind).toBe('unknownTable');
  });
});
