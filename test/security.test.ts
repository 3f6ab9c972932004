/**
 * Security checks (issue 8), against the gateway listening on loopback and
 * spoken to as clients speak to it (HTTP and WebSocket): seat tokens are
 * unguessable and scoped to one seat of one table; the routes that show every
 * hand refuse seat tokens and anonymous callers before the game is over;
 * bodies and socket messages over the size limits are refused and change
 * nothing; the rate limits hold per client and per socket; malformed
 * Authorization headers are refused; and no refusal echoes a token or another
 * seat's cards.
 */
import { request as httpRequestRaw } from 'node:http';
import { connect } from 'node:net';
import { Readable, Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { SocketClient } from '../drivers/socketClient.js';
import { waitFor } from '../drivers/polling.js';
import { ADMIN, bearer, httpBaseOf, type startService } from '../drivers/embeddedService.js';
import { httpRequest, type HttpAnswer } from '../drivers/httpClient.js';
import { listeningServices } from './servicesPerTest.js';
import { cardsNamedIn } from './leakChecks.js';

const ADMIN_TOKEN = ADMIN.authorization.replace('Bearer ', '');
const SEATS = { sevenSuitors: 4, antiCupid: 5, traitorOfLove: 6 } as const;
type Game = keyof typeof SEATS;

const gateways = listeningServices();
afterEach(() => gateways.closeAll());

async function setUp(options: Parameters<typeof startService>[0] = {}) {
  const service = await gateways.start(options);
  const { base: socketBase, open } = service;
  const http = httpBaseOf(socketBase);
  const call = (method: string, path: string, options?: { body?: unknown; headers?: Record<string, string> }) =>
    httpRequest(http, method, path, options);
  const refusedUpgrade = (path: string) => SocketClient.refusal(`${socketBase}${path}`);

  /** A table whose every seat a person holds: once dealt, nothing moves until they act, so any change is theirs. */
  const tableOfPeople = async (game: Game = 'sevenSuitors') => {
    const created = await call('POST', '/api/tables', { body: { game } });
    expect(created.status, created.text).toBe(201);
    const { tableId } = created.body as { tableId: string };
    const tokens: string[] = [];
    for (let seat = 0; seat < SEATS[game]; seat++) {
      const joined = await call('POST', `/api/tables/${tableId}/seats/${seat}`, { body: { name: `Player ${seat}` } });
      expect(joined.status, joined.text).toBe(201);
      tokens.push(joined.body.token);
    }
    return { tableId, tokens };
  };

  /** The table as the host holds it: the truth to check that a refusal changed nothing. */
  const tableNow = async (tableId: string) => {
    const { version, snapshot } = await service.host.snapshot(tableId);
    return { version, events: (await service.host.events(tableId)).length, hand: snapshot.context.hand };
  };

  return { ...service, http, call, open, refusedUpgrade, tableOfPeople, tableNow };
}

/** Every answer a refusal test collected, to check at the end that none echoes a secret. */
function expectNoSecretIn(answers: readonly { text: string }[], secrets: readonly string[]): void {
  for (const { text } of answers) {
    for (const secret of secrets) expect(text, 'a refusal echoes a secret').not.toContain(secret);
  }
}

describe('seat tokens', () => {
  it('are 256 bits of randomness, new at every join, shaped alike, and shown to nobody else', async () => {
    const { call, tableOfPeople, open } = await setUp();
    const tables = [await tableOfPeople('traitorOfLove'), await tableOfPeople('traitorOfLove'), await tableOfPeople('sevenSuitors')];
    const tokens = tables.flatMap((table) => table.tokens);
    // Leaving and taking the same seat again gives a new token.
    const first = tables[0];
    await call('DELETE', `/api/tables/${first.tableId}/seats/2`, { headers: bearer(first.tokens[2]) });
    const again = await call('POST', `/api/tables/${first.tableId}/seats/2`, { body: { name: 'Player 2' } });
    expect(again.status, again.text).toBe(201);
    tokens.push(again.body.token);

    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set(tokens).size).toBe(tokens.length);
    const bytes = tokens.map((token) => Buffer.from(token, 'base64url'));
    for (const each of bytes) expect(each.length * 8).toBeGreaterThanOrEqual(256);
    // Random bits: about half are ones (17 tokens x 256 bits: a fair coin stays within 0.45..0.55 but once in 10^11).
    const ones = bytes.reduce((sum, each) => sum + [...each].reduce((count, byte) => count + popCount(byte), 0), 0);
    expect(ones / (bytes.length * 256)).toBeGreaterThan(0.45);
    expect(ones / (bytes.length * 256)).toBeLessThan(0.55);
    // No shared beginnings, as a counter or a timestamp would give.
    const prefixes = tokens.map((token) => token.slice(0, 6));
    expect(new Set(prefixes).size).toBe(tokens.length);
    for (const { tableId } of tables) for (const token of tokens) expect(token).not.toContain(tableId.slice(2));

    // A token is shown to its holder once, and never in the lobby, another seat's view or a socket message.
    const seen: string[] = [(await call('GET', '/api/tables')).text];
    for (const [seat, token] of first.tokens.entries()) {
      if (seat === 2) continue;
      seen.push((await call('GET', `/api/tables/${first.tableId}/view`, { headers: bearer(token) })).text);
    }
    seen.push((await call('GET', `/api/tables/${first.tableId}/view`)).text);
    const watcher = await open(`/api/tables/${first.tableId}/socket?token=${first.tokens[0]}`);
    await watcher.next((message) => message.type === 'view', 'a view');
    seen.push(...watcher.messages.map((message) => JSON.stringify(message)));
    seen.push((await call('GET', '/metrics')).text);
    expectNoSecretIn(
      seen.map((text) => ({ text })),
      [...tokens, ADMIN_TOKEN],
    );
  });

  it('hold one seat of one table: another table’s token is 403, another seat is 403, and the refusal changes nothing', async () => {
    const { call, tableOfPeople, refusedUpgrade, open, tableNow } = await setUp();
    const a = await tableOfPeople();
    const b = await tableOfPeople();
    const before = await tableNow(b.tableId);
    const [ann] = a.tokens;
    const { view } = (await call('GET', `/api/tables/${a.tableId}/view`, { headers: bearer(ann) })).body;
    const pass = { type: 'cards.passed', passes: [1, 2, 3].map((to, i) => ({ to, card: view.hand.cards[i] })) };

    const elsewhere: [string, HttpAnswer][] = [
      ['a command at table B', await call('POST', `/api/tables/${b.tableId}/commands`, { body: pass, headers: bearer(ann) })],
      ['a view of table B', await call('GET', `/api/tables/${b.tableId}/view`, { headers: bearer(ann) })],
      ['leaving a seat of table B', await call('DELETE', `/api/tables/${b.tableId}/seats/0`, { headers: bearer(ann) })],
      ['the log of table B', await call('GET', `/api/tables/${b.tableId}/log`, { headers: bearer(ann) })],
    ];
    for (const [what, answer] of elsewhere) {
      expect(answer.status, what).toBe(403);
      expect(answer.body.error, what).toBe('forbidden');
    }
    const socket = await refusedUpgrade(`/api/tables/${b.tableId}/socket?token=${ann}`);
    expect(socket).toEqual({
      status: 403,
      body: { error: 'forbidden', message: `this token is for table ${a.tableId}, not ${b.tableId}` },
    });

    // Seat 0's token cannot act for seat 1, by HTTP or by socket, nor make seat 1 leave.
    const asOther = await call('POST', `/api/tables/${a.tableId}/commands`, { body: { ...pass, seat: 1 }, headers: bearer(ann) });
    expect(asOther.status).toBe(403);
    expect(asOther.body).toEqual({ error: 'forbidden', message: 'this token holds seat 0; it cannot act for seat 1' });
    const leaveOther = await call('DELETE', `/api/tables/${a.tableId}/seats/1`, { headers: bearer(ann) });
    expect(leaveOther.status).toBe(403);
    const seat = await open(`/api/tables/${a.tableId}/socket?token=${ann}`);
    seat.send({ type: 'command', id: 'as-1', command: { ...pass, seat: 1 } });
    expect(await seat.next((message) => message.id === 'as-1', 'the refusal')).toMatchObject({ type: 'refused', error: 'forbidden' });

    expect(await tableNow(b.tableId)).toEqual(before);
    const a1 = await tableNow(a.tableId);
    expect(a1.hand!.passChoices).toEqual([null, null, null, null]);
    expect((await call('GET', `/api/tables/${a.tableId}/view`, { headers: bearer(a.tokens[1]) })).body.view.seats[1].occupant).toEqual({
      name: 'Player 1',
      bot: false,
    });
  });

  it('of a seat that was left are refused with 401 everywhere, and its sockets are closed', async () => {
    const { call, tableOfPeople, refusedUpgrade, open, tableNow } = await setUp();
    const { tableId, tokens } = await tableOfPeople('antiCupid');
    const [ann] = tokens;
    const socket = await open(`/api/tables/${tableId}/socket?token=${ann}`);
    await socket.next((message) => message.type === 'view', 'a view');
    expect((await call('DELETE', `/api/tables/${tableId}/seats/0`, { headers: bearer(ann) })).status).toBe(200);
    await waitFor(() => socket.closed, 'the socket to close');
    expect(socket.closed?.code).toBe(4001);
    const after = await tableNow(tableId);

    const stale: [string, HttpAnswer][] = [
      [
        'a command',
        await call('POST', `/api/tables/${tableId}/commands`, { body: { type: 'card.played', card: '1-1' }, headers: bearer(ann) }),
      ],
      ['a view', await call('GET', `/api/tables/${tableId}/view`, { headers: bearer(ann) })],
      ['leaving again', await call('DELETE', `/api/tables/${tableId}/seats/0`, { headers: bearer(ann) })],
      ['the log', await call('GET', `/api/tables/${tableId}/log`, { headers: bearer(ann) })],
    ];
    for (const [what, answer] of stale) {
      expect(answer.status, what).toBe(401);
      expect(answer.body.error, what).toBe('unauthorized');
    }
    expect((await refusedUpgrade(`/api/tables/${tableId}/socket?token=${ann}`)).status).toBe(401);
    expect(await tableNow(tableId)).toEqual(after);
    expectNoSecretIn(
      stale.map(([, answer]) => answer),
      [ann, ADMIN_TOKEN],
    );
  });
});

