import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { SocketClient } from '../../drivers/socketClient.js';
import { waitFor } from '../../drivers/polling.js';
import { ADMIN, bearer, type TestService } from '../../drivers/embeddedService.js';
import type { Message } from '../../drivers/httpClient.js';
import { listeningServices } from '../../test/servicesPerTest.js';
import { expectNoLeak, statesOfLog } from '../../test/leakChecks.js';

const gateways = listeningServices();
afterEach(() => gateways.closeAll());
const setUp = gateways.start;

async function tableWithSeat(app: TestService['app'], game = 'sevenSuitors', bots: number[] = [1, 2, 3]) {
  const { tableId } = (await app.inject({ method: 'POST', url: '/api/tables', payload: { game, bots } })).json();
  const { token } = (await app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/0`, payload: { name: 'Ann' } })).json();
  return { tableId, token: token as string };
}

const versionsOf = (client: SocketClient): number[] => client.views.map((message: Message) => message.version);

describe('table sockets', () => {
  it('send the viewer’s view at once and on every change; a client resuming from its last version misses nothing and gets nothing twice', async () => {
    const { app, open } = await setUp();
    const { tableId, token } = await tableWithSeat(app);
    const watching = await open(`/api/tables/${tableId}/socket`);
    const resuming = await open(`/api/tables/${tableId}/socket`);
    const first = await resuming.next((message) => message.type === 'view', 'the first view');
    expect(first.view.viewer).toBe('spectator');
    expect(first.view.hand.cards).toBeNull();

    // The seated player plays through the HTTP API; each of its moves brings bot moves after it.
    const play = async () => {
      const { version, view } = (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view`, headers: bearer(token) })).json();
      const command =
        view.phase === 'passing'
          ? { type: 'cards.passed', passes: [1, 2, 3].map((to, i) => ({ to, card: view.hand.cards[i] })) }
          : { type: 'card.played', card: view.hand.legalCards[0] };
      const accepted = await app.inject({
        method: 'POST',
        url: `/api/tables/${tableId}/commands`,
        payload: command,
        headers: bearer(token),
      });
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(accepted.json().version).toBeGreaterThan(version);
      // Wait until the bots are done and the seat is awaited again.
      await watching.next(
        (message) => message.version >= accepted.json().version && message.view.awaiting.some((a: Message) => a.seat === 0),
        'seat 0 again',
      );
    };
    await waitFor(() => watching.lastView?.view.awaiting.some((a: Message) => a.seat === 0), 'seat 0 to be awaited');
    await play();
    await play();
    const seenBefore = versionsOf(resuming);
    const last = seenBefore.at(-1)!;
    await resuming.close();
    await play();
    await play();
    const resumed = await open(`/api/tables/${tableId}/socket?after=${last}`);
    await resumed.next((message) => message.version === watching.lastView.version, 'the current view');
    await play();
    await waitFor(() => resumed.lastView?.version === watching.lastView.version && resumed, 'the resumed client to catch up');

    const all = versionsOf(watching);
    const before = seenBefore;
    const after = versionsOf(resumed);
    // The resumed socket's first view is the table as it stood; every later change follows, as the watching socket saw it.
    expect(after[0]).toBeGreaterThan(last);
    expect(all).toContain(after[0]);
    expect(after).toEqual(all.filter((version) => version >= after[0]));
    expect(before).toEqual(all.filter((version) => version >= before[0] && version <= last));
    expect([...before, ...after]).toEqual([...new Set([...before, ...after])].sort((a, b) => a - b));

    // Resuming at the current version sends nothing until the next change.
    const current = watching.lastView.version;
    const quiet = await open(`/api/tables/${tableId}/socket?after=${current}`);
    await play();
    expect(versionsOf(quiet)[0]).toBeGreaterThan(current);
  });

  it('with views=changes, send the first view whole and each later version as what changed, rebuilding exactly the whole views', async () => {
    const { app, open } = await setUp();
    const { tableId, token } = await tableWithSeat(app);
    const whole = await open(`/api/tables/${tableId}/socket?token=${token}`);
    const changes = await open(`/api/tables/${tableId}/socket?token=${token}&views=changes`);
    const spectator = await open(`/api/tables/${tableId}/socket?views=changes`);
    let acted = 0;
    const playOnce = async () => {
      const { view } = await whole.next(
        (message) => message.type === 'view' && message.version >= acted && message.view.awaiting.some((a: Message) => a.seat === 0),
        'seat 0 to be awaited',
      );
      const command =
        view.phase === 'passing'
          ? { type: 'cards.passed', passes: [1, 2, 3].map((to, i) => ({ to, card: view.hand.cards[i] })) }
          : { type: 'card.played', card: view.hand.legalCards[0] };
      const reply = await whole.request(JSON.stringify({ type: 'command', id: `move-${acted}`, command }));
      expect(reply).toMatchObject({ type: 'accepted' });
      acted = (reply as { version: number }).version;
    };
    for (let move = 0; move < 4; move++) await playOnce();
    await waitFor(
      () => whole.lastView.view.awaiting.some((a: Message) => a.seat === 0) && whole.lastView.version >= acted,
      'the bots to be done',
    );
    const last = whole.lastView.version;
    await waitFor(() => changes.lastView?.version === last && spectator.lastView?.version === last, 'the changes sockets to catch up');

    const rebuilt = changes.views.filter((message: Message) => message.sentAs !== undefined);
    expect(changes.views[0].sentAs, 'the first view is whole').toBeUndefined();
    expect(rebuilt.length).toBeGreaterThan(4);
    let changeBytes = 0;
    let wholeBytes = 0;
    for (const message of rebuilt) {
      expect(message.sentAs).toMatchObject({ type: 'changes', version: message.version });
      const same = whole.views.find((view: Message) => view.version === message.version);
      expect({ ...message, sentAs: undefined }).toEqual({ ...same, sentAs: undefined });
      changeBytes += JSON.stringify(message.sentAs).length;
      wholeBytes += JSON.stringify(same).length;
    }
    // A deal changes most of a view; a card played, little of it.
    expect(changeBytes).toBeLessThan(wholeBytes / 2);
    // The spectator is sent the spectator's changes: no hand.
    expect(spectator.views.every((message: Message) => message.view.hand === null || message.view.hand.cards === null)).toBe(true);
    expect(spectator.views.filter((message: Message) => message.sentAs !== undefined).length).toBeGreaterThan(4);

    // Resuming with `after` at the version held: what changed since it, the next time the table changes.
    await changes.close();
    const resumed = await open(`/api/tables/${tableId}/socket?token=${token}&views=changes&after=${last}`);
    await playOnce();
    // (This new client holds no view to apply them to, so it keeps them as they came.)
    const next = await resumed.next(() => true, 'the first message after resuming');
    expect(next).toMatchObject({ type: 'changes', from: last });

    // Any other value of `views` is refused before the upgrade.
    const refused = await SocketClient.refusal(`${whole.socket.url.split('?')[0]}?views=some`);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/views/);
  });

  it('take commands from a seat and refuse them, with the refusal kinds of the HTTP API, from anyone else', async () => {
    const { app, open } = await setUp();
    const { tableId, token } = await tableWithSeat(app);
    const seat = await open(`/api/tables/${tableId}/socket?token=${token}`);
    const { view } = await seat.next(
      (message) => message.type === 'view' && message.view.awaiting.some((a: Message) => a.seat === 0),
      'the passing view',
    );
    const cards: string[] = view.hand.cards;
    const ask = async (message: unknown, id: unknown) => {
      seat.send(message);
      return seat.next((reply) => reply.type !== 'view' && reply.id === id, `the answer to ${String(id)}`);
    };
    expect(await ask('{ not json', null)).toEqual({
      type: 'refused',
      id: null,
      error: 'badRequest',
      message: 'a message is a JSON text: {"type":"command","id":"<any>","command":{...}}',
    });
    expect(await ask({ type: 'shout', id: 'a' }, 'a')).toMatchObject({
      error: 'badRequest',
      message: 'message.type must be "command", not "shout"',
    });
    expect(await ask({ type: 'command', id: 'b', command: { type: 'card.played' } }, 'b')).toMatchObject({
      error: 'badRequest',
      message: 'command is missing "card"',
    });
    expect(await ask({ type: 'command', id: 'c', command: { type: 'card.played', card: cards[0] } }, 'c')).toMatchObject({
      error: 'notNow',
      message: expect.stringContaining('no card can be played now'),
    });
    expect(await ask({ type: 'command', id: 'd', command: { type: 'card.played', card: '8-8' } }, 'd')).toMatchObject({
      error: 'malformed',
    });
    expect(await ask({ type: 'command', id: 'e', command: { type: 'card.played', card: '1-1', seat: 2 } }, 'e')).toMatchObject({
      error: 'forbidden',
      message: 'this token holds seat 0; it cannot act for seat 2',
    });
    const passes = [1, 2, 3].map((to, i) => ({ to, card: cards[i] }));
    const accepted = await ask({ type: 'command', id: 7, command: { type: 'cards.passed', passes } }, 7);
    expect(accepted).toEqual({ type: 'accepted', id: 7, version: expect.any(Number) });
    const after = await seat.next((message) => message.type === 'view' && message.version === accepted.version, 'the view of the pass');
    expect(after.view.hand.passesSent).toHaveLength(3);

    const spectator = await open(`/api/tables/${tableId}/socket`);
    spectator.send({ type: 'command', id: 1, command: { type: 'card.played', card: '1-1' } });
    expect(await spectator.next((message) => message.type === 'refused', 'the refusal')).toMatchObject({
      error: 'unauthorized',
      message: 'a spectator cannot act; connect with a seat token to send commands',
    });
  });

  it('refuse the upgrade with 400, 401, 403 or 404 before any view is sent', async () => {
    const { app, base } = await setUp();
    const first = await tableWithSeat(app);
    const second = await tableWithSeat(app);
    const cases: [string, number, string][] = [
      [`/api/tables/${first.tableId}/socket?token=${'A'.repeat(43)}`, 401, 'unauthorized'],
      [`/api/tables/${second.tableId}/socket?token=${first.token}`, 403, 'forbidden'],
      ['/api/tables/t-nope/socket', 404, 'unknownTable'],
      [`/api/tables/${first.tableId}/socket?after=-1`, 400, 'badRequest'],
      [`/api/tables/${first.tableId}/socket?spy=1`, 400, 'badRequest'],
    ];
    for (const [path, status, error] of cases) {
      const refusal = await SocketClient.refusal(`${base}${path}`);
      expect(refusal.status, path).toBe(status);
      expect(refusal.body.error).toBe(error);
    }
    const plain = await app.inject({ method: 'GET', url: `/api/tables/${first.tableId}/socket` });
    expect(plain.statusCode).toBe(400);
    expect(plain.json().message).toContain('this is a WebSocket');
  });

  it('close a seat’s sockets when its player leaves, so the seat’s next holder is never shown to them', async () => {
    const { app, open } = await setUp();
    const { tableId, token } = await tableWithSeat(app, 'traitorOfLove', [1, 2, 3, 4, 5]);
    const seat = await open(`/api/tables/${tableId}/socket?token=${token}`);
    await seat.next((message) => message.type === 'view', 'a view');
    await app.inject({ method: 'DELETE', url: `/api/tables/${tableId}/seats/0`, headers: bearer(token) });
    await waitFor(() => seat.closed, 'the socket to close');
    expect(seat.closed).toEqual({ code: 4001, reason: 'seat 0 was left' });
    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toContain('suitors_sockets_connected{role="seat"} 0');
  });

  it('refuse a flood from one socket and then close it, while every other table and client is served', async () => {
    const { app, open } = await setUp({ limits: { socketMessages: { perSecond: 2, burst: 5 } } });
    const flooded = await tableWithSeat(app);
    const calm = await tableWithSeat(app);
    const flooder = await open(`/api/tables/${flooded.tableId}/socket?token=${flooded.token}`);
    const neighbour = await open(`/api/tables/${calm.tableId}/socket?token=${calm.token}`);
    await neighbour.next((message) => message.type === 'view', 'a view');
    for (let i = 0; i < 200; i++) flooder.send({ type: 'command', id: i, command: { type: 'card.played', card: '1-1' } });
    await waitFor(() => flooder.closed, 'the flooding socket to close');
    expect(flooder.closed).toEqual({ code: 1008, reason: 'too many messages' });
    const limited = flooder.messages.filter((message) => message.error === 'rateLimited');
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0].message).toBe('at most 2 messages a second (bursts of 5); slow down');

    // The neighbour plays on.
    const { view } = neighbour.lastView;
    neighbour.send({
      type: 'command',
      id: 'pass',
      command: { type: 'cards.passed', passes: [1, 2, 3].map((to, i) => ({ to, card: view.hand.cards[i] })) },
    });
    expect(await neighbour.next((message) => message.id === 'pass', 'the pass')).toMatchObject({ type: 'accepted' });
    expect((await app.inject({ method: 'GET', url: '/api/tables' })).statusCode).toBe(200);
  });

  it('close a socket whose message is over the size limit', async () => {
    const { app, open } = await setUp({ socketMessageLimit: 1024 });
    const { tableId, token } = await tableWithSeat(app);
    const seat = await open(`/api/tables/${tableId}/socket?token=${token}`);
    seat.send({ type: 'command', id: 'x'.repeat(2000), command: {} });
    await waitFor(() => seat.closed, 'the socket to close');
    expect(seat.closed?.code).toBe(1009);
  });
});

