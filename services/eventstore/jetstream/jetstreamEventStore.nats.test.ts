/**
 * The JetStream event store against real nats-server processes: the shared
 * contract on one server, what only JetStream does (one message per append,
 * several processes on one stream, listing tables from their last messages),
 * and a 3-node cluster losing its stream leader. Without nats-server these tests
 * fail (startLocalNats says what to install); they are never skipped.
 */
import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startLocalNats, type LocalNats } from '../../../drivers/localNats.js';
import { measureRawPublishRate } from '../../../drivers/publishRate.js';
import { AT, describeEventStoreContract, played } from '../eventStore.contract.js';
import { isTableRetired, isVersionConflict, type EventStore, type StoredEvent, type TableStatus } from '../eventStore.js';
import {
  HEADER_APPEND,
  HEADER_PREV,
  HEADER_SEQ,
  HEADER_VERSION,
  jetstreamLayout,
  openJetStreamEventStore,
  tableIdOfToken,
  tableToken,
  type JetStreamEventStoreOptions,
  type JetStreamLayout,
} from './index.js';

let nats: LocalNats;
let admin: NatsConnection;
let jsm: JetStreamManager;
let fresh = 0;

beforeAll(async () => {
  nats = await startLocalNats(1);
  admin = await nats.connect('admin');
  jsm = await jetstreamManager(admin);
});

afterAll(async () => {
  await admin?.close();
  await nats?.stop();
});

/** Names no other test uses: each store gets its own stream, subjects and buckets. */
function freshNames(): Required<Pick<JetStreamEventStoreOptions, 'streamName' | 'prefix'>> {
  fresh++;
  return { streamName: `T${fresh}`, prefix: `t${fresh}.tables` };
}

async function deleteAll(layout: JetStreamLayout): Promise<void> {
  for (const stream of [layout.streamName, `KV_${layout.snapshotsBucket}`]) {
    await jsm.streams.delete(stream).catch(() => undefined);
  }
}

let contractLayout: JetStreamLayout | undefined;
describeEventStoreContract(
  'jetstream',
  async () => {
    const names = freshNames();
    contractLayout = jetstreamLayout(names);
    return openJetStreamEventStore({ connectOptions: nats.connectOptions('admin'), ...names });
  },
  async () => {
    if (contractLayout !== undefined) await deleteAll(contractLayout);
  },
);

/** Opens `count` stores (as separate processes would) on one fresh stream, runs `body`, closes and deletes. */
async function withStores(count: number, body: (stores: EventStore[], layout: JetStreamLayout) => Promise<void>): Promise<void> {
  const names = freshNames();
  const layout = jetstreamLayout(names);
  const stores: EventStore[] = [];
  try {
    for (let i = 0; i < count; i++) stores.push(await openJetStreamEventStore({ connectOptions: nats.connectOptions('admin'), ...names }));
    await body(stores, layout);
  } finally {
    await Promise.all(stores.map((store) => store.close()));
    await deleteAll(layout);
  }
}

function status(phase: string): TableStatus {
  return { game: 'antiCupid', phase };
}

