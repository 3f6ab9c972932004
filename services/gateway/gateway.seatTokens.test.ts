/**
 * A seat is taken in one event, and the token store only indexes it: a
 * token the index lost, or an index that cannot be asked, still acts from
 * the table's own log; a join sent again with the client's own token after
 * its answer was lost finds the seat its own.
 */
import { describe, expect, it } from 'vitest';
import { openLocalStorage } from '../storage/storage.js';
import { hashToken, newToken, type SeatTokens } from '../tokens/seatTokens.js';
import { bearer, type TestService } from '../../drivers/embeddedService.js';
import { servicesClosedAfterEach } from '../../test/servicesPerTest.js';

const service = servicesClosedAfterEach();

async function newTable(app: TestService['app']): Promise<string> {
  const created = await app.inject({ method: 'POST', url: '/api/tables', payload: { game: 'sevenSuitors', bots: [1, 2, 3] } });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().tableId;
}

function join(app: TestService['app'], tableId: string, payload: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/0`, payload });
}

describe('seat tokens: the log holds the seat, the store only indexes it', () => {
  it('lets a token the index lost act from the log, and indexes it again', async () => {
    const { app, tokens } = service();
    const tableId = await newTable(app);
    const { token } = (await join(app, tableId, { name: 'Ada' })).json();
    await tokens.revoke(hashToken(token)); // the index forgets it (a restarted memory index, a write that failed)
    expect(await tokens.resolve(token)).toBeNull();

    const view = await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view`, headers: bearer(token) });
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json().view.viewer).toBe(0);
    expect(await tokens.resolve(token)).toEqual({ tableId, seat: 0 });
    // Not at another table, and not once the seat is left: the log no longer names it.
    const other = await newTable(app);
    expect((await app.inject({ method: 'GET', url: `/api/tables/${other}/view`, headers: bearer(token) })).statusCode).toBe(403);
    expect((await app.inject({ method: 'DELETE', url: `/api/tables/${tableId}/seats/0`, headers: bearer(token) })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view`, headers: bearer(token) })).statusCode).toBe(401);
  });

  it('serves seat holders from the log while the index cannot be asked', async () => {
    const memory = openLocalStorage({ kind: 'memory' }).tokens;
    let indexDown = false;
    const flaky: SeatTokens = {
      ...memory,
      resolve: async (token) => {
        if (indexDown) throw new Error('the token index is unreachable');
        return memory.resolve(token);
      },
    };
    const { app } = service({ tokens: flaky });
    const tableId = await newTable(app);
    const { token } = (await join(app, tableId, { name: 'Ada' })).json();
    indexDown = true;
    const view = await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view`, headers: bearer(token) });
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json().view.viewer).toBe(0);
    expect((await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view`, headers: bearer(newToken()) })).statusCode).toBe(401);
  });

  it('answers a join sent again with the same client-made token with the same seat, and refuses another token that seat', async () => {
    const { app, store } = service();
    const tableId = await newTable(app);
    const token = newToken();
    const first = await join(app, tableId, { name: 'Ada', token });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().token).toBe(token);
    const again = await join(app, tableId, { name: 'Ada', token });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json()).toMatchObject({ tableId, seat: 0, token });
    expect(
      (await store.read(tableId)).filter((event) => event.type === 'seat.joined' && (event.data as { seat: number }).seat === 0),
    ).toHaveLength(1);

    const someoneElse = await join(app, tableId, { name: 'Bob', token: newToken() });
    expect(someoneElse.statusCode).toBe(409);
    expect(someoneElse.json().message).toBe('seat 0 is taken by Ada');
    const malformed = await join(app, tableId, { name: 'Bob', token: 'too-short' });
    expect(malformed.statusCode).toBe(400);
  });
});
