/**
 * The golden corpus (test/fixtures/golden/) replayed through today's code:
 * logs written by this release and by earlier ones. Every log must replay,
 * through the replay library and through a host taking the table up (from
 * the log and from a snapshot), to where it ended when it was written; every
 * finished game's record must verify and still be what its log exports;
 * every live table must take its next legal move. A failure names the log
 * and the fields that changed: a rule changed without a new rules version
 * (machines/games/rulebooks.ts) shows up here.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRng } from '../machines/cards/shuffle.js';
import type { GameRecord } from '../machines/record/record.js';
import { verifyRecord } from '../machines/record/verify.js';
import { recordOfLog, replayLog } from '../services/host/replay.js';
import { tableCreatedOf } from '../services/host/tableLog.js';
import { GOLDEN_CASES, nextPersonMove } from './golden/cases.js';
import { GAME_NAMES, type GameName } from '../machines/table/options.js';
import { differences, outcomeOf } from './golden/outcome.js';
import { GOLDEN_CORPUS, hostsOverLogs, readGolden } from './golden/goldenHosts.js';

const goldenLogs = readdirSync(GOLDEN_CORPUS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((release) =>
    readdirSync(join(GOLDEN_CORPUS, release.name))
      .filter((file) => file.endsWith('.json'))
      .map((file) => `${release.name}/${file}`),
  );

/** The games of the release before versions, whose logs unversioned/ holds (a game added since has none there). */
const GAMES_BEFORE_VERSIONS: readonly GameName[] = ['sevenSuitors', 'antiCupid', 'traitorOfLove'];

const TABLE = 'golden';
const hostWithLog = hostsOverLogs(() => new Date('2026-06-01T00:00:00.000Z'));

/**
 * The record a log exports now, less the fields records gained after `old`
 * was written (`rules`, which such a record leaves to be read as rules 1).
 */
function exportedAsOf(old: GameRecord, exported: GameRecord): GameRecord {
  const { rules: _rules, ...rest } = exported;
  return inFormatOf(old, old.rules !== undefined ? exported : rest);
}

/** A format 3 record as format 2 wrote it (no contributions), when `old` is format 2: every deal there is scheme 1. */
function inFormatOf(old: GameRecord, exported: GameRecord): GameRecord {
  if (old.format !== 'seven-suitors-record/2') return exported;
  const hands = exported.hands.map((hand) => {
    if (hand.fairness == null) return hand;
    const { contributions: _contributions, ...fairness } = hand.fairness;
    return { ...hand, fairness };
  });
  return { ...exported, format: old.format, hands };
}

describe('the golden corpus', () => {
  it('holds every case of this release, and a finished game of every game from the release before versions', () => {
    expect(goldenLogs.filter((name) => name.startsWith('current/')).sort()).toEqual(
      GOLDEN_CASES.map((golden) => `current/${golden.name}.json`).sort(),
    );
    for (const game of GAMES_BEFORE_VERSIONS)
      expect(goldenLogs.some((name) => name.startsWith(`unversioned/${game}-`) && name.endsWith('-finished.json'))).toBe(true);
    // A game added since has a finished game of this release instead.
    for (const game of GAME_NAMES.filter((each) => !GAMES_BEFORE_VERSIONS.includes(each)))
      expect(goldenLogs.some((name) => name.startsWith(`current/${game}-`) && name.endsWith('-finished.json'))).toBe(true);
  });

  describe.each(goldenLogs)('%s', (name) => {
    const golden = readGolden(name);
    const changed = (what: string, found: string[]) =>
      `${name}: ${what} changed (the log was written by an earlier release):\n  ${found.join('\n  ')}`;

    it('replays to where it ended, through the replay library and a host taking the table up from its log and from a snapshot', async () => {
      const replayed = outcomeOf(replayLog(TABLE, golden.log).snapshot);
      expect(differences(golden.expected, replayed), changed('where the game ends', differences(golden.expected, replayed))).toEqual([]);
      const { host, store } = await hostWithLog(TABLE, golden.log);
      const fromLog = outcomeOf((await host.snapshot(TABLE)).snapshot);
      expect(differences(golden.expected, fromLog), changed('the table a host takes up', differences(golden.expected, fromLog))).toEqual(
        [],
      );
      await host.passivate(TABLE);
      expect((await store.loadSnapshot(TABLE))?.version).toBe(golden.log.length);
      const fromSnapshot = outcomeOf((await host.snapshot(TABLE)).snapshot);
      expect(
        differences(golden.expected, fromSnapshot),
        changed('the table resumed from a snapshot', differences(golden.expected, fromSnapshot)),
      ).toEqual([]);
    });

    const { record } = golden;
    if (record !== null) {
      it('verifies as a finished game, and its log still exports the record it exported', () => {
        const verification = verifyRecord(record);
        expect(verification.problems, `${name}: its record no longer verifies`).toEqual([]);
        const now = recordOfLog(TABLE, golden.log);
        expect(now.rules, `${name}: the record names the rules its log was played under`).toBe(tableCreatedOf(golden.log[0], TABLE).rules);
        const exported = differences(record, exportedAsOf(record, now));
        expect(exported, changed('the record its log exports', exported)).toEqual([]);
      });
    } else {
      it('takes its next legal move', async () => {
        const { host } = await hostWithLog(TABLE, golden.log);
        const { snapshot } = await host.snapshot(TABLE);
        const openSeat = snapshot.context.occupants.indexOf(null);
        const move =
          openSeat >= 0
            ? { type: 'seat.joined', seat: openSeat, player: { name: 'Newcomer', bot: true } }
            : nextPersonMove(snapshot, createRng(name));
        expect(move, `${name}: no seat is awaited at a live table (${golden.expected.phase})`).not.toBeNull();
        const accepted = await host.submit(TABLE, move);
        expect(accepted.version).toBeGreaterThan(golden.log.length);
      });
    }
  });
});