describe('jetstream event store', () => {
  it('retires a table by a tombstone: its subject keeps that message alone, and every process finds it retired', async () => {
    await withStores(2, async ([first, second], layout) => {
      for (let version = 0; version < 5; version++) await first.append('t1', [played(`${version}`)], version, status('over'));
      await first.append('t2', [played('x')], 0);
      await first.saveSnapshot('t1', { version: 5, snapshot: { phase: 'over' } });
      expect(await second.version('t1')).toBe(5); // the second process knows the table's head before it is retired

      await first.retire('t1', { expectedVersion: 5, record: { hands: [] }, at: AT });

      const info = await jsm.streams.info(layout.streamName, { subjects_filter: layout.filter });
      expect(info.state.subjects).toEqual({ [`${layout.prefix}.t1.events`]: 1, [`${layout.prefix}.t2.events`]: 1 });
      const snapshotMessages = (await jsm.streams.info(`KV_${layout.snapshotsBucket}`)).state.messages;
      expect(snapshotMessages).toBeLessThanOrEqual(1); // the purge marker at most
      expect(isTableRetired(await second.append('t1', [played('late')], 5).catch((error: unknown) => error))).toBe(true);
      expect(isTableRetired(await second.append('t1', [played('anew')], 0).catch((error: unknown) => error))).toBe(true);
      expect(await second.retired('t1')).toMatchObject({ tableId: 't1', version: 5, status: status('over'), record: { hands: [] } });
      expect((await second.listTables()).map((table) => table.tableId)).toEqual(['t2']);
      expect(await second.loadSnapshot('t1')).toBeNull();
    });
  });

  it('refuses, before writing anything, to retire a table of a stream that denies purging (one made before retirement)', async () => {
    const names = freshNames();
    const layout = jetstreamLayout(names);
    await jsm.streams.add({ name: layout.streamName, subjects: [layout.filter], deny_delete: true, deny_purge: true, allow_direct: true });
    const store = await openJetStreamEventStore({ connectOptions: nats.connectOptions('admin'), ...names });
    try {
      await store.append('t1', [played('a')], 0);
      await expect(store.retire('t1', { expectedVersion: 1, record: {}, at: AT })).rejects.toThrow(
        `stream ${layout.streamName} denies purging (it was made before tables could be retired), so no table of it can be retired`,
      );
      expect((await jsm.streams.info(layout.streamName)).state.messages).toBe(1);
      expect(await store.version('t1')).toBe(1);
    } finally {
      await store.close();
      await deleteAll(layout);
    }
  });

  it('stores one message per append, numbered by headers, on the table subject', async () => {
    await withStores(1, async ([store], layout) => {
      await store.append('t1', [played('a')], 0, status('passing'));
      await store.append('t2', [played('x')], 0);
      await store.append('t1', [played('b'), played('c'), played('d')], 1);

      const info = await jsm.streams.info(layout.streamName, { subjects_filter: layout.filter });
      expect(info.state.messages).toBe(3);
      expect(info.state.subjects).toEqual({ [`${layout.prefix}.t1.events`]: 2, [`${layout.prefix}.t2.events`]: 1 });
      expect(info.config).toMatchObject({ deny_delete: true, deny_purge: false, num_replicas: 1 });

      const last = await jsm.streams.getMessage(layout.streamName, { last_by_subj: `${layout.prefix}.t1.events` });
      expect(last?.seq).toBe(3);
      const numbering = [HEADER_SEQ, HEADER_VERSION, HEADER_APPEND, HEADER_PREV].map((name) => last?.header.get(name));
      expect(numbering).toEqual(['2', '4', '2', '1']);
      expect(last?.header.get('Nats-Msg-Id')).toMatch(/^t1\/1\/1\//); // table / expected version / expected subject seq
      expect(last?.json()).toEqual({
        events: [played('b'), played('c'), played('d')],
        status: status('passing'), // carried forward: the append gave none
      });
      expect((await store.read('t1', 1)).map((event) => event.seq)).toEqual([2, 3, 4]);
      expect((await store.read('t1', 2)).map((event) => event.seq)).toEqual([3, 4]);
    });
  });

  it('reads long logs along the chain of appends, by direct gets or by walking back through the leader', async () => {
    await withStores(1, async ([writer], layout) => {
      const appends = 60;
      for (let version = 0; version < appends * 2; version += 2) {
        await writer.append('long', [played(`${version + 1}`), played(`${version + 2}`)], version);
        await writer.append('other', [played('noise')], version / 2);
      }
      const seqs = (from: number) => Array.from({ length: appends * 2 - from }, (_, index) => from + index + 1);
      const readers = [
        writer, // walks 24 messages back, then direct gets fetch the rest
        await openJetStreamEventStore({ connectOptions: nats.connectOptions('admin'), ...layout, walkLimit: 1_000 }), // walks all the way
        await openJetStreamEventStore({ connectOptions: nats.connectOptions('admin'), ...layout, walkLimit: 2 }), // walks two back, then reads by anchors
      ];
      try {
        for (const reader of readers) {
          for (const after of [0, 1, 2, 57, 118, 119, 120]) {
            const log = await reader.read('long', after);
            expect(log.map((event) => event.seq)).toEqual(seqs(after));
            expect(log.map((event) => (event.data as { card: string }).card)).toEqual(seqs(after).map(String));
          }
        }
      } finally {
        await Promise.all(readers.slice(1).map((reader) => reader.close()));
      }
    });
  });

  it('settles an append that got no answer before the table is read again, so a late copy of it cannot overtake the read', async () => {
    const names = freshNames();
    const layout = jetstreamLayout(names);
    const own = await nats.connect('admin');
    // The connection loses the append's publishes, as an election that outlasts the retries does; they are kept to
    // be delivered later, as a publish still on its way is.
    const held: { subject: string; payload: Uint8Array; options: Parameters<NatsConnection['publish']>[2] }[] = [];
    let losing = false;
    const losingConnection = new Proxy(own, {
      get(target, property) {
        if (property === 'publish') {
          return (subject: string, payload: Uint8Array, options: Parameters<NatsConnection['publish']>[2]) => {
            if (losing && subject.endsWith('.events')) held.push({ subject, payload, options });
            else target.publish(subject, payload, options);
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const store = await openJetStreamEventStore({ connection: losingConnection, ...names, requestTimeoutMs: 100, retryForMs: 300 });
    try {
      expect(await store.append('t1', [played('a')], 0)).toBe(1);
      losing = true;
      await expect(store.append('t1', [played('b')], 1)).rejects.toThrow();
      losing = false;
      expect(held.length).toBeGreaterThan(0);
      // Read again: the append in doubt is settled first (published again with its id, and stored now).
      expect((await store.read('t1')).map((event) => (event.data as { card: string }).card)).toEqual(['a', 'b']);
      // The lost publish arrives after all: the server knows its id, and stores nothing more.
      const late = held[0];
      own.publish(late.subject, late.payload, { headers: late.options?.headers });
      await own.flush();
      expect(await store.append('t1', [played('c')], 2)).toBe(3);
      expect((await store.read('t1')).map((event) => (event.data as { card: string }).card)).toEqual(['a', 'b', 'c']);
    } finally {
      await store.close();
      await own.close();
      await deleteAll(layout);
    }
  });

  it('lets several stores (processes) share one stream: the server refuses the stale writer', async () => {
    await withStores(2, async ([left, right]) => {
      expect(await left.append('t1', [played('a')], 0)).toBe(1);
      // right has never seen t1: it expects a new table, and the server says otherwise.
      const refused = await right.append('t1', [played('b')], 0).catch((error: unknown) => error);
      expect(isVersionConflict(refused)).toBe(true);
      expect(refused).toMatchObject({ tableId: 't1', expectedVersion: 0, actualVersion: 1 });

      expect(await right.append('t1', [played('b')], 1)).toBe(2);
      // left still believes t1 is at 1: its stale expectation is refused by the server, reported as the real version.
      const stale = await left.append('t1', [played('c')], 1).catch((error: unknown) => error);
      expect(stale).toMatchObject({ name: 'VersionConflict', tableId: 't1', expectedVersion: 1, actualVersion: 2 });
      // left catches up when the caller knows better than its cache.
      expect(await left.append('t1', [played('c')], 2)).toBe(3);

      for (const store of [left, right]) {
        expect((await store.read('t1')).map((event) => (event.data as { card: string }).card)).toEqual(['a', 'b', 'c']);
        expect(await store.version('t1')).toBe(3);
      }
    });
  });

  it('accepts exactly one of two processes racing many appends on one table, gapless', async () => {
    await withStores(2, async (stores) => {
      const target = 40;
      const accepted = [0, 0];
      await Promise.all(
        stores.map(async (store, writer) => {
          let version = 0;
          while (version < target) {
            try {
              version = await store.append('contested', [{ ...played(`w${writer}`), data: { writer, after: version } }], version);
              accepted[writer]++;
            } catch (error) {
              if (!isVersionConflict(error)) throw error;
              version = error.actualVersion ?? (await store.version('contested'));
            }
          }
        }),
      );
      expect(accepted[0] + accepted[1]).toBe(target);
      const log = await stores[0].read('contested');
      expect(log.map((event) => event.seq)).toEqual(Array.from({ length: target }, (_, index) => index + 1));
      for (const event of log) expect((event.data as { after: number }).after).toBe(event.seq - 1);
    });
  });

  it('tells subscribers of events appended by any process, in order per table, and only once stored', async () => {
    await withStores(1, async ([writer], layout) => {
      await writer.append('early', [played('before subscribing')], 0);
      const reader = await openJetStreamEventStore({
        connectOptions: nats.connectOptions('admin'),
        streamName: layout.streamName,
        prefix: layout.prefix,
      });
      try {
        const heard: string[] = [];
        const events: StoredEvent[] = [];
        reader.subscribe((tableId, event) => {
          heard.push(`${tableId}#${event.seq}`);
          events.push(event);
        });
        await writer.append('t1', [played('a'), played('b')], 0);
        await writer.append('t2', [played('c')], 0);
        await writer.append('t1', [played('stale')], 0).catch(() => undefined); // refused: never heard
        await reader.append('t1', [played('d')], 2);
        await vi.waitFor(() => expect(heard).toHaveLength(4));
        expect(heard).toEqual(['t1#1', 't1#2', 't2#1', 't1#3']);
        expect(events[3]).toEqual({ seq: 3, type: 'card.played', at: played('d').at, data: { seat: 0, card: 'd' } });
      } finally {
        await reader.close();
      }
    });
  });

  it('lists tables from their last messages', async () => {
    await withStores(1, async ([store]) => {
      await store.append('b', [played('a')], 0, status('passing'));
      await store.append('a', [played('a'), played('b')], 0);
      await store.append('b', [played('b')], 1);
      expect(await store.listTables()).toEqual([
        { tableId: 'a', version: 2, lastEventAt: AT, status: null },
        { tableId: 'b', version: 2, lastEventAt: AT, status: status('passing') },
      ]);
    });
  });

  it('keeps everything across close and reopen, and opening is idempotent, even when racing', async () => {
    const names = freshNames();
    const layout = jetstreamLayout(names);
    try {
      const [first, second] = await Promise.all(
        [0, 1].map(() => openJetStreamEventStore({ connectOptions: nats.connectOptions('admin'), ...names })),
      );
      await first.append('t1', [played('a'), played('b')], 0, status('passing'));
      await first.saveSnapshot('t1', { version: 2, snapshot: { phase: 'passing' } });
      expect(await second.version('t1')).toBe(2);
      await Promise.all([first.close(), second.close()]);

      const reopened = await openJetStreamEventStore({ connectOptions: nats.connectOptions('admin'), ...names });
      try {
        expect((await reopened.read('t1')).map((event) => event.seq)).toEqual([1, 2]);
        expect(await reopened.loadSnapshot('t1')).toEqual({ version: 2, snapshot: { phase: 'passing' } });
        expect(await reopened.listTables()).toEqual([{ tableId: 't1', version: 2, lastEventAt: AT, status: status('passing') }]);
        expect(await reopened.append('t1', [played('c')], 2)).toBe(3);
      } finally {
        await reopened.close();
      }
      await expect(reopened.read('t1')).rejects.toThrow(/closed/);
    } finally {
      await deleteAll(layout);
    }
  });

  it('refuses to open on a stream of that name capturing other subjects', async () => {
    const names = freshNames();
    await jsm.streams.add({ name: names.streamName, subjects: ['somebody.else.>'] });
    try {
      await expect(openJetStreamEventStore({ connectOptions: nats.connectOptions('admin'), ...names })).rejects.toThrow(
        /captures .*somebody/,
      );
    } finally {
      await jsm.streams.delete(names.streamName);
    }
  });

  it('keeps table ids that are not subject tokens apart', async () => {
    const ids = ['a.b', 'a b', 'a*', '>', '=x', 'é♥', 'a_b-C9'];
    expect(ids.map(tableToken).map(tableIdOfToken)).toEqual(ids);
    expect(tableToken('t-1a2b3c4d-5e6f')).toBe('t-1a2b3c4d-5e6f');
    await withStores(1, async ([store]) => {
      for (const [index, tableId] of ids.entries()) await store.append(tableId, [played(String(index))], 0);
      await store.saveSnapshot('a.b', { version: 1, snapshot: 'dot' });
      for (const [index, tableId] of ids.entries()) {
        expect((await store.read(tableId)).map((event) => (event.data as { card: string }).card)).toEqual([String(index)]);
      }
      expect(await store.loadSnapshot('a.b')).toEqual({ version: 1, snapshot: 'dot' });
      expect(await store.loadSnapshot('a b')).toBeNull();
      expect((await store.listTables()).map((table) => table.tableId)).toEqual([...ids].sort());
    });
  });

  it('refuses appends and snapshots larger than the server takes, before writing anything', async () => {
    await withStores(1, async ([store]) => {
      const big = 'x'.repeat(1024 * 1024);
      await expect(store.append('t1', [{ type: 'huge', at: played('a').at, data: big }], 0)).rejects.toThrow(/max_payload/);
      await store.append('t1', [played('a')], 0);
      await expect(store.saveSnapshot('t1', { version: 1, snapshot: big })).rejects.toThrow(/max_payload/);
      expect(await store.version('t1')).toBe(1);
      expect(await store.loadSnapshot('t1')).toBeNull();
    });
  });

  it('measures the raw publish rate, awaited one at a time and windowed', async () => {
    const stream = `RAW${++fresh}`;
    await jsm.streams.add({ name: stream, subjects: [`raw${fresh}.>`] });
    try {
      const js = jetstream(admin);
      const single = await measureRawPublishRate(js, `raw${fresh}.x`, 50, 1);
      const windowed = await measureRawPublishRate(js, `raw${fresh}.x`, 200, 32);
      expect(single).toMatchObject({ messages: 50, window: 1 });
      expect(windowed).toMatchObject({ messages: 200, window: 32 });
      expect(single.perSecond).toBeGreaterThan(0);
      expect((await jsm.streams.info(stream)).state.messages).toBe(250);
    } finally {
      await jsm.streams.delete(stream);
    }
  });
});

describe('jetstream event store on a 3-node cluster', () => {
  let cluster: LocalNats;

  beforeAll(async () => {
    cluster = await startLocalNats(3);
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it('keeps appending, gapless, when the node leading the stream is killed', async () => {
    const store = await openJetStreamEventStore({ connectOptions: cluster.connectOptions('worker'), replicas: 3, requestTimeoutMs: 2000 });
    const tables = Array.from({ length: 8 }, (_, index) => `table-${index}`);
    const versions = new Map(tables.map((tableId) => [tableId, 0]));
    const appendRound = async (round: number) => {
      await Promise.all(
        tables.map(async (tableId) => {
          const version = versions.get(tableId) ?? 0;
          versions.set(tableId, await store.append(tableId, [played(`${tableId}/${round}`)], version, status(`round ${round}`)));
        }),
      );
    };
    // A gateway's store, hearing every event through the failover.
    const gateway = await openJetStreamEventStore({
      connectOptions: cluster.connectOptions('gateway'),
      createMissing: false,
      requestTimeoutMs: 2000,
    });
    const heard = new Map<string, number[]>(tables.map((tableId) => [tableId, []]));
    gateway.subscribe((tableId, event) => heard.get(tableId)?.push(event.seq));
    const probe = await cluster.connect('admin');
    try {
      for (let round = 0; round < 3; round++) await appendRound(round);
      const probeJsm = await jetstreamManager(probe);
      const info = await probeJsm.streams.info('TABLE_EVENTS');
      expect(info.config.num_replicas).toBe(3);
      expect(info.cluster?.replicas).toHaveLength(2);
      const leader = cluster.nodes.findIndex((node) => node.name === info.cluster?.leader);
      expect(leader).toBeGreaterThanOrEqual(0);

      await cluster.kill(leader);
      for (let round = 3; round < 6; round++) await appendRound(round);

      for (const tableId of tables) {
        const log = await store.read(tableId);
        expect(log.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5, 6]);
        expect(log.map((event) => (event.data as { card: string }).card)).toEqual([0, 1, 2, 3, 4, 5].map((round) => `${tableId}/${round}`));
      }
      expect(await store.listTables()).toEqual(
        tables.map((tableId) => ({ tableId, version: 6, lastEventAt: AT, status: status('round 5') })),
      );
      const after = await probeJsm.streams.info('TABLE_EVENTS');
      expect(after.cluster?.leader).not.toBe(info.cluster?.leader);
      expect(after.state.messages).toBe(tables.length * 6); // retried publishes were deduplicated, not stored twice
      await vi.waitFor(() => expect([...heard.values()]).toEqual(tables.map(() => [1, 2, 3, 4, 5, 6])), { timeout: 15_000 });
    } finally {
      await gateway.close();
      await store.close();
      await probe.close();
    }
  });
});
