import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';
import { startLocalNats, type LocalNats } from '../nats/localNats.js';
import { openKvSeatTokens } from './kvSeatTokens.js';

describe('seat tokens in JetStream KV', () => {
  let nats: LocalNats;
  const connections: NatsConnection[] = [];

  beforeAll(async () => {
    nats = await startLocalNats(1);
    for (let i = 0; i < 2; i++) connections.push(await connect({ servers: nats.urls }));
  });

  afterAll(async () => {
    await Promise.all(connections.map((nc) => nc.close()));
    await nats?.stop();
  });

  it('issues unguessable tokens bound to one table and seat, known to every gateway, and revokes a seat', async () => {
    const [here, there] = await Promise.all(connections.map((nc) => openKvSeatTokens(nc)));
    const first = await here.issue({ tableId: 't-1', seat: 2 });
    const again = await here.issue({ tableId: 't-1', seat: 2 });
    const second = await here.issue({ tableId: 't-1', seat: 3 });
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set([first, again, second]).size).toBe(3);
    expect(await there.resolve(first)).toEqual({ tableId: 't-1', seat: 2 });
    expect(await there.resolve(second)).toEqual({ tableId: 't-1', seat: 3 });
    expect(await there.resolve(`${first.slice(0, -1)}${first.endsWith('A') ? 'B' : 'A'}`)).toBeNull();
    expect(await there.resolve('')).toBeNull();
    expect(await there.resolve('x'.repeat(10_000))).toBeNull();
    expect(await there.revokeSeat({ tableId: 't-1', seat: 2 })).toBe(2);
    expect(await here.resolve(first)).toBeNull();
    expect(await here.resolve(again)).toBeNull();
    expect(await here.resolve(second)).toEqual({ tableId: 't-1', seat: 3 });
    expect(await here.revokeSeat({ tableId: 't-1', seat: 2 })).toBe(0);
    await Promise.all([here.close(), there.close()]);
  });
});