describe('the service log', () => {
  it('carries request ids and never a seat token, though socket URLs hold one', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const { app, open } = await setUp({ logger: pino({ level: 'info' }, sink) });
    const { tableId, token } = await tableWithSeat(app);
    const seat = await open(`/api/tables/${tableId}/socket?token=${token}`);
    await seat.next((message) => message.type === 'view', 'a view');
    await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view`, headers: { ...bearer(token), 'x-request-id': 'req-7' } });
    const log = lines.join('');
    expect(log).toContain('token=<redacted>');
    expect(log).toContain('"reqId":"req-7"');
    expect(log).not.toContain(token);
  });
});

describe('the leak check itself', () => {
  it('catches another seat’s card, and a role before the reveal', async () => {
    const { app, host } = await setUp();
    const { tableId } = await tableWithSeat(app);
    const events = (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/log`, headers: ADMIN })).json().events;
    const states = statesOfLog(events);
    const { version, view } = (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view` })).json();
    const message = { type: 'view', version, view };
    expect(() => expectNoLeak(message, 'spectator', states)).not.toThrow();
    const { snapshot } = await host.snapshot(tableId);
    const seatCard = snapshot.context.hand!.holdings[1][0];
    const leaky = { ...message, view: { ...view, hand: { ...view.hand, trick: { leader: 0, plays: [{ seat: 1, card: seatCard }] } } } };
    expect(() => expectNoLeak(leaky, 'spectator', states)).toThrow();
  });
});