describe('routes that show every hand', () => {
  it('refuse a game in play to seat tokens (403), anonymous callers (409, as docs/api.md says) and unknown tokens (401); the admin token reads them', async () => {
    const { call, tableOfPeople } = await setUp();
    const { tableId, tokens } = await tableOfPeople('traitorOfLove');
    const other = await tableOfPeople();
    for (const what of ['log', 'record']) {
      const path = `/api/tables/${tableId}/${what}`;
      const cases: [string, Record<string, string>, number][] = [
        ['a seat token of the table', bearer(tokens[3]), 403],
        ['a seat token of another table', bearer(other.tokens[0]), 403],
        ['nobody', {}, 409],
        ['an unknown token', bearer('A'.repeat(43)), 401],
        ['the admin token in other letters', bearer(ADMIN_TOKEN.toUpperCase()), 401],
        ['the admin token as Basic', { authorization: `Basic ${ADMIN_TOKEN}` }, 401],
      ];
      for (const [who, headers, status] of cases) {
        const answer = await call('GET', path, { headers });
        expect(answer.status, `the ${what} to ${who}`).toBe(status);
        expect(cardsNamedIn(answer.text), `the ${what} refused to ${who}`).toEqual([]);
      }
      expect((await call('GET', path, { headers: ADMIN })).status).toBe(200);
    }
    // The admin token reads; it never acts for a seat, nor frees one.
    const act = await call('POST', `/api/tables/${tableId}/commands`, { body: { type: 'card.played', card: '1-1' }, headers: ADMIN });
    expect(act.status).toBe(403);
    expect((await call('DELETE', `/api/tables/${tableId}/seats/0`, { headers: ADMIN })).status).toBe(403);
    // Its view is the spectator's: no hand.
    const view = (await call('GET', `/api/tables/${tableId}/view`, { headers: ADMIN })).body.view;
    expect(view.viewer).toBe('spectator');
    expect(view.hand.cards).toBeNull();
  });

  it('have no admin at all when no admin token is set', async () => {
    const { call, tableOfPeople } = await setUp({ adminToken: undefined });
    const { tableId } = await tableOfPeople();
    expect((await call('GET', `/api/tables/${tableId}/log`, { headers: ADMIN })).status).toBe(401);
    expect((await call('GET', `/api/tables/${tableId}/log`, { headers: bearer('') })).status).toBe(401);
  });
});

