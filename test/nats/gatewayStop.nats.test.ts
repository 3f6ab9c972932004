/**
 * The distributed gateway (`npm run start:gateway`) stopped with SIGTERM
 * while people's commands are under way, as a rolling deploy of gateways
 * does (docs/operations.md): it answers or refuses what it has, closes its
 * sockets with 1012 and exits 0 at once. A keep-alive connection whose
 * request was under way at the signal used to keep it up for the keep-alive
 * timeout (72 s), until whoever deployed it gave up and killed it.
 */
import { describe, expect, it } from 'vitest';
import { httpRequest } from '../../drivers/httpClient.js';
import { waitFor } from '../../drivers/polling.js';
import { SocketClient } from '../../drivers/socketClient.js';
import { expectAcknowledgedInLogs, nextMoveOf, playSeat, sendMove, type Seat, type SeatPlay } from '../seatPlayer.js';
import { natsClusterForTests } from './cluster.js';

const PEOPLE_TABLES = 4;

describe('the distributed gateway, stopped with SIGTERM', () => {
  const cluster = natsClusterForTests({ leaseTtlMs: 3000, botDelayMs: 25, workerPrefix: 'stop', workers: 1 });

  it('answers what is under way, closes sockets with 1012 and exits 0 at once', async () => {
    const gateway = await cluster.startGatewayProcess();
    const base = gateway.baseUrl;
    const people: Seat[] = [];
    for (let each = 0; each < PEOPLE_TABLES; each++) {
      const created = await httpRequest(base, 'POST', '/api/tables', { body: { game: 'sevenSuitors', bots: [1, 2, 3] } });
      const tableId = (created.body as { tableId: string }).tableId;
      const seat = await httpRequest(base, 'POST', `/api/tables/${tableId}/seats/0`, { body: { name: `Ada ${each}` } });
      expect(seat.status, JSON.stringify(seat.body)).toBe(201);
      people.push({ tableId, seat: 0, token: (seat.body as { token: string }).token });
    }
    const sockets = await Promise.all(
      people.map(({ tableId }) => SocketClient.open(`${base.replace('http', 'ws')}/api/tables/${tableId}/socket`)),
    );
    const play: SeatPlay = { acknowledged: [], refused: [] };
    let stopped = false;
    const players = people.map((seat) => playSeat(base, seat, play, () => stopped));
    await waitFor(() => play.acknowledged.length >= 8, 'the people to be playing', { timeoutMs: 30_000, everyMs: 20 });
    stopped = true;
    await Promise.all(players);

    const moves = await waitFor(
      async () => {
        const ready = await Promise.all(people.map(async (seat) => ({ seat, next: await nextMoveOf(base, seat) })));
        return ready.every(({ next }) => next !== null) && ready;
      },
      'every person to be awaited',
      { timeoutMs: 30_000, everyMs: 20 },
    );
    const inFlight = moves.map(({ seat, next }) => sendMove(base, seat, next!.command, next!.version, play));
    // A moment for the requests to reach it on their keep-alive connections: some are then under way.
    await new Promise((resolve) => setTimeout(resolve, 3));
    // By itself, well within the keep-alive timeout it used to wait out, or it is killed and this fails.
    const ended = await gateway.stop(20_000);
    await Promise.all(inFlight);

    expect(ended).toMatch(/code 0/);
    for (const socket of sockets) expect(socket.closed?.code).toBe(1012);
    await expectAcknowledgedInLogs(cluster.store, play.acknowledged);
  });
});
