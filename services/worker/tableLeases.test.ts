import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';
import { startLocalNats, type LocalNats } from '../nats/localNats.js';
import { openLeaseBuckets, type LeaseBuckets } from './leaseBuckets.js';
import { TableLeases } from './tableLeases.js';

const TTL_MS = 600;

async function until(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not so within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('table leases: worker lives and table claims in JetStream KV', () => {
  let nats: LocalNats;
  let nc: NatsConnection;
  let buckets: LeaseBuckets;

  beforeAll(async () => {
    nats = await startLocalNats(1);
    nc = await connect({ servers: nats.urls });
    buckets = await openLeaseBuckets(nc, TTL_MS);
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
    await Promise.all([a.stop(true), b.stop(true)]);
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
    await Promise.all([a.stop(true), b.stop(true)]);
  });

  it("lets another take a crashed worker's tables once its life expires, and not before", async () => {
    const [a, b] = await Promise.all([leasesOf('a'), leasesOf('b')]);
    await a.take('t-crashed');
    await a.stop(false); // as if the worker died: no goodbye, no renewal
    const stoppedAt = Date.now();
    expect(await b.take('t-crashed')).toEqual({ taken: false, owner: 'a' });
    let result = await b.take('t-crashed');
    while (!result.taken) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      result = await b.take('t-crashed');
    }
    const waited = Date.now() - stoppedAt;
    expect(waited).toBeGreaterThanOrEqual(TTL_MS * 0.5);
    expect(waited).toBeLessThan(TTL_MS + 1500);
    expect(result).toEqual({ taken: true, fresh: true });
    await b.stop(true);
  });

  it("gives a gracefully stopped worker's tables, or a released table, to the next taker at once", async () => {
    const [a, b] = await Promise.all([leasesOf('a'), leasesOf('b')]);
    await a.take('t-released');
    await a.take('t-stopped');
    await a.release('t-released');
    expect(a.holds('t-released')).toBe(false);
    expect(await b.take('t-released')).toEqual({ taken: true, fresh: true });
    await a.stop(true);
    expect(await b.take('t-stopped')).toEqual({ taken: true, fresh: true });
    await b.stop(true);
  });

  it('gives a table up at once when anyone else changes its claim', async () => {
    const lost: string[] = [];
    const [a, b] = await Promise.all([leasesOf('a', lost), leasesOf('b')]);
    await a.take('t-stolen');
    await buckets.claims.delete('t-stolen'); // the claim vanishes under a (an operator, say)
    await until(() => lost.includes('t-stolen'));
    expect(a.holds('t-stolen')).toBe(false);
    expect(await b.take('t-stolen')).toEqual({ taken: true, fresh: true });
    expect(await a.take('t-stolen')).toEqual({ taken: false, owner: 'b' });
    await Promise.all([a.stop(true), b.stop(true)]);
  });

  it('gives up every table when its life is lost, begins a new one, and may take its old tables back', async () => {
    const lost: string[] = [];
    const a = await leasesOf('a', lost);
    await a.take('t-life-1');
    await a.take('t-life-2');
    await buckets.lives.delete('a'); // the life is gone (as after a pause past its expiry)
    await until(() => lost.length === 2);
    expect(lost.sort()).toEqual(['t-life-1', 't-life-2']);
    expect(a.heldTables()).toEqual([]);
    let again = await a.take('t-life-1').catch(() => null);
    while (again === null) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      again = await a.take('t-life-1').catch(() => null);
    }
    expect(again).toEqual({ taken: true, fresh: true });
    await a.stop(true);
  });

  it('checks a claim without rejecting when NATS cannot be asked (a worker fires the check and goes on)', async () => {
    const own = await connect({ servers: nats.urls });
    const logged: string[] = [];
    const a = await TableLeases.start({ buckets: await openLeaseBuckets(own, TTL_MS), workerId: 'a-cut-off', ttlMs: TTL_MS, onLost: () => undefined, log: (line) => logged.push(line) });
    await a.take('t-cut-off');
    await own.close();
    await expect(a.verify('t-cut-off')).resolves.toBeUndefined();
    expect(logged.some((line) => line.includes('could not check its claim on t-cut-off'))).toBe(true);
    await a.stop(false);
  });
});