describe('request bodies over the size limit', () => {
  it('are refused with 413 and change nothing: commands, new tables, joining (16 KiB), sent whole or in chunks', async () => {
    const { call, http, tableOfPeople, tableNow } = await setUp();
    const { tableId, tokens } = await tableOfPeople();
    const open = await call('POST', '/api/tables', { body: { game: 'antiCupid' } });
    const before = await tableNow(tableId);
    const lobby = (await call('GET', '/api/tables')).body.tables.length;
    const { view } = (await call('GET', `/api/tables/${tableId}/view`, { headers: bearer(tokens[0]) })).body;
    // A real pass, padded: the service must not apply it.
    const pass = { type: 'cards.passed', passes: [1, 2, 3].map((to, i) => ({ to, card: view.hand.cards[i] })) };
    const padded = JSON.stringify(pass).replace(/}$/, `${' '.repeat(17 * 1024)}}`);
    const cases: [string, () => Promise<HttpAnswer>][] = [
      ['a command', () => call('POST', `/api/tables/${tableId}/commands`, { body: padded, headers: bearer(tokens[0]) })],
      ['a command in chunks, without a Content-Length', () => chunked(`${http}/api/tables/${tableId}/commands`, padded, bearer(tokens[0]))],
      [
        'a new table',
        () => call('POST', '/api/tables', { body: JSON.stringify({ game: 'sevenSuitors' }).replace(/}$/, `${' '.repeat(17 * 1024)}}`) }),
      ],
      ['a name', () => call('POST', `/api/tables/${open.body.tableId}/seats/0`, { body: { name: 'x'.repeat(17 * 1024) } })],
    ];
    for (const [what, send] of cases) {
      const answer = await send();
      expect(answer.status, what).toBe(413);
      expect(answer.body, what).toEqual({ error: 'tooLarge', message: 'the body is over the size limit' });
    }
    expect(await tableNow(tableId)).toEqual(before);
    expect((await call('GET', '/api/tables')).body.tables.length).toBe(lobby);
    expect((await call('GET', `/api/tables/${open.body.tableId}/view`)).body.view.seats[0].occupant).toBeNull();
    // The same pass at its own size is taken.
    expect((await call('POST', `/api/tables/${tableId}/commands`, { body: pass, headers: bearer(tokens[0]) })).status).toBe(200);
  });

  it('of a record: its own limit is 1 MiB; over it, 413 and no table', async () => {
    const { call } = await setUp();
    const created = await call('POST', '/api/tables', { body: { game: 'sevenSuitors', options: { end: 'hands:1' }, bots: [0, 1, 2, 3] } });
    const { tableId } = created.body;
    const record = await waitFor(async () => {
      const answer = await call('GET', `/api/tables/${tableId}/record`);
      return answer.status === 200 && answer.text;
    }, 'the game to end');
    const lobby = (await call('GET', '/api/tables')).body.tables.length;
    // JSON allows any whitespace: the same record, padded past the command limit, is under the record's.
    const within = await call('POST', '/api/records', { body: record.replace(/}$/, `${' '.repeat(200 * 1024)}}`) });
    expect(within.status, within.text).toBe(201);
    const over = await call('POST', '/api/records', { body: record.replace(/}$/, `${' '.repeat(1024 * 1024)}}`) });
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ error: 'tooLarge', message: 'the body is over the size limit' });
    expect((await call('GET', '/api/tables')).body.tables.length).toBe(lobby + 1);
  });
});

