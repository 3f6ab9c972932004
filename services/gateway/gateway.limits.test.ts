/**
 * What a hostile client may send and cost (issue 13): strict whole numbers
 * everywhere, a minimum turn clock, static paths that step out of the web
 * client's folder, tokens in any spelling kept out of the log, a cap on
 * sockets per client, limits on every route that costs something, the
 * client's address behind a trusted proxy, and load shedding.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequestRaw } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { urlForLog } from './requestLog.js';
import { SocketClient } from '../../drivers/socketClient.js';
import { waitFor } from '../../drivers/polling.js';
import { bearer, httpBaseOf } from '../../drivers/embeddedService.js';
import { httpRequest } from '../../drivers/httpClient.js';
import { listeningServices } from '../../test/servicesPerTest.js';

const gateways = listeningServices();
const folders: string[] = [];
afterEach(async () => {
  await gateways.closeAll();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A logger whose lines are kept, to read what the service logged. */
function keptLog() {
  const lines: { level: number; msg: string; [key: string]: unknown }[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line !== '') lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines, text: () => lines.map((line) => JSON.stringify(line)).join('\n') };
}

/** A GET sent as written (fetch would tidy `/../` away), from a given loopback address. */
function rawGet(
  base: string,
  path: string,
  { localAddress = '127.0.0.1', headers = {} }: { localAddress?: string; headers?: Record<string, string> } = {},
) {
  const { hostname, port } = new URL(base);
  // biome-ignore lint/suspicious/noExplicitAny: the test reads fields of whatever JSON came back
  return new Promise<{ status: number; headers: Record<string, unknown>; body: any }>((resolve, reject) => {
    const sent = httpRequestRaw({ host: hostname, port, path, localAddress, headers }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: kept as text
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
      });
    });
    sent.on('error', reject);
    sent.end();
  });
}

async function start(options: Parameters<typeof gateways.start>[0] = {}) {
  const service = await gateways.start(options);
  const http = httpBaseOf(service.base);
  const call = (method: string, path: string, extra?: { body?: unknown; headers?: Record<string, string> }) =>
    httpRequest(http, method, path, extra);
  return { ...service, http, call };
}

describe('whole numbers', () => {
  it('in the path, the query and the socket query are decimal digits and nothing else: anything else is 400, says what was wrong, and changes nothing', async () => {
    const { call, base, host } = await start();
    const { tableId } = (await call('POST', '/api/tables', { body: { game: 'sevenSuitors' } })).body;
    for (const seat of ['%20', '1.5', '0x1', '1e0', '+1', '', '-0', '01', '00', '-1']) {
      const joined = await call('POST', `/api/tables/${tableId}/seats/${seat}`, { body: { name: 'Eve' } });
      expect(joined.status, seat).toBe(400);
      expect(joined.body).toEqual({
        error: 'badRequest',
        message: `params.seat must be a whole number written in decimal digits, with no sign or leading zero (like 3), not ${JSON.stringify(decodeURIComponent(seat))}`,
      });
    }
    expect((await host.snapshot(tableId)).snapshot.context.occupants).toEqual([null, null, null, null]);
    for (const at of ['1.5', '0x1', ' 1', '1e0', '05', '-0', '01']) {
      const replay = await call('GET', `/api/tables/${tableId}/replay?at=${encodeURIComponent(at)}`);
      expect(replay.status, at).toBe(400);
      expect(replay.body.message).toBe(
        `query.at must be a whole number written in decimal digits, with no sign or leading zero (like 3), not ${JSON.stringify(at)}`,
      );
    }
    expect((await call('GET', `/api/tables/${tableId}/replay?at=1`)).status).toBe(200);
    for (const after of ['', '1.5', '0x10', '00', '-0']) {
      const refused = await SocketClient.refusal(`${base}/api/tables/${tableId}/socket?after=${after}`);
      expect(refused.status, after).toBe(400);
      expect(refused.body.message).toBe(
        `query.after must be a whole number written in decimal digits, with no sign or leading zero (like 3), not ${JSON.stringify(after)}`,
      );
    }
    const socket = await SocketClient.open(`${base}/api/tables/${tableId}/socket?after=0`);
    await socket.next((message) => message.type === 'view', 'the view');
    await socket.close();
  });

  it('in a body and a socket message are JSON integers, never read from a string or cut from a fraction: 400, and nothing changes', async () => {
    const { call, base, host } = await start();
    const { tableId } = (await call('POST', '/api/tables', { body: { game: 'sevenSuitors', bots: [1, 2, 3] } })).body;
    const { token } = (await call('POST', `/api/tables/${tableId}/seats/0`, { body: { name: 'Ann' } })).body;
    const { view } = (await call('GET', `/api/tables/${tableId}/view`, { headers: bearer(token) })).body;
    const card = view.hand.cards[0] as string;
    const commands: [unknown, string][] = [
      [{ type: 'cards.passed', seat: '0', passes: [{ to: 1, card }] }, 'seat must be an integer, not "0"'],
      [{ type: 'cards.passed', seat: 0.5, passes: [{ to: 1, card }] }, 'seat must be an integer, not 0.5'],
      [{ type: 'cards.passed', passes: [{ to: 1.5, card }] }, 'passes[0].to must be an integer, not 1.5'],
      [{ type: 'cards.passed', passes: [{ to: '0x1', card }] }, 'passes[0].to must be an integer, not "0x1"'],
    ];
    const socket = await SocketClient.open(`${base}/api/tables/${tableId}/socket?token=${token}`);
    await socket.next((message) => message.type === 'view', 'the seat view');
    for (const [command, problem] of commands) {
      const posted = await call('POST', `/api/tables/${tableId}/commands`, { body: command, headers: bearer(token) });
      expect(posted.status, JSON.stringify(command)).toBe(400);
      expect(posted.body).toEqual({ error: 'badRequest', message: `body.${problem}` });
      const sent = await socket.request(JSON.stringify({ type: 'command', id: 'c', command }));
      expect(sent, JSON.stringify(command)).toEqual({ type: 'refused', id: 'c', error: 'badRequest', message: `command.${problem}` });
    }
    await socket.close();
    // The bots pass meanwhile; seat 0 has not.
    const { hand } = (await host.snapshot(tableId)).snapshot.context;
    expect(hand!.passChoices?.[0] ?? null).toBeNull();
    expect(hand!.holdings[0]).toContain(card);
    const tables: [unknown, string][] = [
      [{ game: 'sevenSuitors', turnSeconds: '30' }, 'body.turnSeconds must be a number, not "30"'],
      [
        { game: 'sevenSuitors', bots: [{ seat: 1.5, kind: 'random' }] },
        'body.bots[0] must be a seat number, or { "seat": <seat>, "kind": "heuristic" | "random" }, not {"seat":1.5,"kind":"random"}',
      ],
    ];
    for (const [body, message] of tables) {
      const created = await call('POST', '/api/tables', { body });
      expect(created.status, JSON.stringify(body)).toBe(400);
      expect(created.body).toEqual({ error: 'badRequest', message });
    }
  });
});

