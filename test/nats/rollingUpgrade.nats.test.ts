/**
 * A rolling upgrade to a release with other rules and another event schema,
 * on a real 3-node NATS cluster (docs/operations.md, "A two-version
 * upgrade"). Release N is this code; release N+1 is this code with rules 2
 * (A Traitor of Love ends above 10 points, in a machine of another
 * fingerprint) and event schema 3 (one more upcaster): test/nextRelease/.
 * While all-bot tables play on workers of N, the gateway is replaced by one
 * of N+1 (gateways read logs, so they go first: one of N cannot read what
 * N+1 writes), then workers of N+1 start and those of N are drained
 * (SIGTERM) one at a time. Every table in play then plays on at N+1 and keeps the rules
 * it started with; every log is gapless and folds under N+1; tables created
 * after the drain get rules 2; a gateway of N, reading a table N+1 wrote
 * to, refuses it naming the schema it lacks (503), never misreads it. Prints the figures:
 * tables moved, drain times, longest pause of a table, moves refused, and
 * the moves of people playing through the gateway all along: acknowledged,
 * refused (none may be) and lost (none may be).
 */
import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../services/eventstore/eventStore.js';
import { isTableRefusal } from '../../services/host/errors.js';
import { EVENT_SCHEMA, schemaOf } from '../../services/host/upcasters.js';
import { waitFor } from '../../drivers/polling.js';
import { foldUnderNextRelease } from '../nextRelease/processes.js';
import { RULES_TWO_END_SCORE } from '../nextRelease/rulesTwo.js';
import { natsClusterForTests } from './cluster.js';
import { decodeReply, encode } from '../../services/bus/protocol.js';
import { tableSubjects } from '../../services/bus/subjects.js';
import { readGolden } from '../golden/goldenHosts.js';
import { expectAcknowledgedInLogs, playSeat, type Seat, type SeatPlay } from '../seatPlayer.js';
import { httpRequest } from '../../drivers/httpClient.js';
import { longestPause } from './pauses.js';

const LEASE_TTL_MS = 3000;
const BOT_DELAY_MS = 40;
const OLD_TABLES = 6;
const NEW_TABLES = 2;
/** Tables of Seven Suitors whose seat 0 the test plays through the gateway as a person would. */
const PEOPLE_TABLES = 2;
const NEXT_SCHEMA = EVENT_SCHEMA + 1;

