import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NatsConnection } from '@nats-io/nats-core';
import { startLocalNats, type LocalNats } from '../../drivers/localNats.js';
import { isTableUnavailable } from '../nats/unavailable.js';
import { openKvSeatTokens } from './kvSeatTokens.js';
import { describeSeatTokensContract } from './seatTokens.contract.js';

describe('seat tokens in JetStream KV', () => {
  let nats: LocalNats;
  const connections: NatsConnection[] = [];
  let operator: NatsConnection;

  beforeAll(async () => {
    nats = await startLocalNats(1);
    for (let i = 0; i < 2; i++) connections.push(await nats.connect('gateway'));
    operator = await nats.connect('admin');
  });

  afterAll(async () => {
    await Promise.all([...connections, operator].map((nc) => nc?.close()));
    await nats?.stop();
  });

  // Each place a deployment of its own on one server, its bucket named after it: as the operator (admin), whom the
  // permissions let at every deployment's names; the gateway's own are tested below and in test/nats/permissions.
  describeSeatTokensContract('JetStream KV', {
    open: (place) => openKvSeatTokens(operator, { namespace: place }),
    persists: true,
  });

  it('issues unguessable tokens bound to one table and seat, known to every gateway, and revokes a seat', async () => {
    const [here, there] = await Promise.all(connections.slice(0, 2).map((nc) => openKvSeatTokens(nc)));
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

  // Last: it stops the server for a while.
  it('answers "unavailable" (a 503, not a 500) while NATS cannot be reached, and works again once it is back', async () => {
    const nc = await nats.connect('gateway', { reconnectTimeWait: 100 });
    connections.push(nc);
    const tokens = await openKvSeatTokens(nc, { retryForMs: 500 });
    const token = await tokens.issue({ tableId: 't-2', seat: 0 });
    await nats.kill(0);
    const refused = await tokens.resolve(token).catch((error: unknown) => error);
    expect(isTableUnavailable(refused), String(refused)).toBe(true);
    expect((refused as Error).message).toMatch(/^seat tokens cannot be read now/);
    expect((refused as Error).message).not.toContain(token);
    await nats.restart(0);
    // The client reconnects and JetStream recovers its streams in their own time: ask until it answers.
    const deadline = Date.now() + 30_000;
    let answer = await tokens.resolve(token).catch((error: unknown) => error);
    while (isTableUnavailable(answer) && Date.now() < deadline) answer = await tokens.resolve(token).catch((error: unknown) => error);
    expect(answer).toEqual({ tableId: 't-2', seat: 0 });
  });
});