describe('the turn clock', () => {
  it('is at least the documented minimum (5 s by default): a shorter one is 400 naming the minimum, and no table is made', async () => {
    const { call, host } = await start();
    for (const turnSeconds of [1e-9, 0.5, 4.99]) {
      const created = await call('POST', '/api/tables', { body: { game: 'sevenSuitors', turnSeconds } });
      expect(created.status).toBe(400);
      expect(created.body).toEqual({
        error: 'badRequest',
        message: `body.turnSeconds must be at least 5 (the shortest turn clock: a person needs time to see it is their turn), not ${turnSeconds}`,
      });
    }
    expect(await host.listTables()).toEqual([]);
    expect((await call('POST', '/api/tables', { body: { game: 'sevenSuitors', turnSeconds: 5 } })).status).toBe(201);
  });
});

describe('static paths that step out of the web client', () => {
  it('are 404 with the standard body, logged at info without a stack, never 500', async () => {
    const webRoot = mkdtempSync(join(tmpdir(), 'web-dist-'));
    folders.push(webRoot);
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>Seven Suitors</title>');
    const log = keptLog();
    const { http } = await start({ webRoot, logger: log.logger });
    for (const path of [
      '/../package.json',
      '/%2e%2e/package.json',
      '//api/tables',
      '/.%2e/package.json',
      '/assets/../../package.json',
      '/%2e%2e%2fpackage.json',
    ]) {
      const answer = await rawGet(http, path);
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).toEqual({ error: 'notFound', message: expect.any(String) });
    }
    expect(log.lines.filter((line) => line.level >= 40)).toEqual([]);
    expect(log.text()).not.toContain('stack');
    expect((await rawGet(http, '/index.html')).status).toBe(200);
  });
});