describe('rate limits', () => {
  it('per client address and route, as the router routed it: 429 with Retry-After past the limit, for commands, new tables and socket upgrades alike, whatever X-Forwarded-For says or however the path is spelled; the command is not applied; another address is served', async () => {
    // Windows of a hundred seconds: no request comes back while the test runs, however slow the machine.
    const limits = {
      requests: { perSecond: 0.05, burst: 5 },
      routes: {
        createTable: { perSecond: 0.01, burst: 1 },
        joinSeat: { perSecond: 0.04, burst: 4 },
        openSocket: { perSecond: 0.01, burst: 1 },
      },
    };
    const { call, refusedUpgrade, http, tableNow, host } = await setUp({ limits });
    const created = await call('POST', '/api/tables', { body: { game: 'sevenSuitors' } });
    const { tableId } = created.body;
    // The second table is one too many for createTable, however the path is spelled.
    for (const path of ['/api/tables', '/%61pi/tables', '/api/%74ables']) {
      const another = await call('POST', path, { body: { game: 'sevenSuitors' } });
      expect(another.status, path).toBe(429);
      expect(another.body.error).toBe('rateLimited');
      expect(another.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    }
    expect(await host.listTables()).toHaveLength(1);
    const tokens: string[] = [];
    for (let seat = 0; seat < 4; seat++)
      tokens.push((await call('POST', `/api/tables/${tableId}/seats/${seat}`, { body: { name: `P${seat}` } })).body.token);
    const { view } = (await call('GET', `/api/tables/${tableId}/view`, { headers: bearer(tokens[0]) })).body;
    const pass = { type: 'cards.passed', passes: [1, 2, 3].map((to, i) => ({ to, card: view.hand.cards[i] })) };

    // Commands have a count of their own (5 here): four refusals spend it, the fifth answer is the last before 429.
    for (let i = 0; i < 5; i++)
      expect(
        (
          await call('POST', `/%61pi/tables/${tableId}/commands`, {
            body: { type: 'card.played', card: '1-1' },
            headers: bearer(tokens[0]),
          })
        ).status,
      ).toBe(409);
    const limited = await call('POST', `/api/tables/${tableId}/commands`, { body: pass, headers: bearer(tokens[0]) });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      error: 'rateLimited',
      message: expect.stringMatching(/^too many requests from 127\.0\.0\.1 to POST \/api\/tables\/:tableId\/commands/),
    });
    expect((await tableNow(tableId)).hand!.passChoices![0]).toBeNull();
    // The lobby still has its own count.
    expect((await call('GET', '/api/tables')).status).toBe(200);

    // One socket upgrade per window: the first is let through, the next refused, and the service ends a refused upgrade itself.
    expect(await upgradeAnswer(http, `/api/tables/${tableId}/socket`, { keepOpenMs: 200 })).toMatch(/^HTTP\/1\.1 101 /);
    expect((await refusedUpgrade(`/api/tables/${tableId}/socket?token=${tokens[0]}`)).status).toBe(429);
    expect(await upgradeAnswer(http, `/%61pi/tables/${tableId}/socket`)).toMatch(/^HTTP\/1\.1 429 /);
    const spoofed = await call('POST', '/api/tables', {
      body: { game: 'sevenSuitors' },
      headers: { 'x-forwarded-for': '203.0.113.9', 'x-real-ip': '203.0.113.9' },
    });
    expect(spoofed.status).toBe(429);
    // Another loopback address is another client, with its own counts.
    expect(await statusFrom('127.0.0.2', `${http}/api/tables`, 'POST')).toBe(201);
  });

  it('per socket: messages past the burst are refused (rateLimited) and not applied; the socket is served again after a pause', async () => {
    const { tableOfPeople, open, tableNow } = await setUp();
    const { tableId, tokens } = await tableOfPeople();
    const seat = await open(`/api/tables/${tableId}/socket?token=${tokens[0]}`);
    const { view } = await seat.next((message) => message.type === 'view', 'the first view');
    const pass = { type: 'cards.passed', passes: [1, 2, 3].map((to, i) => ({ to, card: view.hand.cards[i] })) };
    // The default limit (docs/api.md): 20 at once, 5 a second after. 30 quick messages, then the real pass.
    for (let i = 0; i < 30; i++) seat.send({ type: 'command', id: i, command: { type: 'card.played', card: '1-1' } });
    seat.send({ type: 'command', id: 'pass', command: pass });
    const replies = await waitFor(() => {
      const answers = seat.messages.filter((message) => message.type !== 'view');
      return answers.length === 31 && answers;
    }, 'an answer to each message');
    // Refusals of the rate are sent at once, answers after the table is asked: count them, not their order.
    const limited = replies.filter((reply) => reply.error === 'rateLimited');
    const answered = replies.filter((reply) => reply.error === 'notNow');
    expect(answered.length).toBeGreaterThanOrEqual(20);
    // A slow machine may refill a few tokens while the messages arrive, never most of them.
    expect(limited.length).toBeGreaterThanOrEqual(5);
    expect(limited.length + answered.length, 'the pass is refused too').toBe(31);
    expect(limited[0]).toEqual({
      type: 'refused',
      id: null,
      error: 'rateLimited',
      message: 'at most 5 messages a second (bursts of 20); slow down',
    });
    expect((await tableNow(tableId)).hand!.passChoices![0]).toBeNull();

    await new Promise((resolve) => setTimeout(resolve, 600));
    seat.send({ type: 'command', id: 'again', command: pass });
    expect(await seat.next((message) => message.id === 'again', 'the pass')).toMatchObject({ type: 'accepted' });
    expect(seat.closed).toBeNull();
  });

  it('per socket: a socket that keeps flooding is closed with 1008; the same seat’s other socket and the table are untouched', async () => {
    const { tableOfPeople, open, tableNow } = await setUp();
    const { tableId, tokens } = await tableOfPeople();
    const flooder = await open(`/api/tables/${tableId}/socket?token=${tokens[1]}`);
    const calm = await open(`/api/tables/${tableId}/socket?token=${tokens[1]}`);
    const spectator = await open(`/api/tables/${tableId}/socket`);
    const { view } = await calm.next((message) => message.type === 'view', 'a view');
    const before = await tableNow(tableId);
    for (let i = 0; i < 200; i++) flooder.send({ type: 'command', id: i, command: { type: 'card.played', card: '1-1' } });
    for (let i = 0; i < 200; i++) spectator.send({ type: 'command', id: i, command: { type: 'card.played', card: '1-1' } });
    await waitFor(() => flooder.closed && spectator.closed, 'the flooding sockets to close');
    expect(flooder.closed).toEqual({ code: 1008, reason: 'too many messages' });
    expect(spectator.closed).toEqual({ code: 1008, reason: 'too many messages' });
    expect(await tableNow(tableId)).toEqual(before);
    const pass = { type: 'cards.passed', passes: [2, 3, 0].map((to, i) => ({ to, card: view.hand.cards[i] })) };
    calm.send({ type: 'command', id: 'pass', command: pass });
    expect(await calm.next((message) => message.id === 'pass', 'the pass')).toMatchObject({ type: 'accepted' });
  });
});

