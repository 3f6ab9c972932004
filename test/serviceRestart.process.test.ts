/**
 * `npm start` stopped with SIGTERM and started again, as a deploy of the
 * embedded service does (docs/operations.md, "Embedded"): the real process
 * (services/main.ts) on a SQLite file, with tables whose bots play and
 * people sending commands over HTTP right up to the signal. It stops taking
 * requests, answers or refuses those under way, closes every socket with
 * 1012, writes what it accepted and exits 0; every command it acknowledged
 * is in the log, every log is gapless and folds, and the next start takes
 * up every table, whose bots play on and whose people move again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from '../drivers/gatewayProcess.js';
import { httpRequest } from '../drivers/httpClient.js';
import { waitFor } from '../drivers/polling.js';
import { SocketClient } from '../drivers/socketClient.js';
import { openLocalStorage } from '../services/storage/storage.js';
import { foldLog } from '../services/host/replay.js';
import { expectAcknowledgedInLogs, nextMoveOf, playSeat, sendMove, type Seat, type SeatPlay } from './seatPlayer.js';

const PEOPLE_TABLES = 4;
const BOT_TABLES = 2;
const BOT_DELAY_MS = 25;

const directory = mkdtempSync(join(tmpdir(), 'suitors-restart-'));
const started: GatewayProcess[] = [];
/** Every line the service processes wrote, for a failure to show. */
const output: string[] = [];
afterAll(async () => {
  await Promise.allSettled(started.map((service) => service.stop(5000)));
  rmSync(directory, { recursive: true, force: true });
});

async function startService(): Promise<GatewayProcess> {
  const service = await startGatewayProcess(
    { embedded: { directory } },
    {
      env: { SUITORS_BOT_DELAY_MS: String(BOT_DELAY_MS), SUITORS_SHED_LAG_MS: '10000', LOG_LEVEL: 'info' },
      onLine: (line) => output.push(line),
    },
  );
  started.push(service);
  return service;
}

async function call(base: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const answer = await httpRequest(base, body === undefined ? 'GET' : 'POST', path, body === undefined ? {} : { body });
  return { status: answer.status, body: answer.body as Record<string, unknown> };
}

describe('npm start, stopped with SIGTERM and started again', () => {
  it('finishes what it accepted, closes sockets with 1012, exits 0, and takes every table up again', async () => {
    const first = await startService();
    const base = first.baseUrl;
    const people: Seat[] = [];
    for (let each = 0; each < PEOPLE_TABLES; each++) {
      const { body } = await call(base, '/api/tables', { game: 'sevenSuitors', options: { end: 'allSuits' }, bots: [1, 2, 3] });
      const seat = await call(base, `/api/tables/${body.tableId}/seats/0`, { name: `Ada ${each}` });
      expect(seat.status, JSON.stringify(seat.body)).toBe(201);
      people.push({ tableId: body.tableId as string, seat: 0, token: seat.body.token as string });
    }
    const botTables: string[] = [];
    for (let each = 0; each < BOT_TABLES; each++) {
      const { status, body } = await call(base, '/api/tables', { game: 'traitorOfLove', bots: [0, 1, 2, 3, 4, 5] });
      expect(status).toBe(201);
      botTables.push(body.tableId as string);
    }
    const allTables = [...people.map(({ tableId }) => tableId), ...botTables];
    const sockets = await Promise.all(
      allTables.map((tableId) => SocketClient.open(`${base.replace('http', 'ws')}/api/tables/${tableId}/socket`)),
    );

    const play: SeatPlay = { acknowledged: [], refused: [] };
    const { acknowledged } = play;
    let stopped = false;
    const players = people.map((seat) => playSeat(base, seat, play, () => stopped));
    await waitFor(() => acknowledged.length >= 8, 'the people to be playing', { timeoutMs: 30_000, everyMs: 20 });
    stopped = true;
    await Promise.all(players);
    // A move of every person, sent together, and the signal right behind them: each is answered or refused, and an
    // answered one is kept.
    const moves = await waitFor(
      async () => {
        const ready = await Promise.all(
          people.map(async (seat) => {
            const next = await nextMoveOf(base, seat);
            return next === null ? null : { seat, ...next };
          }),
        );
        return ready.every((move) => move !== null) && ready.map((move) => move!);
      },
      'every person to be awaited',
      { timeoutMs: 30_000, everyMs: 20 },
    );
    const acknowledgedBefore = acknowledged.length;
    const inFlight = moves.map(({ seat, command, version }) => sendMove(base, seat, command, version, play));
    // A moment for the requests to reach it (they go on open keep-alive connections): some are then under way.
    await new Promise((resolve) => setTimeout(resolve, 3));
    const signalled = performance.now();
    const ended = await first.stop(20_000);
    const stopMs = Math.round(performance.now() - signalled);
    await Promise.all(inFlight);
    const answeredAtStop = acknowledged.length - acknowledgedBefore;

    expect(ended, `it exits by itself, with status 0, within the grace period:\n${output.slice(-40).join('\n')}`).toMatch(/code 0/);
    expect(first.exited).toEqual({ code: 0, signal: null });
    for (const socket of sockets) expect(socket.closed?.code).toBe(1012);

    // What it wrote before it exited, read from its file: every acknowledged command, in gapless logs that fold.
    const storage = openLocalStorage({ kind: 'sqlite', path: join(directory, 'gateway-bench.db') });
    const { store } = storage;
    const versionsAtStop = new Map<string, number>();
    try {
      for (const tableId of allTables) {
        const log = await store.read(tableId);
        versionsAtStop.set(tableId, log.length);
        expect(log.map((event) => event.seq)).toEqual(log.map((_, index) => index + 1));
        foldLog(tableId, log).actor.stop();
      }
      await expectAcknowledgedInLogs(store, acknowledged);
    } finally {
      await storage.close();
    }

    const second = await startService();
    const restartedAt = performance.now();
    for (const tableId of allTables) {
      const view = await call(second.baseUrl, `/api/tables/${tableId}/view`);
      expect(view.status).toBe(200);
      expect(view.body.version).toBeGreaterThanOrEqual(versionsAtStop.get(tableId)!);
    }
    // Its bots and people play on: the bots of every table move, and each person moves again.
    const after: SeatPlay = { acknowledged: [], refused: [] };
    let enough = false;
    const again = people.map((seat) => playSeat(second.baseUrl, seat, after, () => enough));
    await waitFor(
      async () => {
        const moved = new Set(after.acknowledged.map(({ tableId }) => tableId));
        const versions = await Promise.all(
          botTables.map(async (tableId) => (await call(second.baseUrl, `/api/tables/${tableId}/view`)).body.version as number),
        );
        return (
          people.every(({ tableId }) => moved.has(tableId)) &&
          versions.every((version, index) => version > versionsAtStop.get(botTables[index])! + 5)
        );
      },
      'every table to play on after the restart',
      { timeoutMs: 30_000, everyMs: 50 },
    );
    enough = true;
    await Promise.all(again);
    console.log(
      `npm start stopped with SIGTERM: exited 0 after ${stopMs} ms; of ${moves.length} commands sent with the signal ${answeredAtStop} were acknowledged, ` +
        `${acknowledged.length} acknowledged in all and 0 lost; ${sockets.length} sockets closed with 1012; the restart took up ${allTables.length} tables ` +
        `and every one moved within ${Math.round(performance.now() - restartedAt)} ms`,
    );
  }, 120_000);
});
