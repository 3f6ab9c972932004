/**
 * A quarantined table through the gateway (docs/api.md, docs/operations.md
 * "A quarantined table"): 503 `quarantined` naming the refused event, the
 * lobby and the metrics showing it, the operator told once, other tables
 * playing on; the admin's repair, and nobody else's, voids the event and the
 * bots finish the game; its record verifies and its replays work.
 */
import { describe, expect, it } from 'vitest';
import { randomMove } from '../../machines/bots/randomBot.js';
import { createRng } from '../../machines/cards/shuffle.js';
import { verifyRecord } from '../../machines/record/verify.js';
import { ADMIN, bearer, startService, type TestService } from '../../drivers/embeddedService.js';
import { waitFor } from '../../drivers/polling.js';
import { servicesClosedAfterEach } from '../../test/servicesPerTest.js';
import { openLocalStorage } from '../storage/storage.js';
import type { EventStore } from '../eventstore/eventStore.js';
import type { TableQuarantined } from '../host/quarantine.js';
import { recordOfLog, replayLog } from '../host/replay.js';
import { TableHost } from '../host/tableHost.js';
import { withSchema } from '../host/upcasters.js';

const service = servicesClosedAfterEach();

type App = TestService['app'];

async function createTable(app: App, body: object): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/api/tables', payload: body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().tableId;
}

async function lobbyEntry(app: App, tableId: string): Promise<Record<string, unknown> | undefined> {
  const { tables } = (await app.inject({ method: 'GET', url: '/api/tables' })).json();
  return tables.find((table: { tableId: string }) => table.tableId === tableId);
}

async function waitUntilFinished(app: App, tableId: string): Promise<void> {
  await waitFor(
    async () => (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view` })).json().view?.outcome?.finished === true,
    `table ${tableId} to finish`,
    { everyMs: 20 },
  );
}

async function quarantinedGauge(app: App): Promise<number> {
  const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
  return Number(/^suitors_tables_quarantined (\d+)$/m.exec(text)?.[1]);
}

/**
 * A Seven Suitors table of three bots and Ann, whose passes the bots wait
 * for, and in its log, behind the service's back, seat 1 playing a card
 * in the passing: the machine refuses it. Returns the forged event's seq.
 */
async function tableWithARefusedEvent(store: EventStore, tokens = openLocalStorage({ kind: 'memory' }).tokens) {
  const first = startService({ store, tokens });
  const tableId = await createTable(first.app, { game: 'sevenSuitors', options: { end: 'hands:1' }, bots: [1, 2, 3] });
  const joined = await first.app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/0`, payload: { name: 'Ann' } });
  const ann: string = joined.json().token;
  await waitFor(async () => (await store.read(tableId)).filter((event) => event.type === 'cards.passed').length === 3, 'the bots to pass');
  await first.close();
  const log = await store.read(tableId);
  const card = replayLog(tableId, log).snapshot.context.hand!.holdings[1][0];
  await store.append(tableId, [withSchema({ type: 'card.played', at: new Date().toISOString(), data: { seat: 1, card } })], log.length);
  return { tableId, ann, tokens, bad: log.length + 1 };
}

