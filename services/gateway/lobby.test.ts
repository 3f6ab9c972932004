/**
 * The lobby (issue 13, item 4): pages, caps on tables seating players per
 * client and in all, tables nobody sits at closing, finished games moving to
 * the recent games.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openLocalStorage } from '../storage/storage.js';
import type { GatewayLimitSettings } from './limits.js';
import { waitFor } from '../../drivers/polling.js';
import { startService, type TestService } from '../../drivers/embeddedService.js';
import { listeningServices } from '../../test/servicesPerTest.js';

const MANY = { perSecond: 1000, burst: 1000 };
const services: TestService[] = [];
const listening = listeningServices();
afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.close()));
  await listening.closeAll();
});

function service(limits: GatewayLimitSettings = {}, store = openLocalStorage({ kind: 'memory' }).store): TestService {
  const started = startService({ store, limits: { routes: { createTable: MANY, joinSeat: MANY }, ...limits } });
  services.push(started);
  return started;
}

async function create(app: TestService['app'], body: object = { game: 'sevenSuitors' }, remoteAddress = '10.0.0.1') {
  return app.inject({ method: 'POST', url: '/api/tables', payload: body, remoteAddress });
}

async function lobby(app: TestService['app'], query = '') {
  const answer = await app.inject({ method: 'GET', url: `/api/tables${query}` });
  return { status: answer.statusCode, body: answer.json() };
}

describe('the lobby', () => {
  it('comes a page at a time: 50 tables by default, `limit` up to 100, `page` from 1; anything else is 400', async () => {
    const { app } = service();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await create(app)).json().tableId);
    ids.sort();
    expect((await lobby(app)).body).toMatchObject({ page: 1, pages: 1, total: 5 });
    const first = (await lobby(app, '?limit=2')).body;
    expect(first).toMatchObject({ page: 1, pages: 3, total: 5 });
    expect(first.tables.map((table: { tableId: string }) => table.tableId)).toEqual(ids.slice(0, 2));
    expect((await lobby(app, '?limit=2&page=3')).body.tables.map((table: { tableId: string }) => table.tableId)).toEqual(ids.slice(4));
    expect((await lobby(app, '?limit=2&page=9')).body).toMatchObject({ tables: [], page: 9, pages: 3, total: 5 });
    expect(await lobby(app, '?limit=101')).toEqual({
      status: 400,
      body: { error: 'badRequest', message: 'query.limit must be at most 100 tables a page, not 101' },
    });
    for (const query of ['?limit=0', '?page=0', '?page=1.5', '?limit=0x10', '?size=3'])
      expect((await lobby(app, query)).status, query).toBe(400);
  });

  it('caps the tables waiting for players per client (429) and in all (503); tables of bots alone, and tables that started, do not count', async () => {
    const { app } = service({ seatingTablesPerClient: 2, seatingTablesInAll: 3 });
    const first = (await create(app)).json().tableId;
    expect((await create(app)).statusCode).toBe(201);
    const third = await create(app);
    expect(third.statusCode).toBe(429);
    expect(third.json()).toEqual({
      error: 'rateLimited',
      message:
        '10.0.0.1 has 2 tables waiting for players, the most one client may; fill one, or wait until one starts or closes (after 600 s with nobody at it)',
    });
    // Bots at every seat: the game starts at once, nobody waits.
    expect((await create(app, { game: 'sevenSuitors', bots: [0, 1, 2, 3] })).statusCode).toBe(201);
    // Another client has its own count, up to the cap in all.
    const withAda = (await create(app, { game: 'sevenSuitors' }, '10.0.0.2')).json().tableId;
    const full = await create(app, { game: 'sevenSuitors' }, '10.0.0.3');
    expect(full.statusCode).toBe(503);
    expect(full.json()).toEqual({
      error: 'unavailable',
      message:
        'the service has 3 tables waiting for players, the most it keeps; no table here has a person waiting at it, or try again later',
    });
    expect(full.headers['retry-after']).toBe('1');
    // A seat taken by someone who then went away (no socket of the seat open) is nobody waiting: see the test below.
    const seated = await app.inject({ method: 'POST', url: `/api/tables/${withAda}/seats/0`, payload: { name: 'Ada' } });
    expect(seated.statusCode).toBe(201);
    expect((await create(app, { game: 'sevenSuitors' }, '10.0.0.3')).json().message).toBe(
      'the service has 3 tables waiting for players, the most it keeps; no table here has a person waiting at it, or try again later',
    );
    // A table that fills starts, and makes room.
    for (let seat = 0; seat < 4; seat++) {
      expect(
        (await app.inject({ method: 'POST', url: `/api/tables/${first}/seats/${seat}`, payload: { name: `P${seat}` } })).statusCode,
      ).toBe(201);
    }
    expect((await create(app)).statusCode).toBe(201);
    expect((await lobby(app)).body.total).toBe(5);
  });

  it("bounds a network's share of the tables waiting for players (429), so addresses of one range cannot fill the cap for everyone", async () => {
    const { app } = service({ seatingTablesPerClient: 2, seatingTablesPerNetwork: 3, seatingTablesInAll: 8 });
    for (const address of ['10.0.0.1', '10.0.0.1', '10.0.0.2']) expect((await create(app, undefined, address)).statusCode).toBe(201);
    // A third address of the same /24, within its own limit: the network's share is used up.
    const third = await create(app, undefined, '10.0.0.3');
    expect(third.statusCode).toBe(429);
    expect(third.json()).toEqual({
      error: 'rateLimited',
      message:
        "the clients of network 10.0.0.0/24 have 3 tables waiting for players, the most one network's may; fill one, or wait until one starts or closes (after 600 s with nobody at it)",
    });
    // Another network still makes its tables; IPv6 clients (each /64) share their /48.
    expect((await create(app, undefined, '10.0.1.1')).statusCode).toBe(201);
    for (const address of ['2001:db8:5:1::1', '2001:db8:5:1::2', '2001:db8:5:2::1'])
      expect((await create(app, undefined, address)).statusCode).toBe(201);
    const sameSite = await create(app, undefined, '2001:db8:5:3::1');
    expect(sameSite.statusCode).toBe(429);
    expect(sameSite.json().message).toMatch(/^the clients of network 2001:db8:5::\/48 have 3 tables waiting for players/);
    expect((await lobby(app)).body.total).toBe(7);
  });

  it('sends people, when the cap is full, to the tables where a seated player is there now (socket open), not to seats taken and left', async () => {
    const started = await listening.start({ limits: { routes: { createTable: MANY, joinSeat: MANY }, seatingTablesInAll: 2 } });
    const { app } = started;
    const seat = async (tableId: string, name: string, remoteAddress: string) => {
      const seated = await app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/0`, payload: { name }, remoteAddress });
      expect(seated.statusCode, seated.body).toBe(201);
      return seated.json().token as string;
    };
    // The abuser's table is older, and a seat of it is taken over HTTP, with nobody at the table afterwards.
    const abusers = (await create(app, undefined, '10.0.0.66')).json().tableId;
    await seat(abusers, 'Mallory', '10.0.0.66');
    const adas = (await create(app, undefined, '10.0.1.1')).json().tableId;
    const token = await seat(adas, 'Ada', '10.0.1.1');
    await started.open(`/api/tables/${adas}/socket?token=${token}`);

    // A network new to the cap takes the place of the abuser's table, where nobody waits.
    expect((await create(app, undefined, '10.0.2.1')).statusCode).toBe(201);
    const full = await create(app, undefined, '10.0.2.2');
    expect(full.statusCode).toBe(503);
    expect(full.json().message).toBe(
      `the service has 2 tables waiting for players, the most it keeps; people are waiting for players at table ${adas}: take a seat there, or try again later`,
    );
  });

  it('shares a full cap max-min fairly between networks: a network holding fewer tables takes the place of the oldest table nobody waits at of the network holding the most', async () => {
    const started = await listening.start({ limits: { routes: { createTable: MANY, joinSeat: MANY }, seatingTablesInAll: 4 } });
    const { app } = started;
    const made = async (address: string) => {
      const answer = await create(app, undefined, address);
      expect(answer.statusCode, answer.body).toBe(201);
      return answer.json().tableId as string;
    };
    const listed = async () => (await lobby(app)).body.tables.map((table: { tableId: string }) => table.tableId);
    // The abuser's network holds three tables; Ada waits at hers (her seat's socket open).
    const abusers = [await made('10.0.0.1'), await made('10.0.0.2'), await made('10.0.0.3')];
    const adas = await made('10.0.1.1');
    const seated = await app.inject({ method: 'POST', url: `/api/tables/${adas}/seats/0`, payload: { name: 'Ada' } });
    await started.open(`/api/tables/${adas}/socket?token=${seated.json().token}`);

    // The cap is full; the network holding the most gets no more.
    const refused = await create(app, undefined, '10.0.0.4');
    expect(refused.statusCode).toBe(503);
    expect(refused.json().message).toMatch(`people are waiting for players at table ${adas}`);
    // Another network's creator takes the place of the abuser's oldest table, which is closed for good.
    const bobs = await made('10.0.2.1');
    expect(await listed()).not.toContain(abusers[0]);
    const late = await app.inject({ method: 'POST', url: `/api/tables/${abusers[0]}/seats/0`, payload: { name: 'Cy' } });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({
      error: 'notNow',
      message: `table ${abusers[0]} is closed: nobody was waiting at it when the service's tables waiting for players were full, and it made room for a table of another network; create a table, or join one of the lobby's (GET /api/tables)`,
    });
    // Each new network gets a table, from the abuser's first, until every network holds one.
    await made('10.0.3.1');
    await made('10.0.4.1');
    expect((await listed()).filter((tableId: string) => abusers.includes(tableId))).toEqual([]);
    // Then from the oldest table nobody waits at: Bob's, never Ada's.
    await made('10.0.5.1');
    const now = await listed();
    expect(now).toContain(adas);
    expect(now).not.toContain(bobs);
    expect(now).toHaveLength(4);
  });

  it('closes a table nobody sits at once nothing has happened there for the limit: it leaves the lobby, joining it is 409, it no longer counts; a table with a person stays', async () => {
    const { app } = service({ seatingIdleSeconds: 0.3, seatingTablesPerClient: 2 });
    const empty = (await create(app)).json().tableId;
    const withBots = (await create(app, { game: 'sevenSuitors', bots: [1, 2] })).json().tableId;
    const held = (await create(app, { game: 'sevenSuitors' }, '10.0.0.2')).json().tableId;
    expect((await app.inject({ method: 'POST', url: `/api/tables/${held}/seats/0`, payload: { name: 'Ann' } })).statusCode).toBe(201);
    const listed = async () => (await lobby(app)).body.tables.map((table: { tableId: string }) => table.tableId);
    await waitFor(async () => !(await listed()).includes(empty) && !(await listed()).includes(withBots), 'the empty tables to close');
    expect(await listed()).toEqual([held]);
    const late = await app.inject({ method: 'POST', url: `/api/tables/${empty}/seats/0`, payload: { name: 'Bob' } });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({
      error: 'notNow',
      message: `table ${empty} is closed: nobody sat at it for 0.3 s; create a table, or join one of the lobby's (GET /api/tables)`,
    });
    // The closed tables no longer count against their client.
    expect((await create(app)).statusCode).toBe(201);
    expect((await app.inject({ method: 'POST', url: `/api/tables/${held}/seats/1`, payload: { name: 'Bob' } })).statusCode).toBe(201);
  });

  it('closes a table still seating players with a person at it once nothing has happened there for the longer limit, as an old rematch table whose maker waited alone', async () => {
    const { app } = service({ seatingIdleSeconds: 0.3, seatedIdleSeconds: 1.5 });
    const rematch = (await create(app, { game: 'sevenSuitors', bots: [2, 3] })).json().tableId;
    expect((await app.inject({ method: 'POST', url: `/api/tables/${rematch}/seats/0`, payload: { name: 'Ann' } })).statusCode).toBe(201);
    const seatedAt = Date.now();
    const listed = async () => (await lobby(app)).body.tables.map((table: { tableId: string }) => table.tableId);
    await waitFor(async () => !(await listed()).includes(rematch), 'the table Ann waited at alone to close', { everyMs: 100 });
    expect(Date.now() - seatedAt).toBeGreaterThanOrEqual(1_500);
    const late = await app.inject({ method: 'POST', url: `/api/tables/${rematch}/seats/1`, payload: { name: 'Bob' } });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({
      error: 'notNow',
      message: `table ${rematch} is closed: nothing happened at it for 1.5 s; create a table, or join one of the lobby's (GET /api/tables)`,
    });
  });

  it('closes them after a restart too, from the log alone', async () => {
    const store = openLocalStorage({ kind: 'memory' }).store;
    const before = service({}, store);
    const empty = (await create(before.app)).json().tableId;
    await before.close();
    const { app } = service({ seatingIdleSeconds: 0.3 }, store);
    await waitFor(async () => (await lobby(app)).body.total === 0, 'the empty table to close');
    expect((await app.inject({ method: 'POST', url: `/api/tables/${empty}/seats/0`, payload: { name: 'Bob' } })).statusCode).toBe(409);
  });

  it('shows a finished game for a while, then only in the recent games, the last finished first', async () => {
    const { app } = service({ finishedInLobbySeconds: 0.5 });
    const bots = { game: 'sevenSuitors', options: { end: 'hands:1' }, bots: [0, 1, 2, 3] };
    const older = (await create(app, bots)).json().tableId;
    await waitFor(async () => (await lobby(app, '/recent')).body.total === 1, 'the first game to finish');
    const newer = (await create(app, bots)).json().tableId;
    const open = (await create(app)).json().tableId;
    await waitFor(async () => (await lobby(app, '/recent')).body.total === 2, 'the second game to finish');
    const recent = (await lobby(app, '/recent')).body;
    expect(recent.tables.map((table: { tableId: string; finished: boolean }) => [table.tableId, table.finished])).toEqual([
      [newer, true],
      [older, true],
    ]);
    expect((await lobby(app, '/recent?limit=1&page=2')).body.tables[0].tableId).toBe(older);
    // Each entry says when its last event happened; the newer game ended no earlier than the older.
    expect(Date.parse(recent.tables[0].lastEventAt)).toBeGreaterThanOrEqual(Date.parse(recent.tables[1].lastEventAt));
    await waitFor(async () => (await lobby(app)).body.total === 1, 'the finished games to leave the lobby');
    expect((await lobby(app)).body.tables[0].tableId).toBe(open);
  });
});
