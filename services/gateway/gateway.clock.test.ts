/**
 * The turn clock and restarts: deadlines come from the log, so they hold
 * across passivation and a restart of the whole service on its SQLite file,
 * where seat tokens persist too and bots play on.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openLocalStorage } from '../storage/storage.js';
import { TableHost } from '../host/tableHost.js';
import type { StoredEvent } from '../eventstore/eventStore.js';
import { waitFor } from '../../drivers/polling.js';
import { ADMIN, bearer, startService, type TestService } from '../../drivers/embeddedService.js';
import { EVENT_SCHEMA } from '../host/upcasters.js';
import { manualTimers } from '../../test/kit/manualTimers.js';
import { awaitedActions } from '../../machines/table/refusal.js';

const dir = mkdtempSync(join(tmpdir(), 'gateway-clock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const services: TestService[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.close()));
});

/** Clocks short enough for a test; as many new tables and reads of the log as a test makes. */
const MANY = { perSecond: 1000, burst: 1000 };
const TEST_LIMITS = { minTurnSeconds: 0.1, routes: { createTable: MANY, wholeGame: MANY } };

function service(options: Parameters<typeof startService>[0] = {}): TestService {
  const started = startService({ limits: TEST_LIMITS, ...options });
  services.push(started);
  return started;
}

async function logOf(app: TestService['app'], tableId: string): Promise<StoredEvent[]> {
  return (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/log`, headers: ADMIN })).json().events;
}

async function seatedTable(app: TestService['app'], turnSeconds: number) {
  const created = await app.inject({ method: 'POST', url: '/api/tables', payload: { game: 'sevenSuitors', bots: [1, 2, 3], turnSeconds } });
  const { tableId } = created.json();
  const { token } = (await app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/0`, payload: { name: 'Ann' } })).json();
  return { tableId, token: token as string };
}