describe('a rolling upgrade to a release with new rules and a new event schema', () => {
  const cluster = natsClusterForTests({ leaseTtlMs: LEASE_TTL_MS, botDelayMs: BOT_DELAY_MS, workerPrefix: 'w' });
  /** The tables the upgrade left playing on the workers of N+1, and the gateway of N+1 it left serving. */
  let tablesInPlay: string[] = [];
  let gatewayOfNext = '';

  /** The tables whose game is over, by the status the store keeps beside each. */
  async function finishedTables(): Promise<Set<string>> {
    const tables = await cluster.store.listTables();
    return new Set(tables.filter((table) => table.status?.finished === true).map((table) => table.tableId));
  }

  /** A table of A Traitor of Love with a bot in every seat, made through a gateway process's API: its id. */
  async function createBotTable(base: string): Promise<string> {
    const answer = await fetch(`${base}/api/tables`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ game: 'traitorOfLove', bots: [0, 1, 2, 3, 4, 5] }),
    });
    const body = (await answer.json()) as { tableId: string };
    expect(answer.status, JSON.stringify(body)).toBe(201);
    return body.tableId;
  }

  /** A table of Seven Suitors with bots in seats 1-3 and `name` in seat 0, made through a gateway process's API. */
  async function personAndBots(base: string, name: string): Promise<Seat> {
    const table = await httpRequest(base, 'POST', '/api/tables', {
      body: { game: 'sevenSuitors', options: { end: 'allSuits' }, bots: [1, 2, 3] },
    });
    expect(table.status, table.text).toBe(201);
    const { tableId } = table.body as { tableId: string };
    const joined = await httpRequest(base, 'POST', `/api/tables/${tableId}/seats/0`, { body: { name } });
    expect(joined.status, joined.text).toBe(201);
    return { tableId, seat: 0, token: (joined.body as { token: string }).token };
  }

  it('moves every table to workers of the new release, each keeping its rules, with no move refused and a short pause', async () => {
    const { store } = cluster;
    const old = [await cluster.startWorker({ workerId: 'w-release-n-1' }), await cluster.startWorker({ workerId: 'w-release-n-2' })];
    const gatewayOfN = await cluster.startGatewayProcess('this');
    const oldIds: string[] = [];
    for (let each = 0; each < OLD_TABLES; each++) oldIds.push(await createBotTable(gatewayOfN.baseUrl));
    const versions = (ids: readonly string[]) => Promise.all(ids.map((tableId) => store.version(tableId)));
    await waitFor(async () => (await versions(oldIds)).every((version) => version >= 20), 'every table to be playing', {
      timeoutMs: 30_000,
      everyMs: 100,
    });

    const upgradeStarted = Date.now();
    const gateway = await cluster.startGatewayProcess('next');
    await gatewayOfN.stop();
    // People play through the new gateway from here to the end of the drain: none of their moves may be refused or lost.
    const people: Seat[] = [];
    for (let each = 0; each < PEOPLE_TABLES; each++) people.push(await personAndBots(gateway.baseUrl, `Ada ${each}`));
    const play: SeatPlay = { acknowledged: [], refused: [] };
    let peopleStop = false;
    const playing = people.map((seat) => playSeat(gateway.baseUrl, seat, play, () => peopleStop));
    const movesOf = (tableId: string) => play.acknowledged.filter((move) => move.tableId === tableId).length;
    await waitFor(() => people.every(({ tableId }) => movesOf(tableId) >= 2), 'the people to be playing', {
      timeoutMs: 30_000,
      everyMs: 50,
    });
    const fresh = [
      await cluster.startWorker({ workerId: 'w-release-n1-1', release: 'next' }),
      await cluster.startWorker({ workerId: 'w-release-n1-2', release: 'next' }),
    ];
    const drains: number[] = [];
    for (const worker of old) {
      const started = Date.now();
      await worker.stop();
      drains.push(Date.now() - started);
    }
    const drained = Date.now();
    const atDrain = await versions(oldIds);
    // A game of bots lasts some 230-450 events, so on a busy machine, where starting workers is slow, one may end
    // before N+1 takes it or within ten events after: a table has played on when it moved ten events or ended. Which
    // tables N+1 wrote to, the ones the upgrade moved, their logs say below.
    const playedOn = async () => {
      const [now, finished] = await Promise.all([versions(oldIds), finishedTables()]);
      return oldIds.map((tableId, index) => {
        const done = now[index] >= atDrain[index] + 10 || finished.has(tableId);
        return { tableId, done, was: atDrain[index], now: now[index], finished: finished.has(tableId) };
      });
    };
    await waitFor(
      async () => (await playedOn()).every((table) => table.done),
      'every table to play on after the drain (or to end its game)',
      {
        timeoutMs: 30_000,
        everyMs: 100,
      },
    ).catch(async (error: Error) => {
      const stuck = (await playedOn()).filter((table) => !table.done);
      throw new Error(`${error.message}; stuck: ${JSON.stringify(stuck)}`);
    });
    const movesAtDrain = people.map(({ tableId }) => movesOf(tableId));
    await waitFor(
      () => people.every(({ tableId }, index) => movesOf(tableId) >= movesAtDrain[index] + 2),
      'the people to play on after the drain',
      { timeoutMs: 30_000, everyMs: 50 },
    );
    peopleStop = true;
    await Promise.all(playing);
    expect(play.refused).toEqual([]);
    await expectAcknowledgedInLogs(store, play.acknowledged);

    // Only workers of N+1 are left: a table created now plays by rules 2.
    const newIds: string[] = [];
    for (let each = 0; each < NEW_TABLES; each++) newIds.push(await createBotTable(gateway.baseUrl));
    await waitFor(async () => (await versions(newIds)).every((version) => version >= 20), 'the new tables to be playing', {
      timeoutMs: 30_000,
      everyMs: 100,
    });

    tablesInPlay = [...oldIds, ...newIds];
    gatewayOfNext = gateway.baseUrl;
    const personIds = people.map(({ tableId }) => tableId);
    const logs: Record<string, StoredEvent[]> = {};
    for (const tableId of [...oldIds, ...personIds, ...newIds]) logs[tableId] = await store.read(tableId);
    for (const [tableId, log] of Object.entries(logs))
      expect(
        log.map((event) => event.seq),
        `${tableId}: a gapless log`,
      ).toEqual(log.map((_, index) => index + 1));
    const created = (tableId: string) => logs[tableId][0].data as { rules: number; fingerprint: string };
    const moved = oldIds.filter((tableId) => logs[tableId].some((event) => schemaOf(event.data) === NEXT_SCHEMA));
    expect(moved.length, 'old tables N+1 took up').toBeGreaterThan(0);
    // Old tables: rules 1, written in schema 2 up to the drain and in schema 3 by N+1 after it, never back.
    for (const tableId of [...moved, ...personIds]) {
      expect(created(tableId).rules).toBe(1);
      const schemas = logs[tableId].map((event) => schemaOf(event.data));
      const firstOfNext = schemas.indexOf(NEXT_SCHEMA);
      expect(firstOfNext, `${tableId}: N+1 wrote to it`).toBeGreaterThan(0);
      expect(schemas.slice(0, firstOfNext).every((schema) => schema === EVENT_SCHEMA)).toBe(true);
      expect(schemas.slice(firstOfNext).every((schema) => schema === NEXT_SCHEMA)).toBe(true);
    }
    // New tables: rules 2, of a machine with another fingerprint, every event in schema 3.
    for (const tableId of newIds) {
      expect(created(tableId).rules).toBe(2);
      expect(created(tableId).fingerprint).not.toBe(created(oldIds[0]).fingerprint);
      expect(logs[tableId].every((event) => schemaOf(event.data) === NEXT_SCHEMA)).toBe(true);
    }
    // Every log folds under N+1, each table by its own rules.
    const folded = await foldUnderNextRelease(logs);
    let playingPastTen = 0;
    for (const tableId of [...oldIds, ...personIds, ...newIds]) {
      expect(folded[tableId], tableId).toMatchObject({ rules: newIds.includes(tableId) ? 2 : 1 });
      // A table N+1 never wrote to is one whose game N ended before the drain.
      if (oldIds.includes(tableId) && !moved.includes(tableId))
        expect(folded[tableId], `${tableId}, not moved`).toMatchObject({ finished: true });
      const table = folded[tableId];
      if (!('scores' in table) || personIds.includes(tableId)) continue;
      const best = Math.max(...table.scores);
      // Each game ends where its own rules end it: above 15 under rules 1, above 10 under rules 2.
      if (table.finished) expect(best, tableId).toBeGreaterThan(table.rules === 1 ? 15 : RULES_TWO_END_SCORE);
      else expect(best, tableId).toBeLessThanOrEqual(table.rules === 1 ? 15 : RULES_TWO_END_SCORE);
      if (table.rules === 1 && !table.finished && best > RULES_TWO_END_SCORE) playingPastTen++;
    }
    // The gateway of N+1 shows every table; one of N (this process) cannot read what N+1 wrote, and says so, and still
    // reads a table whose game ended before the drain.
    const gatewayOfNAgain = await cluster.openGateway();
    for (const tableId of [...oldIds, ...personIds, ...newIds]) {
      const view = await fetch(`${gateway.baseUrl}/api/tables/${tableId}/view`);
      expect(view.status, `${tableId}: ${await view.clone().text()}`).toBe(200);
      const refusal = await gatewayOfNAgain.tables.snapshot(tableId).then(
        () => null,
        (error: unknown) => error,
      );
      if (oldIds.includes(tableId) && !moved.includes(tableId)) {
        expect(refusal, `${tableId}, ended before the drain`).toBeNull();
        continue;
      }
      expect(isTableRefusal(refusal) && refusal.kind, tableId).toBe('newerRelease');
      expect((refusal as Error).message).toMatch(new RegExp(`is in event schema ${NEXT_SCHEMA}, written by a newer release`));
    }
    await gatewayOfNAgain.close();

    // A table of bots stands still only while it moves; one of people also while they think, so theirs is the wait for an answer.
    const pauses = oldIds.map((tableId) => longestPause(logs[tableId], upgradeStarted));
    const longestWait = Math.max(...play.acknowledged.map((move) => move.waitedMs));
    const refused = cluster.workers.flatMap((worker) =>
      worker.output.filter((line) => /could not move by itself|could not take up|refused|newer release/.test(line)),
    );
    console.log(
      `rolling upgrade N -> N+1 (rules 2, event schema ${NEXT_SCHEMA}): ${moved.length + PEOPLE_TABLES} tables of rules 1 moved from 2 workers of N to 2 of N+1; ` +
        `people's moves through the gateway: ${play.acknowledged.length} acknowledged (the longest wait for an answer ${longestWait} ms), ${play.refused.length} refused, 0 lost; ` +
        `drains took ${drains.join(' and ')} ms (${drained - upgradeStarted} ms with the new workers' start); longest pause of a table of bots ${Math.max(...pauses)} ms ` +
        `(bot delay ${BOT_DELAY_MS} ms, lease TTL ${LEASE_TTL_MS} ms); moves refused or failed ${refused.length}; ${NEW_TABLES} tables created after it play by rules 2; ${playingPastTen} tables of rules 1 play on past 10 points under N+1`,
    );
    expect(refused).toEqual([]);
    expect(Math.max(...pauses)).toBeLessThan(0.75 * LEASE_TTL_MS);
    expect(fresh.every((worker) => worker.child.exitCode === null)).toBe(true);
  }, 150_000);

  it('has a worker refuse a table of rules it does not know, naming them, and serve its other tables on', async () => {
    const { store } = cluster;
    const live = cluster.workers.filter((worker) => worker.child.exitCode === null && worker.child.signalCode === null);
    expect(live.length).toBeGreaterThan(0);
    // A table of a release after N+1: rules 3, which no worker here knows.
    const { log } = readGolden('current/traitorOfLove-plain-midPass.json');
    const [created, ...rest] = log.map(({ type, at, data }) => ({ type, at, data }));
    const tableId = 't-rules3-upgrade';
    await store.append(tableId, [{ ...created, data: { ...(created.data as object), rules: 3 } }, ...rest], 0);
    // The tables still under way, and three new ones: the upgrade's games of bots may all have ended by now.
    const finished = await finishedTables();
    const underWay = tablesInPlay.filter((id) => !finished.has(id));
    for (let each = 0; each < 3; each++) underWay.push(await createBotTable(gatewayOfNext));
    const playing = await Promise.all(underWay.map(async (id) => [id, await store.version(id)] as const));

    const answer = await cluster.nc.request(
      tableSubjects().command(tableId),
      encode({
        op: 'submit',
        tableId,
        args: [{ type: 'seat.joined', seat: 0, player: { name: 'Ada', bot: false }, holder: 'a'.repeat(64) }],
      }),
      { timeout: 10_000 },
    );
    const reply = decodeReply(answer);
    expect(reply).toMatchObject({
      ok: false,
      kind: 'newerRelease',
      message: expect.stringMatching(/table t-rules3-upgrade: rules version 3 is not known to this release \(it knows 1, 2\)/),
    });
    expect(await store.version(tableId)).toBe(log.length);
    // The worker that refused it is still up, and the tables under way still move.
    expect(live.every((worker) => worker.child.exitCode === null)).toBe(true);
    await waitFor(
      async () =>
        (await Promise.all(playing.map(async ([id, version]) => (await store.version(id)) > version))).filter(Boolean).length >= 3,
      'the other tables to move on',
      { timeoutMs: 20_000, everyMs: 100 },
    );
  }, 60_000);
});
