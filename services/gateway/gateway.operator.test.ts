/**
 * GET /api/admin/fleet: for the admin token only (401 without a token, 403
 * with a seat's); with tables seating, awaiting people, awaiting a bot that
 * does not move, past their turn clock's deadline, finished and stopped for
 * repair, it says what each waits on and which are stuck, lists the stuck
 * first, and shows no card, role or token.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN, bearer, startService, type TestService } from '../../drivers/embeddedService.js';
import { createMemoryEventStore } from '../eventstore/memoryEventStore.js';
import { TableHost } from '../host/tableHost.js';
import { finishedBotTable, playMoves, tickingClock } from '../projections/fleet/fixtures/fleetInPlay.js';
import type { OperatorReport } from './operatorReport.js';

const services: TestService[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.close()));
});

const people = (count: number) => Array.from({ length: count }, (_, seat) => ({ name: `P${seat}`, bot: false }));
const bots = (count: number) => Array.from({ length: count }, (_, seat) => ({ name: `B${seat}`, bot: true }));

describe('GET /api/admin/fleet', () => {
  it('says what each table in play waits on and which the service is late for, to the admin token only', async () => {
    const store = createMemoryEventStore();
    // No autopilot: the bots do not move, so a table awaiting one is one the service is late for. The host's clock
    // starts in January 2026, so a turn clock's deadline is long past by the real clock the page is read against.
    const host = new TableHost({ store, now: tickingClock() });
    // The lobby reads the real clock: its waiting table, months idle by the host's, must stay open to be joined.
    const service = startService({ store, host, limits: { seatedIdleSeconds: Number.MAX_SAFE_INTEGER } });
    services.push(service);
    const { tableId: seating } = await host.createTable({ game: 'antiCupid', players: [people(1)[0], null, null, null, null] });
    const { tableId: people4 } = await host.createTable({ game: 'sevenSuitors', players: people(4), seed: 'p', cardsPerSeat: 3 });
    const { tableId: clocked } = await host.createTable({
      game: 'sevenSuitors',
      players: people(4),
      seed: 'c',
      cardsPerSeat: 3,
      settings: { turnSeconds: 600 },
    });
    const { tableId: botsAwaited } = await host.createTable({ game: 'traitorOfLove', players: bots(6), seed: 'b', cardsPerSeat: 3 });
    await playMoves(host, botsAwaited, 3, 'b');
    await finishedBotTable(host, 'firstLesson', 'done');

    const anyone = await service.app.inject({ method: 'GET', url: '/api/admin/fleet' });
    expect(anyone.statusCode).toBe(401);
    expect(anyone.json()).toMatchObject({ error: 'unauthorized', message: expect.stringContaining('needs the admin token') });
    const { token } = (
      await service.app.inject({ method: 'POST', url: `/api/tables/${seating}/seats/1`, payload: { name: 'Bo' } })
    ).json() as { token: string };
    const seat = await service.app.inject({ method: 'GET', url: '/api/admin/fleet', headers: bearer(token) });
    expect(seat.statusCode).toBe(403);
    expect(seat.json()).toMatchObject({ error: 'forbidden', message: expect.stringContaining('only the admin token') });

    const reply = await service.app.inject({ method: 'GET', url: '/api/admin/fleet', headers: ADMIN });
    expect(reply.statusCode).toBe(200);
    const report = reply.json() as OperatorReport;
    expect(report.tables).toMatchObject({ inPlay: 4, waitingOnPeople: 2, waitingOnService: 2, stuck: 2, quarantined: 0 });
    const byId = new Map(report.tables.listed.map((table) => [table.tableId, table]));
    expect(byId.get(seating)).toMatchObject({ waitingOn: 'people', overdueSeconds: null, awaited: [], states: ['antiCupid.seating'] });
    expect(byId.get(people4)).toMatchObject({ waitingOn: 'people', overdueSeconds: null, deadline: null });
    expect(byId.get(people4)?.awaited).toEqual([0, 1, 2, 3].map((seat) => ({ seat, action: 'pass', bot: false })));
    expect(byId.get(clocked)).toMatchObject({ waitingOn: 'service', deadline: expect.stringMatching(/^2026-01-01T/) });
    expect(byId.get(clocked)?.overdueSeconds).toBeGreaterThan(30);
    expect(byId.get(botsAwaited)).toMatchObject({ waitingOn: 'service', replay: `/#/replay/${botsAwaited}` });
    expect(byId.get(botsAwaited)?.awaited.some((awaited) => awaited.bot)).toBe(true);
    // The stuck first, the latest of them first.
    expect(
      report.tables.listed
        .slice(0, 2)
        .map((table) => table.tableId)
        .sort(),
    ).toEqual([clocked, botsAwaited].sort());
    expect(report.owner).toBe('thisProcess');
    expect(report.missing).toEqual([]);
    expect(report.process.rssBytes).toBeGreaterThan(0);
    expect(report.process.fleetLag).toBe(0);
    expect(report.process.commandsPerSecond).toBeNull();
    expect(report.games.map((game) => game.game).sort()).toEqual(['antiCupid', 'firstLesson', 'sevenSuitors', 'traitorOfLove']);
    // Nothing hidden: no card, hand, role or token.
    const body = reply.body;
    expect(body).not.toMatch(/\b\d-[0-9a-z]{1,3}\b/);
    expect(body).not.toMatch(/"(hand|hands|cards|card|token|holder|holders|role|roleCard|seed)"/);
    expect(body).not.toContain(token);
  });

  it('counts a table stopped for repair as waiting on the operator, and not as stuck', async () => {
    const store = createMemoryEventStore();
    const first = new TableHost({ store, now: tickingClock() });
    const { tableId } = await first.createTable({ game: 'sevenSuitors', players: [people(1)[0], null, null, null] });
    await first.close();
    // Behind the host's back (a bug, or a forged append): a card played at a table still seating.
    await store.append(tableId, [{ type: 'card.played', at: '2026-01-01T00:01:00.000Z', data: { seat: 0, card: '3-9' } }], 2);
    const service = startService({ store, host: new TableHost({ store, now: tickingClock() }) });
    services.push(service);
    const report = (await service.app.inject({ method: 'GET', url: '/api/admin/fleet', headers: ADMIN })).json() as OperatorReport;
    expect(report.tables).toMatchObject({ inPlay: 1, quarantined: 1, stuck: 0, waitingOnPeople: 0, waitingOnService: 0 });
    expect(report.tables.listed[0]).toMatchObject({ tableId, waitingOn: 'operator', quarantined: true, overdueSeconds: null });
  });
});
