/**
 * The rule-change policy (docs/operations.md, "Rule changes"): a table keeps
 * the rules it was created under. Here the next release is simulated by a
 * second rulebook (test/nextRelease/rulesTwo.ts) in which A Traitor of Love ends after a hand in which
 * someone has more than 10 points, not 15. Tables under way, and logs from
 * before rules were versioned, must still play and replay by the first rules;
 * new tables take the second. Without the rules version in the log, the old
 * Traitor of Love games would end early and their logs stop replaying, which
 * the last test shows.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { verifyRecord } from '../machines/record/verify.js';
import { parseArgs } from '../services/cli/args.js';
import { checkCommand } from '../services/cli/commands/check.js';
import { createRng } from '../machines/cards/shuffle.js';
import { CURRENT_RULES } from '../machines/games/index.js';
import { nextBotMove } from '../drivers/botTurns.js';
import { replayLog } from '../services/host/replay.js';
import type { StoredEvent } from '../services/eventstore/eventStore.js';
import type { TableHost } from '../services/host/tableHost.js';
import { tableCreatedOf } from '../services/host/tableLog.js';
import { differences, outcomeOf } from './golden/outcome.js';
import { nextPersonMove } from './golden/cases.js';
import { hostsOverLogs, readGolden as golden } from './golden/goldenHosts.js';
import { servicesClosedAfterEach } from './servicesPerTest.js';
import { openLocalStorage } from '../services/storage/storage.js';
import { EVENT_SCHEMA } from '../services/host/upcasters.js';
import { waitFor } from '../drivers/polling.js';
import { RULES_TWO_END_SCORE } from './nextRelease/rulesTwo.js';

vi.mock('../machines/games/rulebooks.js', async (importOriginal) => {
  const released = await importOriginal<typeof import('../machines/games/rulebooks.js')>();
  const { withRulesTwo } = await import('./nextRelease/rulesTwo.js');
  return { RULEBOOKS: withRulesTwo(released.RULEBOOKS) };
});

const FINISHED_GAMES = ['current/traitorOfLove-plain-finished.json', 'unversioned/traitorOfLove-plain-finished.json'];

const hostsOver = hostsOverLogs();
/** Deals and bots of a Traitor of Love game whose end the new rule moves (checked: its record fails under rules 1). */
const RULE_MATTERS_SEED = 'rules-0';
async function hostWith(log?: readonly StoredEvent[]): Promise<TableHost> {
  return (await hostsOver('old', log)).host;
}

/** Plays every seat of a table as a random bot would until the game is over; the scores after each hand. */
async function playToTheEnd(host: TableHost, tableId: string, botSeed = tableId): Promise<number[][]> {
  const rng = createRng(botSeed);
  for (let moves = 0; moves < 5000; moves++) {
    const { snapshot } = await host.snapshot(tableId);
    if (snapshot.context.outcome?.finished) {
      let running = snapshot.context.scores.map(() => 0);
      return snapshot.context.handResults.map((result) => (running = running.map((score, seat) => score + result.handScores[seat])));
    }
    await host.submit(tableId, nextBotMove(snapshot, rng) ?? nextPersonMove(snapshot, rng)!);
  }
  throw new Error(`table ${tableId} did not finish in 5000 moves`);
}