describe('a quarantined table', () => {
  it('answers 503 naming the refused event, changes nothing, and shows in the lobby and the metrics; the admin repairs it and it plays on', async () => {
    const store = openLocalStorage({ kind: 'memory' }).store;
    const { tableId, ann, tokens, bad } = await tableWithARefusedEvent(store);
    const told: TableQuarantined[] = [];
    const host = new TableHost({ store, autopilot: { botDelayMs: 0 }, onQuarantined: (verdict) => told.push(verdict) });
    const { app } = service({ store, tokens, host });
    // The restart takes up the tables under way: this one is found quarantined then.
    await waitFor(() => told.length > 0, 'the table to be found quarantined');

    const command = await app.inject({
      method: 'POST',
      url: `/api/tables/${tableId}/commands`,
      headers: bearer(ann),
      payload: { type: 'card.played', card: '3-9' },
    });
    expect(command.statusCode).toBe(503);
    const refusal = command.json();
    expect(refusal).toEqual({
      error: 'quarantined',
      message: expect.stringContaining(`logged event ${bad} (card.played) is refused on replay`),
      tableId,
      seq: bad,
      eventType: 'card.played',
      reason: expect.stringMatching(/pass/),
    });
    expect(refusal.message).toContain(`POST /api/tables/${tableId}/repair`);
    expect((await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view` })).statusCode).toBe(503);
    expect((await app.inject({ method: 'GET', url: `/api/tables/${tableId}/view`, headers: bearer(ann) })).statusCode).toBe(503);
    expect((await app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/1`, payload: { name: 'Bo' } })).statusCode).toBe(503);
    expect(await store.version(tableId)).toBe(bad);
    // The operator reads the log as it is; nobody else reads anything of the table.
    const log = await app.inject({ method: 'GET', url: `/api/tables/${tableId}/log`, headers: ADMIN });
    expect(log.json().events).toHaveLength(bad);
    expect((await app.inject({ method: 'GET', url: `/api/tables/${tableId}/record` })).statusCode).toBe(503);

    expect(await lobbyEntry(app, tableId)).toMatchObject({
      game: 'sevenSuitors',
      phase: 'quarantined',
      finished: false,
      quarantine: { seq: bad, reason: refusal.reason },
    });
    expect(await quarantinedGauge(app)).toBe(1);
    expect(told.map((verdict) => verdict.seq)).toEqual([bad]);

    // Other tables play on.
    const other = await createTable(app, { game: 'sevenSuitors', options: { end: 'hands:1' }, bots: [0, 1, 2, 3] });
    await waitUntilFinished(app, other);

    // Only the operator repairs.
    const repair = (headers?: Record<string, string>) => app.inject({ method: 'POST', url: `/api/tables/${tableId}/repair`, headers });
    expect((await repair()).statusCode).toBe(401);
    expect((await repair(bearer(ann))).statusCode).toBe(403);
    expect((await repair(bearer('A'.repeat(43)))).statusCode).toBe(401);
    expect(await store.version(tableId)).toBe(bad);
    const repaired = await repair(ADMIN);
    expect(repaired.statusCode, repaired.body).toBe(200);
    expect(repaired.json()).toEqual({ tableId, voided: [bad], reasons: [expect.stringContaining(`event ${bad}`)], version: bad + 1 });
    expect(await quarantinedGauge(app)).toBe(0);
    expect(await lobbyEntry(app, tableId)).not.toHaveProperty('quarantine');
    expect((await repair(ADMIN)).json()).toMatchObject({ error: 'notQuarantined' });
    expect((await repair(ADMIN)).statusCode).toBe(409);

    // Same table, same seats and tokens: Ann leaves, a bot takes her seat, and the bots finish the game.
    expect((await app.inject({ method: 'DELETE', url: `/api/tables/${tableId}/seats/0`, headers: bearer(ann) })).statusCode).toBe(200);
    await waitUntilFinished(app, tableId);
    const events = await store.read(tableId);
    expect(events[bad - 1]).toMatchObject({ seq: bad, type: 'card.played' });
    expect(events[bad]).toMatchObject({ seq: bad + 1, type: 'table.repaired', data: { voided: [bad] } });

    const record = (await app.inject({ method: 'GET', url: `/api/tables/${tableId}/record` })).json();
    expect(verifyRecord(record)).toMatchObject({ ok: true, problems: [] });
    expect(record).toEqual(
      JSON.parse(
        JSON.stringify(
          recordOfLog(
            tableId,
            events.filter((event) => event.seq !== bad),
          ),
        ),
      ),
    );

    const replay = async (at: number) => {
      const response = await app.inject({ method: 'GET', url: `/api/tables/${tableId}/replay?at=${at}` });
      expect(response.statusCode, `replay at ${at}: ${response.body}`).toBe(200);
      return response.json();
    };
    const beforeBad = await replay(bad - 1);
    expect((await replay(bad)).view).toEqual(beforeBad.view);
    expect((await replay(bad + 1)).view).toEqual(beforeBad.view);
    expect((await replay(events.length)).phase).toBe('gameOver');
    expect(told).toHaveLength(1);
  });

  it('is described in the OpenAPI document: the repair route, the refusal fields and the lobby entry', async () => {
    const { app } = service();
    const docs = (await app.inject({ method: 'GET', url: '/docs/json' })).json();
    const repair = docs.paths['/api/tables/{tableId}/repair'].post;
    expect(Object.keys(repair.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '404', '409', '503']));
    expect(JSON.stringify(repair.responses['200'])).toContain('voided');
    const lobby = JSON.stringify(docs.paths['/api/tables'].get.responses['200']);
    expect(lobby).toContain('quarantine');
    expect(JSON.stringify(docs)).toContain('quarantined only: why the machine refuses it');
  });

  it('is found when a refused event reaches the log of a table the service holds: the next command meets the conflict, the ones after 503', async () => {
    const store = openLocalStorage({ kind: 'memory' }).store;
    const tokens = openLocalStorage({ kind: 'memory' }).tokens;
    const { app } = service({ store, tokens });
    const tableId = await createTable(app, { game: 'sevenSuitors', options: { end: 'hands:1' }, bots: [1, 2, 3] });
    const ann = (await app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/0`, payload: { name: 'Ann' } })).json().token;
    await waitFor(
      async () => (await store.read(tableId)).filter((event) => event.type === 'cards.passed').length === 3,
      'the bots to pass',
    );
    const log = await store.read(tableId);
    const card = replayLog(tableId, log).snapshot.context.hand!.holdings[1][0];
    await store.append(tableId, [withSchema({ type: 'card.played', at: new Date().toISOString(), data: { seat: 1, card } })], log.length);
    // A pass the copy held here allows: it reaches the log, which has moved on.
    const { seat: _seat, ...pass } = randomMove(replayLog(tableId, log).snapshot, 0, 'pass', createRng('ann'));
    const command = () => app.inject({ method: 'POST', url: `/api/tables/${tableId}/commands`, headers: bearer(ann), payload: pass });
    const statuses = [(await command()).statusCode, (await command()).statusCode, (await command()).statusCode];
    expect(statuses).toEqual([409, 503, 503]);
    // The lobby lists the store at most once a second.
    const listed = await waitFor(
      async () => {
        const entry = await lobbyEntry(app, tableId);
        return entry?.phase === 'quarantined' && entry;
      },
      'the lobby to list the table as quarantined',
      { everyMs: 100 },
    );
    expect(listed).toMatchObject({ game: 'sevenSuitors', quarantine: { seq: log.length + 1 } });
    expect(await store.version(tableId)).toBe(log.length + 1);
  });
});
