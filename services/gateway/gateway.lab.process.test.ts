/**
 * GET /api/lab and GET /lab over the service's own finished games, and
 * `suitors lab --records` over the records the service writes: both must
 * give the figures a direct computation from the same records gives (the
 * computation here reads the records itself, with none of the lab's code).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { GameRecord } from '../../machines/record/record.js';
import { GAMES as SHAPES, type GameName } from '../../machines/table/options.js';
import type { TestService } from '../../drivers/embeddedService.js';
import { waitFor } from '../../drivers/polling.js';
import { servicesClosedAfterEach } from '../../test/servicesPerTest.js';
import type { LabStats } from '../lab/labStats.js';

const service = servicesClosedAfterEach();
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'suitors-lab-route-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const GAMES = [
  ...Array.from({ length: 4 }, () => ({ game: 'sevenSuitors' as GameName, options: { end: 'hands:2' } })),
  ...Array.from({ length: 2 }, () => ({ game: 'antiCupid' as GameName, options: {} })),
];

async function finishedGames(started: TestService): Promise<GameRecord[]> {
  const tableIds: string[] = [];
  for (const { game, options } of GAMES) {
    const { seats } = SHAPES[game];
    const created = await started.app.inject({
      method: 'POST',
      url: '/api/tables',
      payload: { game, options, bots: [...Array(seats).keys()] },
    });
    expect(created.statusCode, created.body).toBe(201);
    tableIds.push(created.json().tableId);
  }
  for (const tableId of tableIds) {
    await waitFor(
      async () => (await started.host.snapshot(tableId)).snapshot.context.outcome?.finished === true,
      `table ${tableId} to finish`,
    );
  }
  return Promise.all(
    tableIds.map(async (tableId) => {
      const answer = await started.app.inject({ method: 'GET', url: `/api/tables/${tableId}/record` });
      expect(answer.statusCode).toBe(200);
      return answer.json() as GameRecord;
    }),
  );
}

/** The figures straight from the records: games, mean hands, each seat's share of wins, marriages per hand. */
function directFigures(records: readonly GameRecord[], game: string) {
  const ofGame = records.filter((record) => record.game === game);
  const hands = ofGame.flatMap((record) => record.hands);
  const seats = ofGame[0].seats;
  return {
    count: ofGame.length,
    meanHands: hands.length / ofGame.length,
    bySeat: Array.from(
      { length: seats },
      (_, seat) => ofGame.filter((record) => record.result.winners.includes(seat)).length / ofGame.length,
    ),
    marriagesPerHand: hands.reduce((sum, hand) => sum + hand.result!.marriages.length, 0) / hands.length,
    draws: ofGame.filter((record) => record.result.winners.length === 0).length,
  };
}

function expectFigures(stats: LabStats, records: readonly GameRecord[]) {
  for (const game of ['sevenSuitors', 'antiCupid']) {
    const section = stats.sections.find((each) => each.game === game)!;
    const direct = directFigures(records, game);
    expect(section.count).toBe(direct.count);
    expect(section.handsPerGame.mean).toBeCloseTo(direct.meanHands, 12);
    section.winShare.bySeat.forEach((share, seat) => expect(share).toBeCloseTo(direct.bySeat[seat], 12));
    expect(section.marriagesPerHand.mean).toBeCloseTo(direct.marriagesPerHand, 12);
    expect(section.draws.count).toBe(direct.draws);
  }
  expect(stats.sections).toHaveLength(2);
}

describe("the lab over the service's finished games", () => {
  it('GET /api/lab, GET /lab and suitors lab --records give the figures the records give directly', async () => {
    const started = service();
    const records = await finishedGames(started);

    // The lobby's listing may be a second old, and the lab's figures five: wait until they hold every game.
    const stats = await waitFor(
      async () => {
        const answer = await started.app.inject({ method: 'GET', url: '/api/lab' });
        expect(answer.statusCode, answer.body).toBe(200);
        const figures = answer.json() as LabStats;
        return figures.sections.reduce((games, section) => games + section.count, 0) === GAMES.length && figures;
      },
      'the lab to hold every finished game',
      { everyMs: 250 },
    );
    expect(stats.source).toBe('this service’s 6 finished games');
    expectFigures(stats, records);

    const page = await started.app.inject({ method: 'GET', url: '/lab' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<svg class="plot histogram"');
    expect(page.body).not.toMatch(/<script|https?:\/\//);

    const directory = join(scratch, 'records');
    writeRecords(directory, records);
    const out = join(scratch, 'out');
    const run = await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'services/cli/bin.js'), 'lab', '--records', directory, '--out', out],
      { cwd: ROOT },
    );
    expect(run.stdout).toBe(`6 records read, 0 left out -> ${join(out, 'stats.json')}, ${join(out, 'report.html')}\n`);
    const fromFiles = JSON.parse(readFileSync(join(out, 'stats.json'), 'utf8')) as LabStats;
    expectFigures(fromFiles, records);
    expect(fromFiles.sections).toEqual(stats.sections);
  });
});

/** The records as files, one per game, as a directory `suitors lab --records` reads. */
function writeRecords(directory: string, records: readonly GameRecord[]) {
  mkdirSync(directory, { recursive: true });
  records.forEach((record, i) => writeFileSync(join(directory, `game-${i}.json`), JSON.stringify(record)));
}
