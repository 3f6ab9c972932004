import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUIT_DECK } from '../../machines/cards/card.js';
import { waitFor } from '../../drivers/polling.js';
import { ADMIN, bearer, type TestService } from '../../drivers/embeddedService.js';
import { servicesClosedAfterEach } from '../../test/servicesPerTest.js';
import { EVENT_SCHEMA } from '../host/upcasters.js';

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

const service = servicesClosedAfterEach();

async function createTable(app: TestService['app'], body: object): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/api/tables', payload: body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().tableId;
}

async function join(app: TestService['app'], tableId: string, seat: number, name: string): Promise<string> {
  const response = await app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/${seat}`, payload: { name } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().token;
}

async function waitUntilFinished(app: TestService['app'], tableId: string): Promise<void> {
  await waitFor(
    async () => {
      const { tables } = (await app.inject({ method: 'GET', url: '/api/tables', headers: ADMIN })).json();
      return tables.find((table: { tableId: string }) => table.tableId === tableId)?.finished === true;
    },
    `table ${tableId} to finish`,
    // The lobby hears of the bots' moves from the store's listing, taken about once a second: no need to ask more often.
    { everyMs: 100 },
  );
}

describe('tables, seats and views over HTTP', () => {
  it('creates a table, lists it in the lobby, seats a player with a token and shows each viewer only its own cards', async () => {
    const { app } = service();
    const tableId = await createTable(app, { game: 'sevenSuitors', bots: [1, { seat: 2, kind: 'random' }], turnSeconds: 60 });
    let lobby = (await app.inject({ method: 'GET', url: '/api/tables' })).json();
    expect(lobby.tables).toEqual([
      {
        tableId,
        game: 'sevenSuitors',
        phase: 'seating',
        openSeats: [0, 3],
        hand: 0,
        finished: false,
        version: 3,
        lastEventAt: expect.any(String),
      },
    ]);

    const ann = await join(app, tableId, 0, 'Ann');
    const bob = await join(app, tableId, 3, 'Bob');
    expect(ann).toMatch(/^[A-Za-z0-9_-]{43}$/);
    lobby = (await app.inject({ method: 'GET', url: '/api/tables' })).json();
    expect(lobby.tables[0]).toMatchObject({ phase: 'passing', openSeats: [], hand: 1 });

    const seat = (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view`, headers: bearer(ann) })).json();
    expect(seat.view.viewer).toBe(0);
    expect(seat.view.hand.cards).toHaveLength(14);
    expect(seat.view.seats.map((summary: { occupant: unknown }) => summary.occupant)).toEqual([
      { name: 'Ann', bot: false },
      { name: 'Heuristic bot 1', bot: true },
      { name: 'Random bot 2', bot: true },
      { name: 'Bob', bot: false },
    ]);
    // The humans are awaited to pass, so their turn clock runs.
    expect(Date.parse(seat.turnDeadline) - Date.now()).toBeGreaterThan(50_000);
    const spectator = (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view` })).json();
    expect(spectator.view.viewer).toBe('spectator');
    expect(spectator.view.hand.cards).toBeNull();
    const bobs = (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view`, headers: bearer(bob) })).json();
    for (const card of seat.view.hand.cards) expect(JSON.stringify(bobs)).not.toContain(`"${card}"`);
  });

  it('hands a leaving player’s seat to a standing-in bot, which a newcomer may take; bots the table was made with stay', async () => {
    const { app } = service();
    const tableId = await createTable(app, { game: 'traitorOfLove', bots: [1, 2, 3, 4, 5] });
    const ann = await join(app, tableId, 0, 'Ann');
    const left = await app.inject({ method: 'DELETE', url: `/api/tables/${tableId}/seats/0`, headers: bearer(ann) });
    expect(left.statusCode, left.body).toBe(200);
    const view = (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view` })).json().view;
    expect(view.seats[0].occupant).toEqual({ name: 'Bot for Ann', bot: true });
    // The old token is revoked.
    const stale = await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view`, headers: bearer(ann) });
    expect(stale.statusCode).toBe(401);

    const taken = await app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/1`, payload: { name: 'Cy' } });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ error: 'notNow', message: 'seat 1 is played by a bot the table was made with; seats free to take: 0' });

    const cy = await join(app, tableId, 0, 'Cy');
    const events = (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/log`, headers: ADMIN })).json().events;
    const seatEvents = events.filter((event: { type: string }) => event.type.startsWith('seat.')).slice(-5);
    // A person's seat is taken with the hash of their token (the seat's tenure), never the token.
    expect(seatEvents.map((event: { type: string; data: unknown }) => [event.type, event.data])).toEqual([
      ['seat.joined', { seat: 0, player: { name: 'Ann', bot: false }, holder: sha256Hex(ann), schema: EVENT_SCHEMA }],
      ['seat.left', { seat: 0, schema: EVENT_SCHEMA }],
      ['seat.joined', { seat: 0, player: { name: 'Bot for Ann', bot: true }, schema: EVENT_SCHEMA }],
      ['seat.left', { seat: 0, schema: EVENT_SCHEMA }],
      ['seat.joined', { seat: 0, player: { name: 'Cy', bot: false }, holder: sha256Hex(cy), schema: EVENT_SCHEMA }],
    ]);
    expect(JSON.stringify(events)).not.toContain(ann);
    expect(JSON.stringify(events)).not.toContain(cy);
    const seatView = (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view`, headers: bearer(cy) })).json().view;
    expect(seatView.viewer).toBe(0);
    const human = await app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/0`, payload: { name: 'Dee' } });
    expect(human.json()).toEqual({ error: 'notNow', message: 'seat 0 is taken by Cy' });
  });

  it('a token the store still knows after its seat changed hands sees and does nothing there: the tenure in the log decides', async () => {
    const { app, tokens } = service();
    const tableId = await createTable(app, { game: 'sevenSuitors', bots: [1, 2, 3] });
    const ann = await join(app, tableId, 0, 'Ann');
    expect((await app.inject({ method: 'DELETE', url: `/api/tables/${tableId}/seats/0`, headers: bearer(ann) })).statusCode).toBe(200);
    const cy = await join(app, tableId, 0, 'Cy');
    // As if revoking Ann's token had failed: the store resolves it to seat 0 again.
    await tokens.issue({ tableId, seat: 0 }, ann);
    const refused = { error: 'forbidden', message: `seat 0 at table ${tableId} is no longer held by this token's player` };
    const view = await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view`, headers: bearer(ann) });
    expect([view.statusCode, view.json()]).toEqual([403, refused]);
    const pass = await app.inject({
      method: 'POST',
      url: `/api/tables/${tableId}/commands`,
      headers: bearer(ann),
      payload: { type: 'card.played', card: '1-1' },
    });
    expect([pass.statusCode, pass.json()]).toEqual([403, refused]);
    const leave = await app.inject({ method: 'DELETE', url: `/api/tables/${tableId}/seats/0`, headers: bearer(ann) });
    expect([leave.statusCode, leave.json()]).toEqual([403, refused]);
    // Her stale leave gave her own token up and left Cy's alone.
    expect(await tokens.resolve(ann)).toBeNull();
    const cysView = await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view`, headers: bearer(cy) });
    expect(cysView.json().view.viewer).toBe(0);
  });

  it('before the game starts, a leaving player just opens the seat again', async () => {
    const { app } = service();
    const tableId = await createTable(app, { game: 'antiCupid' });
    const ann = await join(app, tableId, 2, 'Ann');
    await app.inject({ method: 'DELETE', url: `/api/tables/${tableId}/seats/2`, headers: bearer(ann) });
    const { tables } = (await app.inject({ method: 'GET', url: '/api/tables' })).json();
    expect(tables[0]).toMatchObject({ phase: 'seating', openSeats: [0, 1, 2, 3, 4] });
  });

  it('opens the log and record to everyone once the game is over, and replays any event with every hand open', async () => {
    const { app } = service();
    const tableId = await createTable(app, { game: 'sevenSuitors', options: { end: 'hands:1' }, bots: [0, 1, 2, 3] });
    await waitUntilFinished(app, tableId);
    const log = (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/log` })).json();
    expect(log.events[0].type).toBe('table.created');
    const record = await app.inject({ method: 'GET', url: `/api/tables/${tableId}/record` });
    expect(record.statusCode).toBe(200);
    expect(record.json()).toMatchObject({ format: 'seven-suitors-record/3', game: 'sevenSuitors', result: { finished: true } });

    const replay = (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/replay?at=7` })).json();
    expect(replay).toMatchObject({ at: 7, version: log.events.length, phase: 'passing', state: 'passing' });
    expect(replay.view.open).toBe(true);
    expect(replay.view.openHands.map((hand: { cards: unknown[] }) => hand.cards.length)).toEqual([14, 14, 14, 14]);
    const imported = await app.inject({ method: 'POST', url: '/api/records', payload: record.json() });
    expect(imported.statusCode, imported.body).toBe(201);
    const again = await app.inject({ method: 'GET', url: `/api/tables/${imported.json().tableId}/record` });
    expect(again.json()).toEqual(record.json());
  });

  it('keeps the token hashes of a finished game’s log for the operator: anyone else reads it without them', async () => {
    const { app } = service();
    const tableId = await createTable(app, { game: 'sevenSuitors', options: { end: 'hands:1' }, bots: [1, 2, 3] });
    const ann = await join(app, tableId, 0, 'Ann');
    expect((await app.inject({ method: 'DELETE', url: `/api/tables/${tableId}/seats/0`, headers: bearer(ann) })).statusCode).toBe(200);
    await waitUntilFinished(app, tableId);
    const joinedBy = async (headers: Record<string, string>) =>
      (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/log`, headers }))
        .json()
        .events.find((event: { data: { player?: { name: string } } }) => event.data.player?.name === 'Ann').data;
    expect(await joinedBy({})).toEqual({ seat: 0, player: { name: 'Ann', bot: false }, schema: EVENT_SCHEMA });
    expect(await joinedBy(ADMIN)).toEqual({ seat: 0, player: { name: 'Ann', bot: false }, holder: sha256Hex(ann), schema: EVENT_SCHEMA });
  });

  it('serves OpenAPI at /docs, metrics at /metrics, and a request id on every answer', async () => {
    const { app } = service();
    await createTable(app, { game: 'antiCupid', bots: [0, 1, 2, 3, 4], turnSeconds: 30 });
    const docs = (await app.inject({ method: 'GET', url: '/docs/json' })).json();
    expect(docs.openapi).toMatch(/^3\./);
    expect(Object.keys(docs.paths)).toEqual(
      expect.arrayContaining(['/api/tables', '/api/tables/{tableId}/commands', '/api/tables/{tableId}/socket', '/api/records']),
    );
    expect((await app.inject({ method: 'GET', url: '/docs/' })).statusCode).toBe(200);
    const metrics = await waitFor(async () => {
      const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
      return /suitors_commands_total\{source="bot",outcome="accepted"\} [1-9]/.test(text) && text;
    }, 'bot moves in the metrics');
    for (const name of ['suitors_tables_active', 'suitors_command_duration_seconds_bucket', 'suitors_sockets_connected{role="seat"}']) {
      expect(metrics).toContain(name);
    }
    const given = await app.inject({ method: 'GET', url: '/api/tables', headers: { 'x-request-id': 'trace-42' } });
    expect(given.headers['x-request-id']).toBe('trace-42');
    const made = await app.inject({ method: 'GET', url: '/api/tables' });
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('the web client', () => {
  it('is served at / from its built folder, beside the API, docs and metrics', async () => {
    const webRoot = mkdtempSync(joinPath(tmpdir(), 'web-dist-'));
    try {
      mkdirSync(joinPath(webRoot, 'assets'));
      writeFileSync(joinPath(webRoot, 'index.html'), '<!doctype html><title>Seven Suitors</title>');
      writeFileSync(joinPath(webRoot, 'assets', 'app.js'), 'console.log(1)');
      const { app } = service({ webRoot });
      const index = await app.inject({ method: 'GET', url: '/' });
      expect(index.statusCode).toBe(200);
      expect(index.headers['content-type']).toContain('text/html');
      expect(index.body).toContain('Seven Suitors');
      expect((await app.inject({ method: 'GET', url: '/assets/app.js' })).statusCode).toBe(200);
      const missing = await app.inject({ method: 'GET', url: '/assets/nope.js' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error).toBe('notFound');
      expect((await app.inject({ method: 'GET', url: '/api/tables' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(200);
    } finally {
      rmSync(webRoot, { recursive: true, force: true });
    }
  });
});

describe('every refusal, with its status and a precise message', () => {
  async function seatedTable(app: TestService['app']) {
    const tableId = await createTable(app, { game: 'sevenSuitors', bots: [1, 2, 3] });
    const token = await join(app, tableId, 0, 'Ann');
    const { view } = (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view`, headers: bearer(token) })).json();
    return { tableId, token, cards: view.hand.cards as string[] };
  }

  it('400: not JSON, not the route’s shape', async () => {
    const { app } = service();
    const { tableId, token } = await seatedTable(app);
    const url = `/api/tables/${tableId}/commands`;
    const post = (payload: string | object, headers: Record<string, string> = {}) =>
      app.inject({ method: 'POST', url, payload, headers: { ...bearer(token), 'content-type': 'application/json', ...headers } });
    const cases: [string | object, Record<string, string>, string][] = [
      ['{"type": "card.played", ', {}, 'the body is not valid JSON'],
      ['', {}, 'the body is empty; send a JSON object'],
      ['card 1-1', { 'content-type': 'text/plain' }, 'the body must be JSON, sent with Content-Type: application/json'],
      [{ type: 'card.played', card: 17 }, {}, 'body.card must be a string, not 17'],
      [{ type: 'card.played' }, {}, 'body is missing "card"'],
      [{ type: 'card.played', card: '1-1', hint: 'x' }, {}, 'body has unknown field "hint"'],
      [
        { type: 'hand.dealt', deal: [] },
        {},
        'body.type must be one of "cards.passed", "card.played", "traitor.accused", "deal.contributed", not "hand.dealt"',
      ],
      [{ type: 'cards.passed', passes: [{ to: 'x', card: '1-1' }] }, {}, 'body.passes[0].to must be an integer, not "x"'],
      ['{"__proto__": {"admin": true}, "type": "card.played", "card": "1-1"}', {}, 'the body is not valid JSON'],
    ];
    for (const [payload, headers, message] of cases) {
      const response = await post(payload, headers);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toEqual({ error: 'badRequest', message });
    }
    const create = await app.inject({ method: 'POST', url: '/api/tables', payload: { game: 'chess' } });
    expect(create.json()).toEqual({
      error: 'badRequest',
      message: 'body.game must be one of "sevenSuitors", "antiCupid", "traitorOfLove", "firstLesson", not "chess"',
    });
    const replay = await app.inject({ method: 'GET', url: `/api/tables/${tableId}/replay?at=zero` });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toBe(
      'query.at must be a whole number written in decimal digits, with no sign or leading zero (like 3), not "zero"',
    );
  });

  it('401: no token, or a token the service does not know', async () => {
    const { app } = service();
    const { tableId, token } = await seatedTable(app);
    const url = `/api/tables/${tableId}/commands`;
    const play = { type: 'card.played', card: '1-1' };
    const none = await app.inject({ method: 'POST', url, payload: play });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({
      error: 'unauthorized',
      message: 'this needs the seat token: send it as "Authorization: Bearer <token>"',
    });
    const forged = `${token.slice(0, 42)}${token.endsWith('x') ? 'y' : 'x'}`;
    const unknown = await app.inject({ method: 'POST', url, payload: play, headers: bearer(forged) });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().message).toContain('the token is not known');
    const basic = await app.inject({ method: 'POST', url, payload: play, headers: { authorization: `Basic ${token}` } });
    expect(basic.statusCode).toBe(401);
    expect(basic.json().message).toBe('send the token as "Authorization: Bearer <token>"');
  });

  it('403: a token for another table or seat, a body naming another seat, a seat token on an admin route', async () => {
    const { app } = service();
    const first = await seatedTable(app);
    const second = await seatedTable(app);
    const play = { type: 'card.played', card: first.cards[0] };
    const otherTable = await app.inject({
      method: 'POST',
      url: `/api/tables/${second.tableId}/commands`,
      payload: play,
      headers: bearer(first.token),
    });
    expect(otherTable.statusCode).toBe(403);
    expect(otherTable.json()).toEqual({ error: 'forbidden', message: `this token is for table ${first.tableId}, not ${second.tableId}` });
    const otherSeat = await app.inject({
      method: 'POST',
      url: `/api/tables/${first.tableId}/commands`,
      payload: { ...play, seat: 1 },
      headers: bearer(first.token),
    });
    expect(otherSeat.json()).toEqual({ error: 'forbidden', message: 'this token holds seat 0; it cannot act for seat 1' });
    const leaveOther = await app.inject({ method: 'DELETE', url: `/api/tables/${first.tableId}/seats/1`, headers: bearer(first.token) });
    expect(leaveOther.statusCode).toBe(403);
    const peek = await app.inject({ method: 'GET', url: `/api/tables/${second.tableId}/view`, headers: bearer(first.token) });
    expect(peek.statusCode).toBe(403);
    const log = await app.inject({ method: 'GET', url: `/api/tables/${first.tableId}/log`, headers: bearer(first.token) });
    expect(log.statusCode).toBe(403);
    expect(log.json().message).toBe('the log of a game in play shows every hand; a seat token cannot read it before the game is over');
    const record = await app.inject({ method: 'GET', url: `/api/tables/${first.tableId}/record`, headers: bearer(first.token) });
    expect(record.statusCode).toBe(403);
    const admin = await app.inject({ method: 'POST', url: `/api/tables/${first.tableId}/commands`, payload: play, headers: ADMIN });
    expect(admin.statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: `/api/tables/${first.tableId}/log`, headers: ADMIN })).statusCode).toBe(200);
  });

  it('404: no such table, no such route', async () => {
    const { app } = service();
    for (const [method, url] of [
      ['GET', '/api/tables/t-nope/view'],
      ['GET', '/api/tables/t-nope/log'],
      ['GET', '/api/tables/t-nope/replay?at=1'],
    ] as const) {
      const response = await app.inject({ method, url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ error: 'unknownTable', message: 'there is no table "t-nope"' });
    }
    const join = await app.inject({ method: 'POST', url: '/api/tables/t-nope/seats/0', payload: { name: 'Ann' } });
    expect(join.json().error).toBe('unknownTable');
    const route = await app.inject({ method: 'GET', url: '/api/chairs?x=1' });
    expect(route.statusCode).toBe(404);
    expect(route.json()).toEqual({ error: 'notFound', message: 'there is no GET /api/chairs; the API is under /api, described at /docs' });
    expect((await app.inject({ method: 'PUT', url: '/api/tables' })).statusCode).toBe(404);
  });

  it('409: not your turn, wrong phase, seat taken, game over, log before the end, replay beyond the log', async () => {
    const { app } = service({ limits: { minTurnSeconds: 0.001 } });
    const { tableId, token, cards } = await seatedTable(app);
    const early = await app.inject({
      method: 'POST',
      url: `/api/tables/${tableId}/commands`,
      payload: { type: 'card.played', card: cards[0] },
      headers: bearer(token),
    });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({
      error: 'notNow',
      message: expect.stringContaining('no card can be played now: the hand is in passing'),
    });
    const taken = await app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/0`, payload: { name: 'Bob' } });
    expect(taken.json()).toEqual({ error: 'notNow', message: 'seat 0 is taken by Ann' });
    const log = await app.inject({ method: 'GET', url: `/api/tables/${tableId}/log` });
    expect(log.statusCode).toBe(409);
    expect(log.json().message).toBe(
      `the log of table ${tableId} opens when its game is over (it is in passing); operators may read it earlier with the admin token`,
    );
    const { version } = (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view` })).json();
    const replay = await app.inject({ method: 'GET', url: `/api/tables/${tableId}/replay?at=999` });
    expect(replay.json()).toEqual({
      error: 'notNow',
      message: `table ${tableId} has ${version} events; replay at 1 to ${version}, not 999`,
    });

    // A turn clock so short the clock plays the whole game for the seated player: their token outlives the game.
    const quick = await createTable(app, { game: 'sevenSuitors', options: { end: 'hands:1' }, bots: [1, 2, 3], turnSeconds: 0.001 });
    const quickToken = await join(app, quick, 0, 'Ann');
    await waitUntilFinished(app, quick);
    const over = await app.inject({
      method: 'POST',
      url: `/api/tables/${quick}/commands`,
      payload: { type: 'card.played', card: '1-1' },
      headers: bearer(quickToken),
    });
    expect(over.statusCode).toBe(409);
    expect(over.json().message).toBe('no card can be played now: the game is over');
    const late = await app.inject({ method: 'POST', url: `/api/tables/${quick}/seats/0`, payload: { name: 'Bob' } });
    expect(late.json()).toEqual({ error: 'notNow', message: `the game at table ${quick} is over; its seats can no longer be taken` });
  });

  it('413: a body over the size limit', async () => {
    const { app } = service();
    const { tableId, token } = await seatedTable(app);
    const big = await app.inject({
      method: 'POST',
      url: `/api/tables/${tableId}/commands`,
      payload: { type: 'card.played', card: 'x'.repeat(20_000) },
      headers: bearer(token),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ error: 'tooLarge', message: 'the body is over the size limit' });
    const record = await app.inject({
      method: 'POST',
      url: '/api/records',
      payload: { format: 'x', game: 'y', pad: 'x'.repeat(1_100_000) },
    });
    expect(record.statusCode).toBe(413);
  });

  it('422: not a command of the game, against the rules, a record that does not verify', async () => {
    const { app } = service();
    const { tableId, token, cards } = await seatedTable(app);
    const url = `/api/tables/${tableId}/commands`;
    const notACard = await app.inject({ method: 'POST', url, payload: { type: 'card.played', card: '9-9' }, headers: bearer(token) });
    expect(notACard.statusCode).toBe(422);
    expect(notACard.json()).toEqual({ error: 'malformed', message: '"9-9" is not a card: suits are 1 to 7' });
    const notHeld = SUIT_DECK.find((card) => !cards.includes(card))!;
    const passes = [1, 2, 3].map((to, i) => ({ to, card: i === 0 ? notHeld : cards[i] }));
    const illegal = await app.inject({ method: 'POST', url, payload: { type: 'cards.passed', passes }, headers: bearer(token) });
    expect(illegal.statusCode).toBe(422);
    expect(illegal.json()).toEqual({ error: 'illegal', message: `${notHeld} is not in seat 0's hand` });
    const accuse = await app.inject({ method: 'POST', url, payload: { type: 'traitor.accused', accused: 2 }, headers: bearer(token) });
    expect(accuse.json()).toEqual({ error: 'illegal', message: 'only A Traitor of Love has accusations' });
    const options = await app.inject({ method: 'POST', url: '/api/tables', payload: { game: 'antiCupid', options: { specials: 'off' } } });
    expect(options.statusCode).toBe(422);
    expect(options.json().message).toContain('specials "off" is impossible in antiCupid');
    const bots = await app.inject({ method: 'POST', url: '/api/tables', payload: { game: 'sevenSuitors', bots: [1, 4] } });
    expect(bots.json()).toEqual({ error: 'malformed', message: 'bots: Seven Suitors has seats 0 to 3, not 4' });
    const seat = await app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/9`, payload: { name: 'Zed' } });
    expect(seat.json()).toEqual({ error: 'malformed', message: 'seat must be from 0 to 3 at a table of Seven Suitors, not 9' });
    const record = await app.inject({
      method: 'POST',
      url: '/api/records',
      payload: { format: 'seven-suitors-record/2', game: 'antiCupid' },
    });
    expect(record.statusCode).toBe(422);
    expect(record.json()).toMatchObject({ error: 'invalidRecord', message: expect.stringContaining('the record does not verify') });
  });

  it('429: too many requests from one client, while other clients are served', async () => {
    // Five requests in each window of 50 s: none comes back while the test runs, however slow the machine.
    const { app } = service({ limits: { requests: { perSecond: 0.1, burst: 5 } } });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++)
      statuses.push((await app.inject({ method: 'GET', url: '/api/tables', remoteAddress: '10.0.0.1' })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    const limited = await app.inject({ method: 'GET', url: '/api/tables', remoteAddress: '10.0.0.1' });
    expect(limited.json()).toEqual({
      error: 'rateLimited',
      message: expect.stringMatching(
        /^too many requests from 10\.0\.0\.1 to GET \/api\/tables \(at most 5 per window\); try again in (49|50) s$/,
      ),
    });
    expect(limited.headers['retry-after']).toMatch(/^(49|50)$/);
    expect((await app.inject({ method: 'GET', url: '/api/tables', remoteAddress: '10.0.0.2' })).statusCode).toBe(200);
  });
});