describe('WebSocket messages over the size limit', () => {
  it('close the socket with 1009 (16 KiB by default) and change nothing; a message under it is answered', async () => {
    const { tableOfPeople, open, tableNow } = await setUp();
    const { tableId, tokens } = await tableOfPeople();
    const seat = await open(`/api/tables/${tableId}/socket?token=${tokens[0]}`);
    const { view } = await seat.next((message) => message.type === 'view', 'a view');
    const pass = { type: 'cards.passed', passes: [1, 2, 3].map((to, i) => ({ to, card: view.hand.cards[i] })) };
    const before = await tableNow(tableId);
    // Whitespace keeps it a valid command: only its size is wrong.
    seat.send(JSON.stringify({ type: 'command', id: 'big', command: pass }).replace(/}$/, `${' '.repeat(15 * 1024)}}`));
    expect(await seat.next((message) => message.id === 'big', 'the answer under the limit')).toMatchObject({ type: 'accepted' });
    const accepted = await tableNow(tableId);
    expect(accepted.version).toBeGreaterThan(before.version);

    const other = await open(`/api/tables/${tableId}/socket?token=${tokens[1]}`);
    const theirs = await other.next((message) => message.type === 'view', 'a view');
    const theirPass = { type: 'cards.passed', passes: [2, 3, 0].map((to, i) => ({ to, card: theirs.view.hand.cards[i] })) };
    other.send(JSON.stringify({ type: 'command', id: 'huge', command: theirPass }).replace(/}$/, `${' '.repeat(17 * 1024)}}`));
    await waitFor(() => other.closed, 'the socket to close');
    expect(other.closed?.code).toBe(1009);
    expect(other.messages.some((message) => message.id === 'huge')).toBe(false);
    expect(await tableNow(tableId)).toEqual(accepted);
  });
});

