import { afterEach, describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../machines/games/fingerprint.js';
import { CURRENT_RULES, machineFor } from '../../machines/games/index.js';
import { openLocalStorage } from '../storage/storage.js';
import type { EventStore } from '../eventstore/eventStore.js';
import { TableHost } from './tableHost.js';
import { createRng } from '../../machines/cards/shuffle.js';
import { nextBotMove } from '../../drivers/botTurns.js';
import { EVENT_SCHEMA, schemaOf } from './upcasters.js';
import { tableCreatedOf } from './tableLog.js';

const BOTS = Array.from({ length: 4 }, (_, seat) => ({ name: `Bot ${seat}`, bot: true }));
let store: EventStore;
let hosts: TableHost[] = [];
function newHost(): TableHost {
  const host = new TableHost({ store, snapshotEvery: 5 });
  hosts.push(host);
  return host;
}
afterEach(async () => {
  for (const host of hosts) await host.close();
  hosts = [];
});

describe('versions in the log', () => {
  it('records the rules version and machine fingerprint a table is created with, and the schema of every event', async () => {
    store = openLocalStorage({ kind: 'memory' }).store;
    const host = newHost();
    const { tableId } = await host.createTable({ game: 'sevenSuitors', players: BOTS, seed: 'v' });
    const log = await host.events(tableId);
    const created = tableCreatedOf(log[0], tableId);
    expect(created.rules).toBe(CURRENT_RULES);
    expect(created.fingerprint).toBe(fingerprintOf(machineFor('sevenSuitors'), 'sevenSuitors'));
    expect(log.length).toBeGreaterThan(1);
    for (const event of log) expect(schemaOf(event.data)).toBe(EVENT_SCHEMA);
  });
});

describe('snapshots that cannot lie', () => {
  /** A table some events in, with a snapshot saved, and that snapshot as the store keeps it. */
  async function tableWithSnapshot() {
    store = openLocalStorage({ kind: 'memory' }).store;
    const writer = newHost();
    const { tableId } = await writer.createTable({ game: 'sevenSuitors', options: { end: 'hands:1' }, players: BOTS, seed: 'snap' });
    const rng = createRng('snap');
    for (let moves = 0; moves < 6; moves++) await writer.submit(tableId, nextBotMove((await writer.snapshot(tableId)).snapshot, rng)!);
    await writer.passivate(tableId);
    const saved = await store.loadSnapshot(tableId);
    expect(saved?.version).toBe(await store.version(tableId));
    return { tableId, saved: saved!, truth: (await newHost().snapshot(tableId)).snapshot };
  }

  /** The saved snapshot with a lie in it: seat 0 has 99 points. */
  function lyingAbout(saved: { snapshot: unknown }, changes: Record<string, unknown>) {
    const snapshot = saved.snapshot as { persisted: { context: object } };
    return {
      ...snapshot,
      persisted: { ...snapshot.persisted, context: { ...snapshot.persisted.context, scores: [99, 0, 0, 0] } },
      ...changes,
    };
  }

  it('is believed when the machine that wrote it is the one resuming it', async () => {
    const { tableId, saved } = await tableWithSnapshot();
    await store.saveSnapshot(tableId, { version: saved.version, snapshot: lyingAbout(saved, {}) });
    expect((await newHost().snapshot(tableId)).snapshot.context.scores).toEqual([99, 0, 0, 0]);
  });

  it('from another machine, is ignored: the table is rebuilt from its log and the snapshot written again', async () => {
    const { tableId, saved, truth } = await tableWithSnapshot();
    await store.saveSnapshot(tableId, { version: saved.version, snapshot: lyingAbout(saved, { fingerprint: 'f'.repeat(64) }) });
    const rebuilt = (await newHost().snapshot(tableId)).snapshot;
    expect(rebuilt.context).toEqual(truth.context);
    const rewritten = await store.loadSnapshot(tableId);
    expect(rewritten?.version).toBe(saved.version);
    expect(rewritten?.snapshot).toEqual(saved.snapshot);
  });

  it('from before fingerprints, is ignored and rewritten the same way', async () => {
    const { tableId, saved, truth } = await tableWithSnapshot();
    const { created, persisted, lastEventAt } = lyingAbout(saved, {}) as unknown as {
      created: Record<string, unknown>;
      persisted: unknown;
      lastEventAt: string;
    };
    const { rules: _rules, fingerprint: _fingerprint, schema: _schema, ...createdBefore } = created;
    await store.saveSnapshot(tableId, { version: saved.version, snapshot: { created: createdBefore, persisted, lastEventAt } });
    expect((await newHost().snapshot(tableId)).snapshot.context).toEqual(truth.context);
    expect((await store.loadSnapshot(tableId))?.snapshot).toEqual(saved.snapshot);
  });
});
