import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NatsConnection } from '@nats-io/nats-core';
import { startLocalNats, type LocalNats } from '../../drivers/localNats.js';
import { waitFor } from '../../drivers/polling.js';
import { openLeaseBuckets, type LeaseBuckets } from './leaseBuckets.js';
import { TableLeases } from './tableLeases.js';

const TTL_MS = 600;

describe('table leases: worker lives and table claims in JetStream KV', () => {
  let nats: LocalNats;
  let nc: NatsConnection;
  let buckets: LeaseBuckets;

  beforeAll(async () => {
    nats = await startLocalNats(1);
    nc = await nats.connect('worker');
    buckets = await openLeaseBuckets(nc, { ttlMs: TTL_MS });
  });

  afterAll(async () => {
    await nc?.close();
    await nats?.stop();
  });

  function leasesOf(workerId: string, lost: string[] = []) {
    return TableLeases.start({ buckets, workerId, ttlMs: TTL_MS, onLost: (tableId) => lost.push(tableId) });
  }

  it('gives a free table to the first taker only, and says who holds it', async () => {
    const [a, b] = await Promise.all([leasesOf('a'), leasesOf('b')]);
    const [first, second] = await Promise.all([a.take('t-one'), b.take('t-one')]);
    expect([first, second].filter((result) => result.taken)).toHaveLength(1);
    const holder = first.taken ? 'a' : 'b';
    expect([first, second].find((result) => !result.taken)).toEqual({ taken: false, owner: holder });
    expect((holder === 'a' ? a : b).holds('t-one')).toBe(true);
    expect((holder === 'a' ? b : a).holds('t-one')).toBe(false);
    await Promise.all([a.stop({ endLife: true }), b.stop({ endLife: true })]);
  });

  it('keeps its tables well past the TTL while its life is renewed, with one renewal for all of them', async () => {
    const lost: string[] = [];
    const [a, b] = await Promise.all([leasesOf('a', lost), leasesOf('b')]);
    const ids = Array.from({ length: 50 }, (_, i) => `t-kept-${i}`);
    for (const tableId of ids) expect(await a.take(tableId)).toEqual({ taken: true, fresh: true });
    const claimsBefore = (await buckets.claims.status()).streamInfo.state.last_seq;
    await new Promise((resolve) => setTimeout(resolve, TTL_MS * 3));
    expect(ids.every((tableId) => a.holds(tableId))).toBe(true);
    expect(await b.take(ids[7])).toEqual({ taken: false, owner: 'a' });
    expect((await buckets.claims.status()).streamInfo.state.last_seq).toBe(claimsBefore); // claims are not rewritten to stay
    expect(lost).toEqual([]);
    await Promise.all([a.stop({ endLife: true }), b.stop({ endLife: true })]);
  });

  it("lets another take a crashed worker's tables once its life expires, and not before", async () => {
    const [a, b] = await Promise.all([leasesOf('a'), leasesOf('b')]);
    await a.take('t-crashed');
    await a.stop({ endLife: false }); // as if the worker died: no goodbye, no renewal
    const stoppedAt = Date.now();
    expect(await b.take('t-crashed')).toEqual({ taken: false, owner: 'a' });
    const result = await waitFor(
      async () => {
        const taken = await b.take('t-crashed');
        return taken.taken && taken;
      },
      "the crashed worker's table to be free",
      { everyMs: 25 },
    );
    const waited = Date.now() - stoppedAt;
    expect(waited).toBeGreaterThanOrEqual(TTL_MS * 0.5);
    expect(waited).toBeLessThan(TTL_MS + 1500);
    expect(result).toEqual({ taken: true, fresh: true });
    await b.stop({ endLife: true });
  });

  it("gives a gracefully stopped worker's tables, or a released table, to the next taker at once", async () => {
    const [a, b] = await Promise.all([leasesOf('a'), leasesOf('b')]);
    await a.take('t-released');
    await a.take('t-stopped');
    await a.release('t-released');
    expect(a.holds('t-released')).toBe(false);
    expect(await b.take('t-released')).toEqual({ taken: true, fresh: true });
    await a.stop({ endLife: true });
    expect(await b.take('t-stopped')).toEqual({ taken: true, fresh: true });
    await b.stop({ endLife: true });
  });

  it('gives a table up at once when anyone else changes its claim', async () => {
    const lost: string[] = [];
    const [a, b] = await Promise.all([leasesOf('a', lost), leasesOf('b')]);
    await a.take('t-stolen');
    await buckets.claims.delete('t-stolen'); // the claim vanishes under a (an operator, say)
    await waitFor(() => lost.includes('t-stolen'), 'a to give the table up', { timeoutMs: 3000 });
    expect(a.holds('t-stolen')).toBe(false);
    expect(await b.take('t-stolen')).toEqual({ taken: true, fresh: true });
    expect(await a.take('t-stolen')).toEqual({ taken: false, owner: 'b' });
    await Promise.all([a.stop({ endLife: true }), b.stop({ endLife: true })]);
  });

  it('gives up every table when its life is lost, begins a new one, and may take its old tables back', async () => {
    const lost: string[] = [];
    const a = await leasesOf('a', lost);
    await a.take('t-life-1');
    await a.take('t-life-2');
    await buckets.lives.delete('a'); // the life is gone (as after a pause past its expiry)
    await waitFor(() => lost.length === 2, 'a to give both tables up', { timeoutMs: 3000 });
    expect(lost.sort()).toEqual(['t-life-1', 't-life-2']);
    expect(a.heldTables()).toEqual([]);
    const again = await waitFor(() => a.take('t-life-1').catch(() => null), 'a new life to take the old table back', { everyMs: 25 });
    expect(again).toEqual({ taken: true, fresh: true });
    await a.stop({ endLife: true });
  });

  it('checks a claim without rejecting when NATS cannot be asked (a worker fires the check and goes on)', async () => {
    const own = await nats.connect('worker');
    const logged: string[] = [];
    const a = await TableLeases.start({
      buckets: await openLeaseBuckets(own, { ttlMs: TTL_MS }),
      workerId: 'a-cut-off',
      ttlMs: TTL_MS,
      onLost: () => undefined,
      log: (line) => logged.push(line),
    });
    await a.take('t-cut-off');
    await own.close();
    await expect(a.verify('t-cut-off')).resolves.toBeUndefined();
    expect(logged.some((line) => line.includes('could not check its claim on t-cut-off'))).toBe(true);
    await a.stop({ endLife: false });
  });

  describe('presence: a life whose worker is not connected ends within about a renewal', () => {
    // Long enough that ending a life by age alone (0.75 of it) is far from ending it by presence (a renewal and a half).
    const LONG_TTL_MS = 6000;
    const RENEW_EVERY_MS = 600;
    let longBuckets: LeaseBuckets;

    // A deployment of its own (NATS_STREAM=PRESENCE_TEST), its workers' permissions for its names.
    let presenceNats: LocalNats;
    let presenceNc: NatsConnection;

    beforeAll(async () => {
      presenceNats = await startLocalNats(1, { streamName: 'PRESENCE_TEST' });
      presenceNc = await presenceNats.connect('worker');
      longBuckets = await openLeaseBuckets(presenceNc, { ttlMs: LONG_TTL_MS, namespace: 'PRESENCE_TEST' });
    });

    afterAll(async () => {
      await presenceNc?.close();
      await presenceNats?.stop();
    });

    /** A worker's leases on its own connection, as a worker has them: its renewals and its presence die together. */
    async function presentLeases(workerId: string, connection: NatsConnection, lost: string[] = [], renewEveryMs = RENEW_EVERY_MS) {
      const buckets = await openLeaseBuckets(connection, { ttlMs: LONG_TTL_MS, namespace: 'PRESENCE_TEST' });
      return TableLeases.start({
        buckets,
        workerId,
        ttlMs: LONG_TTL_MS,
        renewEveryMs,
        onLost: (tableId) => lost.push(tableId),
        presence: connection,
      });
    }

    async function orphanedAfter(leases: TableLeases, tableId: string, since: number): Promise<number> {
      await waitFor(async () => (await leases.orphans()).includes(tableId), `${tableId} to be an orphan`, { everyMs: 50 });
      return Date.now() - since;
    }

    it('counts a worker whose connection is gone over after a missed renewal, and ends its life so it cannot come back to it', async () => {
      const own = await presenceNats.connect('worker');
      const a = await presentLeases('p-dead', own);
      const b = await presentLeases('p-alive', presenceNc);
      await a.take('t-presence-dead');
      await own.close(); // as if killed: the life's key stays until its TTL, nobody answers for it
      const waited = await orphanedAfter(b, 't-presence-dead', Date.now());
      // By age alone it would be 0.75 of the TTL after the last renewal (at most a renewal before the close): 3.9 s or more.
      expect(waited).toBeLessThan(LONG_TTL_MS / 2);
      expect((await longBuckets.lives.get('p-dead'))?.operation).not.toBe('PUT');
      expect(await b.take('t-presence-dead')).toEqual({ taken: true, fresh: true });
      await a.stop({ endLife: false });
      await b.stop({ endLife: true });
    });

    it('keeps a life that misses renewals while its worker answers, until its age ends it', async () => {
      const own = await presenceNats.connect('worker');
      // Renews far less often than the others expect: late every time, but connected.
      const a = await presentLeases('p-slow', own, [], LONG_TTL_MS * 10);
      const b = await presentLeases('p-judge', presenceNc);
      await a.take('t-presence-slow');
      const waited = await orphanedAfter(b, 't-presence-slow', Date.now());
      expect(waited).toBeGreaterThanOrEqual(LONG_TTL_MS * 0.75 - RENEW_EVERY_MS);
      await a.stop({ endLife: false });
      await own.close();
      await b.stop({ endLife: true });
    });

    it('distrusts its own life while its connection is down, and trusts it again once back before a renewal was late', async () => {
      const own = await presenceNats.connect('worker', { reconnectTimeWait: 50 });
      const a = await presentLeases('p-dropped', own);
      await a.take('t-presence-dropped');
      const heldDuringDrop: boolean[] = [];
      const statuses = (async () => {
        for await (const status of own.status()) {
          if (status.type === 'disconnect') heldDuringDrop.push(a.holds('t-presence-dropped'));
          if (status.type === 'reconnect') return;
        }
      })();
      await own.reconnect();
      await statuses;
      expect(heldDuringDrop).toEqual([false]);
      await waitFor(() => a.holds('t-presence-dropped'), 'a to hold the table again', { timeoutMs: 3000 });
      await a.stop({ endLife: true });
      await own.close();
    });
  });
});