describe('malformed Authorization headers', () => {
  it('are refused with 401 on every route that reads one, and the refusal repeats none of the header', async () => {
    const { call, tableOfPeople } = await setUp();
    const { tableId, tokens } = await tableOfPeople();
    const [token] = tokens;
    const headers = [
      'Bearer',
      'Bearer ',
      `Bearer ${token} ${token}`,
      `Basic ${token}`,
      `Token ${token}`,
      token,
      `Bearer ${token}x`,
      `Bearer ${token.slice(0, 42)}`,
      `Bearer ${'A'.repeat(8000)}`,
      `Bearer ${ADMIN_TOKEN}x`,
      `Bearer "${token}"`,
      `Bearer ${token},Bearer ${ADMIN_TOKEN}`,
    ];
    const answers: HttpAnswer[] = [];
    for (const authorization of headers) {
      for (const [method, path, body] of [
        ['GET', `/api/tables/${tableId}/view`, undefined],
        ['POST', `/api/tables/${tableId}/commands`, { type: 'card.played', card: '1-1' }],
        ['DELETE', `/api/tables/${tableId}/seats/0`, undefined],
        ['GET', `/api/tables/${tableId}/log`, undefined],
        ['GET', `/api/tables/${tableId}/record`, undefined],
      ] as const) {
        const answer = await call(method, path, { body, headers: { authorization } });
        expect(answer.status, `${method} ${path} with "${authorization.slice(0, 60)}"`).toBe(401);
        expect(answer.body.error).toBe('unauthorized');
        answers.push(answer);
      }
    }
    expectNoSecretIn(answers, [token, ADMIN_TOKEN, 'A'.repeat(43)]);
    // Still seated: nothing above was taken for a leave.
    expect((await call('GET', `/api/tables/${tableId}/view`, { headers: bearer(token) })).body.view.viewer).toBe(0);
  });
});

