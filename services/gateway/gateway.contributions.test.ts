/**
 * A seat's contribution to the next deal over HTTP (docs/fairness.md): sent
 * with the seat's token for the hand `view.nextDeal` names, refused with a
 * clear status when it is late, sent twice, malformed or not a seat's.
 */
import { describe, expect, it } from 'vitest';
import { bearer } from '../../drivers/embeddedService.js';
import { servicesClosedAfterEach } from '../../test/servicesPerTest.js';

const service = servicesClosedAfterEach();
const CONTRIBUTION = 'c0ffee'.padEnd(64, '1');

describe('a contribution to the next deal, over HTTP', () => {
  it('is taken from the seat token for the hand the view names, and refused late, twice, malformed or without a token', async () => {
    const { app } = service();
    const created = await app.inject({ method: 'POST', url: '/api/tables', payload: { game: 'sevenSuitors', bots: [1, 2, 3] } });
    const { tableId } = created.json();
    const before = (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view` })).json().view;
    expect(before.nextDeal).toEqual({ index: 0, commitment: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const { token } = (await app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/0`, payload: { name: 'Ada' } })).json();
    // The join filled the table: hand 1 is dealt from the commitment shown before it, and hand 2's is open.
    const view = (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view`, headers: bearer(token) })).json().view;
    expect(view.hand.commitment).toBe(before.nextDeal.commitment);
    expect(view.nextDeal.index).toBe(1);

    const send = (payload: Record<string, unknown>, headers: Record<string, string> = bearer(token)) =>
      app.inject({ method: 'POST', url: `/api/tables/${tableId}/commands`, headers, payload: { type: 'deal.contributed', ...payload } });
    const accepted = await send({ hand: 1, contribution: CONTRIBUTION });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().events).toEqual([{ seq: expect.any(Number), type: 'deal.contributed' }]);

    const twice = await send({ hand: 1, contribution: CONTRIBUTION });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('seat 0 has contributed to hand 2 already; a seat contributes once a hand');
    const late = await send({ hand: 0, contribution: CONTRIBUTION });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(/^too late: hand 1 is dealt already, and this contribution is not used/);
    expect((await send({ hand: 1, contribution: 'not hex' })).statusCode).toBe(400);
    expect((await send({ hand: 1, contribution: CONTRIBUTION, seat: 1 })).statusCode).toBe(403);
    expect((await send({ hand: 1, contribution: CONTRIBUTION }, {})).statusCode).toBe(401);
  });
});