describe('the turn clock', () => {
  it('times out a seat that lets its turn run out: the host records the timeout and a bot moves for it, also after passivation', async () => {
    const { app, host } = service();
    const { tableId, token } = await seatedTable(app, 0.3);
    const { turnDeadline } = (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view`, headers: bearer(token) })).json();
    const dealt = (await logOf(app, tableId)).find((event) => event.type === 'hand.dealt')!;
    expect(Date.parse(turnDeadline) - Date.parse(dealt.at)).toBeGreaterThanOrEqual(300);
    await host.passivate(tableId);
    const log = await waitFor(async () => {
      const events = await logOf(app, tableId);
      return events.some((event) => event.type === 'turn.timedOut') && events;
    }, 'a timeout');
    const timedOut = log.findIndex((event) => event.type === 'turn.timedOut');
    expect(log[timedOut].data).toEqual({ seat: 0, schema: EVENT_SCHEMA });
    expect(log[timedOut + 1]).toMatchObject({ type: 'cards.passed', data: { seat: 0 }, at: log[timedOut].at });
    expect(Date.parse(log[timedOut].at) - Date.parse(log[timedOut - 1].at)).toBeGreaterThanOrEqual(300);
    // The player acting in time stops the clock for that turn.
    const { view } = (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view`, headers: bearer(token) })).json();
    if (view.awaiting.some((each: { seat: number }) => each.seat === 0)) {
      const played = await app.inject({
        method: 'POST',
        url: `/api/tables/${tableId}/commands`,
        payload: { type: 'card.played', card: view.hand.legalCards[0] },
        headers: bearer(token),
      });
      expect(played.statusCode, played.body).toBe(200);
    }
  });

  it('keeps bots playing, seat tokens and deadlines across restarts of the service on its SQLite file', async () => {
    const path = join(dir, 'restart.db');
    // The services live by the test's clock: their bots and turn clocks wait on it and their events are stamped by it,
    // so a restart slowed by a busy machine moves no deadline, and only the test's steps move time.
    const clock = manualTimers(Date.now());
    const run = async <T>({ botDelayMs }: { botDelayMs: number }, work: (service: TestService) => Promise<T>): Promise<T> => {
      const storage = openLocalStorage({ kind: 'sqlite', path });
      const host = new TableHost({ store: storage.store, now: () => new Date(clock.now()), autopilot: { botDelayMs, timers: clock } });
      const started = startService({ limits: TEST_LIMITS, host, store: storage.store, tokens: storage.tokens });
      try {
        return await work(started);
      } finally {
        await started.close();
        await storage.close();
      }
    };
    /** The bots' moves due now made (each move sets the next bot's timer, so the waits below run this until done). */
    const botsMove = () => clock.advance(0);
    // Bots too slow to move before the first restart, so the next service must take their game up.
    const botTable = await run({ botDelayMs: 60_000 }, async ({ app }) => {
      const bots = await app.inject({
        method: 'POST',
        url: '/api/tables',
        payload: { game: 'sevenSuitors', options: { end: 'hands:1' }, bots: [0, 1, 2, 3] },
      });
      return bots.json().tableId as string;
    });
    const { tableId, token, lastBefore } = await run({ botDelayMs: 0 }, async ({ app, host }) => {
      const viewOf = async (id: string) => (await app.inject({ method: 'GET', url: `/api/tables/${id}/view` })).json().view;
      // Asked of the host while the bots move (a look over HTTP each step would meet the rate limit), then over HTTP.
      await waitFor(async () => {
        botsMove();
        return (await host.snapshot(botTable)).snapshot.context.outcome?.finished === true;
      }, 'the bot game to finish');
      expect((await viewOf(botTable)).phase).toBe('gameOver');
      const seated = await seatedTable(app, 1.5);
      // The bots pass at once; then only seat 0 is awaited, and its clock runs from the last bot pass.
      await waitFor(async () => {
        botsMove();
        return awaitedActions((await host.snapshot(seated.tableId)).snapshot).length === 1;
      }, 'the bots to pass');
      expect((await viewOf(seated.tableId)).awaiting).toHaveLength(1);
      const lastBefore = (await logOf(app, seated.tableId)).at(-1)!;
      const { turnDeadline } = (await app.inject({ method: 'GET', url: `/api/tables/${seated.tableId}/view` })).json();
      expect(turnDeadline).toBe(new Date(Date.parse(lastBefore.at) + 1500).toISOString());
      return { ...seated, lastBefore };
    });

    // Restarted 1.2 s after the last event: a timeout due from that event comes 0.3 s after the restart, and one
    // counted from the restart (1.5 s) would be told apart by the 1.4 s below.
    clock.advance(Date.parse(lastBefore.at) + 1200 - clock.now());
    const restartedAt = clock.now();
    await run({ botDelayMs: 0 }, async ({ app, host }) => {
      const seatView = await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view`, headers: bearer(token) });
      expect(seatView.statusCode).toBe(200);
      expect(seatView.json().view.viewer).toBe(0);
      await waitFor(() => host.hasMovesToCome(tableId), 'the restarted service to take the table up and run its clock');
      clock.advance(300);
      const log = await waitFor(async () => {
        const events = await logOf(app, tableId);
        return events.some((event) => event.type === 'turn.timedOut') && events;
      }, 'the timeout after the restart');
      const timedOut = log.find((event) => event.type === 'turn.timedOut')!;
      expect(timedOut.seq).toBe(lastBefore.seq + 1);
      // Due 1.5 s after the last event before the restart, not 1.5 s after the restart.
      expect(Date.parse(timedOut.at) - Date.parse(lastBefore.at)).toBeGreaterThanOrEqual(1500);
      expect(Date.parse(timedOut.at) - restartedAt).toBeLessThan(1400);
    });
  });

  it('answers at once when it starts over many tables under way, and takes them all up in the background', async () => {
    const store = openLocalStorage({ kind: 'memory' }).store;
    const tables = 40;
    // Forty tables of bots alone from one address: over the default cap of what one client may run, by design.
    const before = service({ store, botDelayMs: 60_000, limits: { ...TEST_LIMITS, botTablesPerClient: tables, botTablesInAll: tables } });
    const tableIds: string[] = [];
    for (let i = 0; i < tables; i++) {
      const created = await before.app.inject({
        method: 'POST',
        url: '/api/tables',
        payload: { game: 'sevenSuitors', options: { end: 'hands:1' }, bots: [0, 1, 2, 3] },
      });
      expect(created.statusCode, created.body).toBe(201);
      tableIds.push(created.json().tableId);
    }
    await before.close();
    const dealtLength = (await store.read(tableIds[0])).length;

    // A host that cannot take any table up until the test says so, as one still reading its logs from a remote store:
    // the service must be ready and answer all the same, whatever the machine's load.
    let letTakeUpsThrough = () => {};
    const takeUpsHeld = new Promise<void>((resolve) => (letTakeUpsThrough = resolve));
    class SlowHost extends TableHost {
      override async takeUp(tableId: string) {
        await takeUpsHeld;
        return super.takeUp(tableId);
      }
    }
    const after = service({ store, host: new SlowHost({ store, autopilot: { botDelayMs: 0 } }) });
    await after.app.ready();
    expect((await after.app.inject({ method: 'GET', url: '/api/tables' })).statusCode).toBe(200);
    const movedBeforeTakeUp = (await Promise.all(tableIds.map((tableId) => store.read(tableId)))).filter(
      (log) => log.length > dealtLength,
    ).length;
    expect(movedBeforeTakeUp).toBe(0);
    letTakeUpsThrough();
    await waitFor(
      async () => {
        const finished = new Set(
          (await store.listTables()).filter(({ status }) => status?.finished === true).map(({ tableId }) => tableId),
        );
        return tableIds.every((tableId) => finished.has(tableId));
      },
      'every table to play to its end',
      { timeoutMs: 60_000 },
    );
  });
});