describe('the request log', () => {
  it('redacts every query value but the plain numbers, whatever spelling a token comes under', () => {
    expect(urlForLog('/api/tables/t-1/socket?%74oken=abc&after=3')).toBe('/api/tables/t-1/socket?%74oken=<redacted>&after=3');
    expect(urlForLog('/api/tables/t-1/socket?tok%65n=abc')).toBe('/api/tables/t-1/socket?tok%65n=<redacted>');
    // A token sent where a number goes (by mistake, or to get it logged) is not written out either.
    expect(urlForLog('/api/tables/t-1/socket?after=abcDEF_123&at=4&seat')).toBe('/api/tables/t-1/socket?after=<redacted>&at=4&<redacted>');
    expect(urlForLog('/api/tables/t-1/socket?token=abc&token=def')).toBe('/api/tables/t-1/socket?token=<redacted>&token=<redacted>');
    expect(urlForLog('/api/tables/t-1/socket?abc')).toBe('/api/tables/t-1/socket?<redacted>');
    expect(urlForLog('/api/tables/t-1/replay?at=3')).toBe('/api/tables/t-1/replay?at=3');
    expect(urlForLog('/api/tables?%zz=1')).toBe('/api/tables?%zz=<redacted>');
  });

  it('never holds a seat token sent as `%74oken`, which the router reads as `token`', async () => {
    const log = keptLog();
    const { call, base } = await start({ logger: log.logger });
    const { tableId } = (await call('POST', '/api/tables', { body: { game: 'sevenSuitors', bots: [1, 2, 3] } })).body;
    const { token } = (await call('POST', `/api/tables/${tableId}/seats/0`, { body: { name: 'Ann' } })).body;
    const socket = await SocketClient.open(`${base}/api/tables/${tableId}/socket?%74oken=${token}`);
    const { view } = await socket.next((message) => message.type === 'view', 'the seat view');
    expect(view.hand.cards.length).toBeGreaterThan(0); // accepted as the seat's token
    await socket.close();
    await waitFor(
      () => log.lines.some((line) => String((line.req as { url?: string } | undefined)?.url ?? '').includes('%74oken=<redacted>')),
      'the request logged',
    );
    expect(log.text()).not.toContain(token);
  });
});

describe('sockets per client', () => {
  it('are capped: past the cap an upgrade is 429; closing one lets the next in; another client is not held back', async () => {
    const { call, base, http } = await start({ limits: { socketsPerClient: 2 } });
    const { tableId } = (await call('POST', '/api/tables', { body: { game: 'sevenSuitors' } })).body;
    const url = `${base}/api/tables/${tableId}/socket`;
    const first = await SocketClient.open(url);
    await SocketClient.open(url);
    const refused = await SocketClient.refusal(url);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: 'rateLimited',
      message: '127.0.0.1 has 2 sockets open, the most one client may; close one before opening another',
    });
    // Another address is another client, with sockets of its own.
    const other = await SocketClient.open(url, { localAddress: '127.0.0.2' });
    await other.close();
    await first.close();
    const again = await waitFor(() => SocketClient.open(url).catch(() => null), 'a socket slot given back');
    await again.close();
    // Plain GETs of the socket route hold no slot.
    for (let i = 0; i < 3; i++) expect((await rawGet(http, `/api/tables/${tableId}/socket`)).status).toBe(400);
  });
});