describe('refusals and the service log', () => {
  it('never repeat a token, in a header, in a socket URL (even one the router cannot read) or in a body, nor another seat’s cards', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const { call, http, tableOfPeople, refusedUpgrade, open, host } = await setUp({ logger: pino({ level: 'debug' }, sink) });
    const { tableId, tokens } = await tableOfPeople();
    const [token] = tokens;
    const forged = `${token.slice(0, 42)}${token.endsWith('A') ? 'B' : 'A'}`;
    const socketPath = `/api/tables/${tableId}/socket`;
    const refusals: { text: string }[] = [];
    // Tokens where a token goes, but wrong: too long, twice, forged, the admin's beside a seat's.
    for (const query of [
      `token=${token}${'x'.repeat(60)}`,
      `token=${token}&token=${ADMIN_TOKEN}`,
      `token=${ADMIN_TOKEN}&token=${token}`,
      `token=${forged}`,
      `token=${token}&after=soon`,
      `token=${token}&spy=1`,
    ]) {
      const refusal = await refusedUpgrade(`${socketPath}?${query}`);
      expect(refusal.status, query).toBeGreaterThanOrEqual(400);
      expect(refusal.status, query).toBeLessThan(500);
      refusals.push({ text: JSON.stringify(refusal.body) });
    }
    // A path the router cannot read, with a token in the query: refused as every refusal is, without the URL, and the
    // refused upgrade is closed by the service.
    for (const path of [`/api/tables/%/socket?token=${token}`, `/api/tables/${'t'.repeat(120)}/socket?token=${token}`]) {
      const refusal = await refusedUpgrade(path);
      expect(refusal.status, path).toBe(400);
      expect(refusal.body.error, path).toBe('badRequest');
      refusals.push({ text: JSON.stringify(refusal.body) });
      expect(await upgradeAnswer(http, path)).toMatch(/^HTTP\/1\.1 400 /);
      const plain = await call('GET', path.replace('/socket', '/view'));
      expect(plain.status).toBe(400);
      refusals.push(plain);
    }
    const { snapshot } = await host.snapshot(tableId);
    const othersCards = snapshot.context.hand!.holdings.slice(1).flat();
    const { view } = (await call('GET', `/api/tables/${tableId}/view`, { headers: bearer(token) })).body;
    const theirs = othersCards[0];
    for (const [body, headers] of [
      [{ type: 'card.played', card: theirs }, bearer(token)],
      [
        {
          type: 'cards.passed',
          passes: [
            { to: 1, card: theirs },
            { to: 2, card: view.hand.cards[1] },
            { to: 3, card: view.hand.cards[2] },
          ],
        },
        bearer(token),
      ],
      [{ type: 'cards.passed', passes: [{ to: 1, card: view.hand.cards[0] }] }, bearer(token)],
      [{ type: 'traitor.accused', accused: 2 }, bearer(token)],
      [{ type: 'card.played', card: theirs }, bearer(forged)],
      [{ type: 'card.played', card: theirs }, ADMIN],
      [{ type: 'card.played', card: theirs, seat: 1 }, bearer(token)],
    ] as const) {
      const answer = await call('POST', `/api/tables/${tableId}/commands`, { body, headers });
      expect(answer.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      refusals.push(answer);
      // A refusal names the card the command named, or the seat's own; never who else holds what.
      for (const card of cardsNamedIn(answer.body.message)) expect([theirs, ...view.hand.cards]).toContain(card);
    }
    const seat = await open(`${socketPath}?token=${token}`);
    seat.send({ type: 'command', id: 'theirs', command: { type: 'card.played', card: theirs } });
    refusals.push({ text: JSON.stringify(await seat.next((message) => message.id === 'theirs', 'the refusal')) });

    expectNoSecretIn(refusals, [token, forged, ADMIN_TOKEN]);
    for (const { text } of refusals) for (const card of cardsNamedIn(text)) expect([theirs, ...view.hand.cards]).toContain(card);
    const log = lines.join('');
    expect(log).toContain('"reqId"');
    for (const secret of [token, forged, ADMIN_TOKEN]) expect(log, 'the service log holds a token').not.toContain(secret);
  });
});

