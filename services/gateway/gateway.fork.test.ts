/**
 * POST /api/tables/:id/fork: playing on from an event of a finished game.
 * The caller takes a seat with a token that plays at once; the other seats
 * are bots a person may take; an unfinished game, a bad body and a client
 * over its limit are refused, and make no table.
 */
import { describe, expect, it } from 'vitest';
import { phaseOf } from '../../machines/table/snapshot.js';
import { openLocalStorage } from '../storage/storage.js';
import { waitFor } from '../../drivers/polling.js';
import { ADMIN, bearer, type TestService } from '../../drivers/embeddedService.js';
import { servicesClosedAfterEach } from '../../test/servicesPerTest.js';

const service = servicesClosedAfterEach();

async function createTable(started: TestService, body: object): Promise<string> {
  const response = await started.app.inject({ method: 'POST', url: '/api/tables', payload: body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().tableId;
}

async function finishedGame(started: TestService): Promise<string> {
  const tableId = await createTable(started, { game: 'sevenSuitors', options: { end: 'hands:1' }, bots: [0, 1, 2, 3] });
  await waitFor(
    async () => (await started.host.snapshot(tableId)).snapshot.context.outcome?.finished === true,
    `table ${tableId} to finish`,
  );
  return tableId;
}

/** An event mid-trick of a finished game, and whose turn it is right after it. */
async function midTrick(started: TestService, tableId: string): Promise<{ at: number; turn: number }> {
  const events = await started.host.events(tableId);
  const at = events.findIndex((event, index) => index > 20 && event.type === 'card.played') + 1;
  const { snapshot } = await started.host.replayAt(tableId, at);
  expect(phaseOf(snapshot)).toBe('trickPlay');
  return { at, turn: snapshot.context.hand!.turn! };
}

describe('playing on from an event of a finished game', () => {
  it('gives the caller’s seat to a stand-in bot when its token cannot be indexed, so the new table is never stuck on a seat nobody can play', async () => {
    const tokens = openLocalStorage({ kind: 'memory' }).tokens;
    const started = service({ tokens: { ...tokens, issue: () => Promise.reject(new Error('the token store is down')) } });
    const tableId = await finishedGame(started);
    const { at, turn } = await midTrick(started, tableId);
    const forked = await started.app.inject({
      method: 'POST',
      url: `/api/tables/${tableId}/fork`,
      payload: { at, seat: turn, name: 'Ada' },
    });
    expect(forked.statusCode).toBe(500);
    const [newTable] = (await started.store.listTables()).map((table) => table.tableId).filter((id) => id !== tableId);
    const { snapshot } = await started.host.snapshot(newTable);
    expect(snapshot.context.occupants[turn]).toEqual({ name: 'Bot for Ada', bot: true });
  });

  it('makes a new table where the caller holds the seat asked for, with a token that plays a legal card at once', async () => {
    const started = service();
    const { app } = started;
    const tableId = await finishedGame(started);
    const { at, turn } = await midTrick(started, tableId);
    const forked = await app.inject({ method: 'POST', url: `/api/tables/${tableId}/fork`, payload: { at, seat: turn, name: 'Ada' } });
    expect(forked.statusCode, forked.body).toBe(201);
    const { tableId: newTable, version, seat, token } = forked.json();
    expect(newTable).not.toBe(tableId);
    expect(seat).toBe(turn);
    expect(typeof token).toBe('string');
    expect(typeof version).toBe('number');

    const { events } = (await app.inject({ method: 'GET', url: `/api/tables/${newTable}/log`, headers: ADMIN })).json();
    expect(events[0]).toMatchObject({ type: 'table.created', data: { settings: { forkedFrom: { tableId, at } } } });
    expect(JSON.stringify(events)).not.toContain(token);

    const { view } = (await app.inject({ method: 'GET', url: `/api/tables/${newTable}/view`, headers: bearer(token) })).json();
    expect(view.viewer).toBe(turn);
    expect(view.seats[turn].occupant).toEqual({ name: 'Ada', bot: false });
    expect(view.hand.legalCards.length).toBeGreaterThan(0);
    const played = await app.inject({
      method: 'POST',
      url: `/api/tables/${newTable}/commands`,
      headers: bearer(token),
      payload: { type: 'card.played', card: view.hand.legalCards[0] },
    });
    expect(played.statusCode, played.body).toBe(200);
    expect(played.json().events[0]).toMatchObject({ type: 'card.played' });

    // Every other seat is a bot holding it for a person: an invite to it seats someone.
    const other = (turn + 1) % 4;
    expect(view.seats[other].occupant.bot).toBe(true);
    const joined = await app.inject({ method: 'POST', url: `/api/tables/${newTable}/seats/${other}`, payload: { name: 'Bo' } });
    expect(joined.statusCode, joined.body).toBe(201);

    // Without a seat, a table of bots alone plays on by itself.
    const watched = await app.inject({ method: 'POST', url: `/api/tables/${tableId}/fork`, payload: { at } });
    expect(watched.statusCode, watched.body).toBe(201);
    expect(Object.keys(watched.json()).sort()).toEqual(['tableId', 'version']);
    await waitFor(
      async () => (await started.host.snapshot(watched.json().tableId)).snapshot.context.outcome?.finished === true,
      'the bots to finish the fork',
    );
  });

  it('lists the seats its stand-in bots hold as open in the lobby: a person may take them', async () => {
    const started = service();
    const tableId = await finishedGame(started);
    const { at, turn } = await midTrick(started, tableId);
    const forked = await started.app.inject({
      method: 'POST',
      url: `/api/tables/${tableId}/fork`,
      payload: { at, seat: turn, name: 'Ada' },
    });
    expect(forked.statusCode, forked.body).toBe(201);
    const { tables } = (await started.app.inject({ method: 'GET', url: '/api/tables?limit=50' })).json();
    const listed = tables.find((table: { tableId: string }) => table.tableId === forked.json().tableId);
    expect(listed.openSeats).toEqual([0, 1, 2, 3].filter((seat) => seat !== turn));
    // The finished original's seats are nobody's to take.
    expect(tables.find((table: { tableId: string }) => table.tableId === tableId)?.openSeats ?? []).toEqual([]);
  });

  it('refuses an unfinished game (409), a bad body (400, 422) and an unknown table (404), making no table', async () => {
    const started = service();
    const { app, host } = started;
    const tableId = await finishedGame(started);
    const playing = await createTable(started, { game: 'antiCupid', bots: [1, 2, 3, 4] });
    const tables = (await host.listTables()).length;
    const fork = (table: string, payload: unknown) =>
      app.inject({ method: 'POST', url: `/api/tables/${table}/fork`, payload: payload as object });

    const during = await fork(playing, { at: 2, seat: 0, name: 'Ada' });
    expect(during.statusCode).toBe(409);
    expect(during.json()).toEqual({
      error: 'notNow',
      message: `the game is not over; table ${playing} can be played on from any event once its game is over (it is in seating)`,
    });
    const version = (await host.events(tableId)).length;
    expect((await fork(tableId, { at: version + 1 })).json()).toEqual({
      error: 'notNow',
      message: `table ${tableId} has ${version} events; play on from event 1 to ${version}, not ${version + 1}`,
    });
    expect((await fork(tableId, { at: version })).statusCode).toBe(409);
    expect((await fork(tableId, { at: 5, seat: 1 })).json()).toEqual({
      error: 'badRequest',
      message: 'body.seat needs body.name: the name the new table shows for you',
    });
    expect((await fork(tableId, { at: 5, name: 'Ada' })).json()).toEqual({
      error: 'badRequest',
      message: 'body.name needs body.seat: the seat to take at the new table',
    });
    expect((await fork(tableId, { at: 0 })).statusCode).toBe(400);
    expect((await fork(tableId, { at: 1.5 })).statusCode).toBe(400);
    expect((await fork(tableId, { at: 5, seat: 1, name: 'Ada', extra: true })).statusCode).toBe(400);
    expect((await fork(tableId, { at: 5, seat: 4, name: 'Ada' })).json()).toEqual({
      error: 'malformed',
      message: 'seat must be from 0 to 3 at a table of Seven Suitors, not 4',
    });
    expect((await fork('t-nope', { at: 1 })).statusCode).toBe(404);
    expect((await host.listTables()).length).toBe(tables);
  });

  it('is limited per client like creating a table', async () => {
    const started = service({ limits: { routes: { forkTable: { perSecond: 0.01, burst: 1 } } } });
    const tableId = await finishedGame(started);
    const first = await started.app.inject({ method: 'POST', url: `/api/tables/${tableId}/fork`, payload: { at: 3 } });
    expect(first.statusCode, first.body).toBe(201);
    const second = await started.app.inject({ method: 'POST', url: `/api/tables/${tableId}/fork`, payload: { at: 3 } });
    expect(second.statusCode).toBe(429);
    expect(second.json().error).toBe('rateLimited');
    // Creating a table is counted apart.
    expect((await started.app.inject({ method: 'POST', url: '/api/tables', payload: { game: 'sevenSuitors' } })).statusCode).toBe(201);
  });
});