describe('a client that does not read its socket', () => {
  it('is closed (1008, saying why) once what waits for it passes the cap; the table and its other sockets go on', async () => {
    const unsentCap = 64 * 1024;
    const log = keptLog();
    const { call, base } = await start({ logger: log.logger, limits: { socketUnsentBytes: unsentCap } });
    // A game of bots long enough to send far more than the operating system buffers for one connection (megabytes).
    const created = await call('POST', '/api/tables', {
      body: { game: 'sevenSuitors', options: { end: 'hands:999' }, bots: [0, 1, 2, 3] },
    });
    const url = `${base}/api/tables/${created.body.tableId}/socket`;
    const reading = await SocketClient.open(url, { keep: () => false });
    let readingVersion = 0;
    reading.listen((message) => (readingVersion = message.version));
    const stalled = await SocketClient.open(url);
    stalled.socket.pause(); // stops reading from the connection: what is sent piles up in the kernel, then in the gateway

    const closing = await waitFor(
      () => log.lines.find((line) => line.msg === 'a socket was closed: its client was not reading'),
      'the stalled socket to be closed',
      { timeoutMs: 30_000 },
    );
    expect(closing.unsentBytes).toBeGreaterThan(unsentCap);
    expect(closing.unsentBytes).toBeLessThan(unsentCap + 16 * 1024); // the cap and at most one view

    stalled.socket.resume();
    await waitFor(() => stalled.closed, 'the stalled client to read the close');
    expect(stalled.closed).toEqual({
      code: 1008,
      reason: `not reading: over ${unsentCap} bytes waited to be sent; reconnect with after=<last version>`,
    });
    // Changes in order up to the cut, then nothing; the socket that reads is sent every change still.
    const versions = stalled.views.map((message) => message.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    await waitFor(() => readingVersion > versions.at(-1) + 50, 'the table to go on');
    expect(reading.closed).toBeNull();
  });
});

describe('routes that cost something', () => {
  it('are limited per client however cheap they look: static files, /metrics, /docs, /machines, unknown paths, each counted apart', async () => {
    const webRoot = mkdtempSync(join(tmpdir(), 'web-dist-'));
    folders.push(webRoot);
    writeFileSync(join(webRoot, 'index.html'), 'hello');
    const { http } = await start({ webRoot, limits: { requests: { perSecond: 0.02, burst: 2 } } });
    for (const path of ['/index.html', '/metrics', '/docs/json', '/machines', '/nothing-here', '/api/tables']) {
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await rawGet(http, path));
      expect(answers.map((answer) => answer.status).slice(2), path).toEqual([429]);
      expect(answers[2].body.error).toBe('rateLimited');
      expect(answers[2].headers['retry-after'], path).toMatch(/^\d+$/);
    }
  });

  it('count the client the proxy names only when the proxy is trusted (trustProxy); by default X-Forwarded-For is ignored', async () => {
    const limits = { requests: { perSecond: 0.02, burst: 1 } };
    const trusting = await start({ limits, trustProxy: '127.0.0.1' });
    for (const client of ['198.51.100.1', '198.51.100.2']) {
      expect((await rawGet(trusting.http, '/api/tables', { headers: { 'x-forwarded-for': client } })).status, client).toBe(200);
    }
    expect((await rawGet(trusting.http, '/api/tables', { headers: { 'x-forwarded-for': '198.51.100.1' } })).status).toBe(429);
    const plain = await start({ limits });
    expect((await rawGet(plain.http, '/api/tables', { headers: { 'x-forwarded-for': '198.51.100.1' } })).status).toBe(200);
    expect((await rawGet(plain.http, '/api/tables', { headers: { 'x-forwarded-for': '198.51.100.2' } })).status).toBe(429);
  });
});

describe('load shedding', () => {
  it('answers new requests 503 with Retry-After while the event loop lags, serves the commands already sent, and recovers', async () => {
    // The lag is set by the test, not made by holding the loop: on a busy machine a real lag comes and goes by itself.
    const lag = { currentMs: 0 };
    const { call, base } = await start({
      eventLoopLag: lag,
      limits: { loadShedding: { maxEventLoopDelayMs: 300, sampleMs: 1_000, retryAfterSeconds: 3 } },
    });
    const { tableId } = (await call('POST', '/api/tables', { body: { game: 'sevenSuitors', bots: [1, 2, 3] } })).body;
    const { token } = (await call('POST', `/api/tables/${tableId}/seats/0`, { body: { name: 'Ann' } })).body;
    const socket = await SocketClient.open(`${base}/api/tables/${tableId}/socket?token=${token}`);
    const { view } = await socket.next((message) => message.type === 'view' && message.view.hand?.cards?.length > 0, 'the dealt hand');
    const pass = { type: 'cards.passed', passes: [1, 2, 3].map((to, i) => ({ to, card: view.hand.cards[i] })) };

    // The socket's command is sent; the loop then lags, as a heavy request would make it.
    socket.send({ type: 'command', id: 'pass', command: pass });
    lag.currentMs = 800;
    const shed = await call('GET', '/api/tables');
    expect(shed.status).toBe(503);
    expect(shed.headers.get('retry-after')).toBe('3');
    expect(shed.body, JSON.stringify(shed.body)).toEqual({
      error: 'unavailable',
      message: 'the service is overloaded (it lags 800 ms); try again in 3 s',
    });
    // The command sent before is not dropped.
    expect(await socket.next((message) => message.id === 'pass', 'the pass answered')).toMatchObject({ type: 'accepted' });
    // At the threshold itself the service serves again.
    lag.currentMs = 300;
    expect((await call('GET', '/api/tables')).status).toBe(200);
    await socket.close();
  });
});

describe('seat tokens in commands', () => {
  it('are not affected by the route limits of other routes', async () => {
    const { call } = await start({ limits: { routes: { createTable: { perSecond: 0.01, burst: 1 } } } });
    const { tableId } = (await call('POST', '/api/tables', { body: { game: 'sevenSuitors', bots: [1, 2, 3] } })).body;
    expect((await call('POST', '/api/tables', { body: { game: 'sevenSuitors' } })).status).toBe(429);
    const { token } = (await call('POST', `/api/tables/${tableId}/seats/0`, { body: { name: 'Ann' } })).body;
    expect((await call('GET', `/api/tables/${tableId}/view`, { headers: bearer(token) })).status).toBe(200);
  });
});