function popCount(byte: number): number {
  let count = 0;
  for (let bits = byte; bits > 0; bits >>= 1) count += bits & 1;
  return count;
}

/** A JSON body streamed in small chunks with no Content-Length, as a client may send it. */
async function chunked(url: string, body: string, headers: Record<string, string>): Promise<HttpAnswer> {
  const chunks = body.match(/[\s\S]{1,1024}/g) ?? [];
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: Readable.toWeb(Readable.from(chunks)) as unknown as BodyInit,
    duplex: 'half',
  } as RequestInit);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: JSON.parse(text) };
}

/**
 * A WebSocket upgrade sent by hand that the client never closes: resolves
 * with the answer once the service closes the connection, as it must after
 * refusing; fails if the connection is still open after a few seconds.
 */
/** The service's answer to a WebSocket upgrade; with `keepOpenMs`, an upgrade let through is ended by the client after that long. */
function upgradeAnswer(http: string, path: string, { keepOpenMs }: { keepOpenMs?: number } = {}): Promise<string> {
  const { hostname, port } = new URL(http);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    if (keepOpenMs !== undefined) socket.once('data', () => setTimeout(() => socket.destroy(), keepOpenMs));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the refused upgrade of ${path} is still open: ${answer.split('\r\n')[0]}`));
    }, 5000);
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.on('error', () => undefined);
    socket.write(
      [
        `GET ${path} HTTP/1.1`,
        `Host: ${hostname}:${port}`,
        'Connection: Upgrade',
        'Upgrade: websocket',
        'Sec-WebSocket-Version: 13',
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
        '',
        '',
      ].join('\r\n'),
    );
  });
}

/** The status of a GET sent from another loopback address: another client, as the rate limit counts them. */
function statusFrom(localAddress: string, url: string, method = 'GET'): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = method === 'POST' ? JSON.stringify({ game: 'sevenSuitors' }) : undefined;
    const sent = httpRequestRaw(
      url,
      { localAddress, method, headers: body === undefined ? {} : { 'content-type': 'application/json' } },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}
