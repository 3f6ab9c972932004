/**
 * Whole games through the API: one seat is a client on a real WebSocket
 * (choosing its moves from its own view), the others are the service's bots;
 * a spectator watches. Every message either of them received is checked
 * against the log for leaks, and the game's record verifies.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { heuristicMove } from '../../machines/bots/heuristicBot.js';
import { createRng } from '../../machines/cards/shuffle.js';
import { verifyRecord } from '../../machines/record/verify.js';
import { SocketClient } from '../../drivers/socketClient.js';
import { listen, startService, type TestService } from '../../drivers/embeddedService.js';
import type { Message } from '../../drivers/httpClient.js';
import { expectNoLeak, statesOfLog } from '../../test/leakChecks.js';

let running: TestService | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const GAMES = [
  { game: 'sevenSuitors', options: { end: 'hands:2', specials: 'powers' }, seats: 4, bots: [1, { seat: 2, kind: 'random' }, 3] },
  { game: 'antiCupid', options: { passing: 'oneEach' }, seats: 5, bots: [1, 2, 3, 4] },
  { game: 'traitorOfLove', options: {}, seats: 6, bots: [1, 2, 3, 4, { seat: 5, kind: 'random' }] },
] as const;

describe.each(GAMES)('a whole game of $game through the API', ({ game, options, seats, bots }) => {
  it('is played to the end by a socket client and bots; nothing hidden reaches the seat or the spectator; the record verifies', async () => {
    running = startService({ limits: { socketMessages: { perSecond: 1000, burst: 1000 } } });
    const { app } = running;
    const base = await listen(app);
    const created = await app.inject({ method: 'POST', url: '/api/tables', payload: { game, options, bots } });
    expect(created.statusCode, created.body).toBe(201);
    const { tableId } = created.json();
    const spectator = await SocketClient.open(`${base}/api/tables/${tableId}/socket`);
    const joined = await app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/0`, payload: { name: 'Tester' } });
    const { token } = joined.json();
    const seat = await SocketClient.open(`${base}/api/tables/${tableId}/socket?token=${token}`);

    const rng = createRng(`client-${game}`);
    // The version after the client's last accepted move: the views from there on show what followed it.
    let acted = 0;
    let moves = 0;
    for (;;) {
      const awaited = (message: Message) =>
        message.type === 'view' &&
        message.version >= acted &&
        (message.view.phase === 'gameOver' || message.view.awaiting.some((each: { seat: number }) => each.seat === 0));
      const { version, view } = await seat.next(awaited, `seat 0 to be awaited after version ${acted}`);
      if (view.phase === 'gameOver') break;
      const { action } = view.awaiting.find((each: { seat: number }) => each.seat === 0);
      const { seat: _ours, ...command } = heuristicMove(view, action, rng);
      seat.send({ type: 'command', id: `move-${version}`, command });
      const reply = await seat.next((message) => message.id === `move-${version}`, `the answer to move-${version}`);
      expect(reply).toMatchObject({ type: 'accepted' });
      acted = reply.version;
      moves++;
    }
    await spectator.next((message) => message.view?.phase === 'gameOver', 'the spectator to see the end');

    const log = await app.inject({ method: 'GET', url: `/api/tables/${tableId}/log` });
    expect(log.statusCode).toBe(200);
    const { events } = log.json();
    const states = statesOfLog(events);
    expect(moves).toBeGreaterThan(5);
    for (const client of [seat, spectator]) {
      const versions = client.views.map((message: Message) => message.version);
      expect(versions, 'strictly increasing, no duplicates').toEqual(
        [...versions].sort((a, b) => a - b).filter((v, i, all) => all.indexOf(v) === i),
      );
      expect(versions.at(-1)).toBe(events.length);
    }
    for (const message of seat.views) expectNoLeak(message, 0, states);
    for (const message of spectator.views) expectNoLeak(message, 'spectator', states);
    // Bots played every other seat; the client only its own.
    const played = events.filter((event: { type: string }) => event.type === 'card.played');
    expect(new Set(played.map((event: { data: { seat: number } }) => event.data.seat)).size).toBe(seats);

    const record = (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/record` })).json();
    expect(record.result.finished).toBe(true);
    expect(verifyRecord(record).problems).toEqual([]);
    await seat.close();
    await spectator.close();
  });
});