describe('a rule change: each table keeps the rules it started with', () => {
  it('is the next release here: rules 2 are current, and a new table is created under them', async () => {
    expect(CURRENT_RULES).toBe(2);
    const host = await hostWith();
    const { tableId } = await host.createTable({
      game: 'traitorOfLove',
      players: Array.from({ length: 6 }, (_, seat) => ({ name: `Bot ${seat}`, bot: true })),
    });
    expect(tableCreatedOf((await host.events(tableId))[0], tableId).rules).toBe(2);
    const scoresByHand = await playToTheEnd(host, tableId);
    // The game ends after the first hand in which someone passes 10.
    expect(scoresByHand.findIndex((scores) => scores.some((score) => score > RULES_TWO_END_SCORE))).toBe(scoresByHand.length - 1);
  });

  it('tells each table the end of its own rules: above 10 at a table of rules 2, above 15 at one of rules 1', async () => {
    const host = await hostWith();
    const { tableId } = await host.createTable({
      game: 'traitorOfLove',
      players: Array.from({ length: 6 }, (_, seat) => ({ name: `Bot ${seat}`, bot: true })),
    });
    const now = (await host.view(tableId, 'spectator')).view;
    expect(now.endWords).toBe('the hand after which someone has more than 10 points');
    expect(now.rulesSummary.at(-1)).toMatch(/passes 10 points/);
    const old = await hostWith(golden('unversioned/traitorOfLove-plain-midAccusation.json').log);
    const before = (await old.view('old', 'spectator')).view;
    expect(before.endWords).toBe('the hand after which someone has more than 15 points');
    expect(before.rulesSummary.at(-1)).toMatch(/passes 15 points/);
  });

  it.each(FINISHED_GAMES)('replays %s, a game of rules 1, to the end it had', async (name) => {
    const { expected, log } = golden(name);
    expect(tableCreatedOf(log[0], 'old').rules ?? 1).toBe(1);
    expect(differences(expected, outcomeOf(replayLog('old', log).snapshot))).toEqual([]);
    const host = await hostWith(log);
    expect(differences(expected, outcomeOf((await host.snapshot('old')).snapshot))).toEqual([]);
  });

  it('plays a table of rules 1 under way at the deploy to the end of rules 1', async () => {
    const { log } = golden('unversioned/traitorOfLove-plain-midAccusation.json');
    const host = await hostWith(log);
    const scoresByHand = await playToTheEnd(host, 'old');
    expect(scoresByHand.at(-1)!.some((score) => score > 15)).toBe(true);
    expect(scoresByHand.slice(0, -1).every((scores) => scores.every((score) => score <= 15))).toBe(true);
  });

  it('would not, were the rules version ignored: the same old games then end early and their logs no longer replay', () => {
    for (const name of FINISHED_GAMES) {
      const { log } = golden(name);
      const [created, ...rest] = log;
      const underNewRules = [{ ...created, data: { ...(created.data as object), rules: 2 } }, ...rest];
      expect(() => replayLog('old', underNewRules), name).toThrow(/is refused on replay/);
    }
  });

  it('checks a record against the rules it was played under: a record of rules 1 verifies, the same game claimed for rules 2 does not', async () => {
    const { record } = golden('first-fingerprints/traitorOfLove-plain-finished.json');
    // Written before records named their rules: read as rules 1.
    expect(record!.rules).toBeUndefined();
    expect(verifyRecord(record).problems).toEqual([]);
    expect(verifyRecord({ ...record, rules: 1 }).problems).toEqual([]);
    expect(verifyRecord({ ...record, rules: 2 }).problems.length).toBeGreaterThan(0);
    const unknown = verifyRecord({ ...record, rules: 3 });
    expect(unknown.problems).toEqual([
      { field: 'rules', message: expect.stringMatching(/rules version 3; this checker knows rules 1, 2/) },
    ]);

    // A game the new rule changes (one that passed 10 only after a hand ended on exactly 10): fixed deals and bots,
    // as a game that jumped past 10 in one hand ends alike under both rules and would verify under either.
    const host = await hostWith();
    const { tableId } = await host.createTable({
      game: 'traitorOfLove',
      seed: RULE_MATTERS_SEED,
      players: Array.from({ length: 6 }, (_, seat) => ({ name: `Bot ${seat}`, bot: true })),
    });
    await playToTheEnd(host, tableId, RULE_MATTERS_SEED);
    const underNewRules = await host.exportRecord(tableId);
    expect(underNewRules.rules).toBe(2);
    expect(verifyRecord(underNewRules).problems).toEqual([]);
    expect(verifyRecord({ ...underNewRules, rules: 1 }).ok).toBe(false);

    // `suitors check`, the command a player runs, says the same.
    const folder = mkdtempSync(join(tmpdir(), 'rule-change-'));
    try {
      writeFileSync(join(folder, 'a-rules1.json'), JSON.stringify(record));
      writeFileSync(join(folder, 'b-rules2.json'), JSON.stringify(underNewRules));
      writeFileSync(join(folder, 'c-rules3.json'), JSON.stringify({ ...record, rules: 3 }));
      const printed: string[] = [];
      const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
      const status = await checkCommand.run(parseArgs([folder]));
      log.mockRestore();
      // Notes on how each deal is proven are not about the rules.
      const notes = ['deals unverified', "chosen by the house's secret alone"];
      expect(printed.filter((line) => !notes.some((note) => line.includes(note)))).toEqual([
        `${join(folder, 'c-rules3.json')}: rules: the game was played under rules version 3; this checker knows rules 1, 2: check it with a release that knows them`,
        '2 passed, 1 failed',
      ]);
      expect(status).toBe(1);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
  it('imports a record of rules 1 as a table of rules 1, whatever rules are current', async () => {
    for (const name of ['current/traitorOfLove-plain-finished.json', 'first-fingerprints/traitorOfLove-plain-finished.json']) {
      const { record } = golden(name);
      const host = await hostWith();
      const { tableId } = await host.importRecord(record);
      expect(tableCreatedOf((await host.events(tableId))[0], tableId).rules, name).toBe(1);
      const { snapshot } = await host.snapshot(tableId);
      expect(snapshot.context.outcome?.finished, name).toBe(true);
      expect(Math.max(...snapshot.context.scores), name).toBeGreaterThan(15);
    }
  });
});

describe('a table written by a newer release, met by this one', () => {
  const startService = servicesClosedAfterEach();

  it('is refused with 503 naming the rules version or event schema it lacks, never a 500, while other tables play on', async () => {
    const store = openLocalStorage({ kind: 'memory' }).store;
    const { log } = golden('current/traitorOfLove-plain-midPass.json');
    const [created, ...rest] = log.map(({ type, at, data }) => ({ type, at, data }));
    // A table created under rules 3, which only a later release has.
    await store.append('rules3', [{ ...created, data: { ...(created.data as object), rules: 3 } }, ...rest], 0);
    // A table of rules 1 to which a later release wrote an event in an event schema this one cannot read.
    const last = rest.at(-1)!;
    await store.append('schema3', [created, ...rest, { ...last, data: { ...(last.data as object), schema: EVENT_SCHEMA + 1 } }], 0);
    const service = startService({ store, botDelayMs: 5 });
    const { tableId: playing } = await service.host.createTable({
      game: 'sevenSuitors',
      players: Array.from({ length: 4 }, (_, seat) => ({ name: `Bot ${seat}`, bot: true })),
    });

    for (const [tableId, lacking] of [
      ['rules3', /table rules3: rules version 3 is not known to this release \(it knows 1, 2\)/],
      ['schema3', /event 12 \(cards\.passed\) is in event schema 3, written by a newer release; this release reads schemas 1 to 2/],
    ] as const) {
      for (const request of [
        { method: 'GET' as const, url: `/api/tables/${tableId}/view` },
        { method: 'GET' as const, url: `/api/tables/${tableId}/replay?at=2` },
        { method: 'POST' as const, url: `/api/tables/${tableId}/seats/0`, payload: { name: 'Ada' } },
      ]) {
        const answer = await service.app.inject(request);
        expect(answer.statusCode, `${request.method} ${request.url}: ${answer.body}`).toBe(503);
        expect(answer.json()).toEqual({ error: 'unavailable', message: expect.stringMatching(lacking) });
      }
    }
    const list = await service.app.inject({ method: 'GET', url: '/api/tables' });
    expect(list.statusCode, list.body).toBe(200);
    // The table of this release plays on beside them.
    await waitFor(async () => (await store.version(playing)) > 40, 'the bots to play on', { everyMs: 20 });
    expect(await store.version('rules3')).toBe(log.length);
    expect(await store.version('schema3')).toBe(log.length + 1);
  });
});
