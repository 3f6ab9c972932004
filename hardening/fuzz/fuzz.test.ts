/**
 * The command fuzzer, short: a few thousand commands over the three games
 * and both paths with a fixed seed, no findings — and proof that it would
 * have found something: every kind of bad command was actually refused, and
 * a host that logs a refused command is caught.
 */
import { describe, expect, it } from 'vitest';
import type { EventStore } from '../../services/eventstore/eventStore.js';
import { isTableRefusal } from '../../services/host/errors.js';
import { TableHost, type TableHostOptions } from '../../services/host/tableHost.js';
import type { Accepted } from '../../services/host/tableService.js';
import { TURN_TIMED_OUT } from '../../services/host/tableLog.js';
import { fuzz, type FuzzReport, type RunFigures } from './commandFuzzer.js';
import { GARBAGE_KINDS } from './fuzzPath.js';
import { MUST_REFUSE } from './malformedCommands.js';

const GAMES = ['sevenSuitors', 'antiCupid', 'traitorOfLove', 'firstLesson'] as const;

function summed(runs: readonly RunFigures[], pick: (run: RunFigures) => Record<string, number>): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const run of runs) for (const [key, count] of Object.entries(pick(run))) sums[key] = (sums[key] ?? 0) + count;
  return sums;
}

function describeFindings(report: FuzzReport): string {
  return report.findings.map((finding) => `${finding.kind}: ${finding.detail}`).join('\n');
}

describe('the command fuzzer', () => {
  it('sends thousands of good and bad commands through the host and the gateway, and finds nothing wrong', async () => {
    const report = await fuzz({ games: GAMES, commands: 600, gatewayCommands: 240, seed: 'npm-test', via: ['host', 'gateway'] });
    expect(report.findings, describeFindings(report)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.runs).toHaveLength(GAMES.length * 2);
    for (const run of report.runs) {
      // A step of several commands sent together may end a little past the budget.
      const budget = run.via === 'host' ? 600 : 240;
      expect(run.sent).toBeGreaterThanOrEqual(budget);
      expect(run.sent).toBeLessThan(budget + 3);
      expect(run.accepted).toBeGreaterThan(run.sent / 4);
    }
    // Games end and new tables start, so the checks at the end of a game ran too.
    expect(report.runs.reduce((sum, run) => sum + run.gamesFinished, 0)).toBeGreaterThan(1);
    for (const via of ['host', 'gateway'] as const) {
      const runs = report.runs.filter((run) => run.via === via);
      const refused = summed(runs, (run) => run.refusedByKind);
      for (const kind of MUST_REFUSE) expect(refused[kind] ?? 0, `${via}: ${kind} refused`).toBeGreaterThan(0);
      for (const kind of ['duplicate', 'stale', 'reordered']) expect(refused[kind] ?? 0, `${via}: ${kind} refused`).toBeGreaterThan(0);
    }
    const gateway = report.runs.filter((run) => run.via === 'gateway');
    const refusedThere = summed(gateway, (run) => run.refusedByKind);
    for (const kind of GARBAGE_KINDS) expect(refusedThere[kind] ?? 0, `gateway: ${kind} refused`).toBeGreaterThan(0);
    const statuses = Object.keys(summed(gateway, (run) => run.answers)).map((key) => key.split(' ')[0]);
    for (const status of ['400', '401', '403', '404', '409', '413', '422']) expect(statuses).toContain(status);
    expect(Object.keys(summed(gateway, (run) => run.answers))).toContain('ws close 1009');
  });

  it('catches a host that logs a refused command (through its API and through the gateway)', async () => {
    const report = await fuzz({
      games: ['antiCupid'],
      commands: 150,
      seed: 'broken',
      via: ['host', 'gateway'],
      createHost: (options) => new HostThatLogsRefusals(options),
    });
    expect(report.ok).toBe(false);
    for (const run of report.runs) expect(run.findings.refusedButApplied, run.via).toBeGreaterThan(0);
    expect(report.findings[0]).toMatchObject({ kind: 'refusedButApplied', detail: expect.stringContaining(TURN_TIMED_OUT) });
  });
});

/** Broken on purpose: after refusing a command, it appends an event anyway (a note of the refusal, say). */
class HostThatLogsRefusals extends TableHost {
  private readonly log: EventStore;

  constructor(options: TableHostOptions) {
    super(options);
    this.log = options.store;
  }

  override async submit(tableId: string, command: unknown): Promise<Accepted> {
    try {
      return await super.submit(tableId, command);
    } catch (error) {
      if (isTableRefusal(error) && error.kind !== 'unknownTable') {
        await this.log.append(
          tableId,
          [{ type: TURN_TIMED_OUT, at: new Date().toISOString(), data: { seat: 0 } }],
          await this.log.version(tableId),
        );
        // Its own copy of the table is now behind its log: it reads the table again next time.
        await this.passivate(tableId);
      }
      throw error;
    }
  }
}
