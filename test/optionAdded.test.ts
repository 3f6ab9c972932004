/**
 * Options are versioned with the rules (docs/operations.md, "What each kind
 * of change needs": a new table option). Here the next release adds a
 * test-only Seven Suitors option, `hints`, in rules 2 (the rulebook of
 * test/nextRelease/rulesTwo.ts), declaring that a record of rules 2 that
 * does not name it played without hints. Records of rules 1, from the
 * golden corpus, must still verify: they are checked against the options of
 * rules 1, which had no `hints`.
 */
import { describe, expect, it, vi } from 'vitest';
import { CURRENT_RULES } from '../machines/games/index.js';
import { verifyRecord } from '../machines/record/verify.js';
import { DEFAULT_OPTIONS, optionsOfRules, parseOptions } from '../machines/table/options.js';
import { createRng } from '../machines/cards/shuffle.js';
import { nextBotMove } from '../drivers/botTurns.js';
import { nextPersonMove } from './golden/cases.js';
import { hostsOverLogs, readGolden } from './golden/goldenHosts.js';

vi.mock('../machines/games/rulebooks.js', async (importOriginal) => {
  const released = await importOriginal<typeof import('../machines/games/rulebooks.js')>();
  const { withRulesTwo } = await import('./nextRelease/rulesTwo.js');
  return { RULEBOOKS: withRulesTwo(released.RULEBOOKS) };
});

vi.mock('../machines/games/rules/sevenSuitors.js', async (importOriginal) => {
  const released = await importOriginal<typeof import('../machines/games/rules/sevenSuitors.js')>();
  const hints = {
    label: 'Hints',
    values: ['off', 'on'],
    default: 'on',
    choices: [
      { value: 'on', label: 'show hints' },
      { value: 'off', label: 'no hints' },
    ],
    since: 2,
    whenAbsent: 'off',
  } as const;
  const { sevenSuitorsRules } = released;
  return { ...released, sevenSuitorsRules: { ...sevenSuitorsRules, options: { ...sevenSuitorsRules.options, hints } } };
});

const OLD_RECORDS = [
  'current/sevenSuitors-allSuits-off-finished.json',
  'current/sevenSuitors-hands1-plain-finished.json',
  'first-fingerprints/sevenSuitors-hands1-plain-finished.json',
];

const hostsOver = hostsOverLogs();

describe('a table option added in the next rules', () => {
  it('is an option of rules 2 only: new tables take its default, the options of rules 1 stay as they were', () => {
    expect(CURRENT_RULES).toBe(2);
    expect(DEFAULT_OPTIONS.sevenSuitors).toEqual({ end: 'allSuits', specials: 'off', hints: 'on' });
    expect(Object.keys(optionsOfRules('sevenSuitors', 1))).toEqual(['end', 'specials']);
    expect(Object.keys(optionsOfRules('sevenSuitors', 2))).toEqual(['end', 'specials', 'hints']);
    expect(parseOptions('sevenSuitors', { hints: 'sometimes' })).toEqual({
      ok: false,
      errors: ['option hints of sevenSuitors must be one of off, on, not "sometimes"'],
    });
  });

  it.each(OLD_RECORDS)('leaves %s, a record of rules 1 from the golden corpus, verifying', (name) => {
    const { record } = readGolden(name);
    expect(record!.rules ?? 1).toBe(1);
    expect(record!.options).not.toHaveProperty('hints');
    expect(verifyRecord(record).problems).toEqual([]);
    // Had the record been held to today's options, as before options were versioned, it would fail:
    expect(Object.keys(DEFAULT_OPTIONS.sevenSuitors).filter((key) => !(key in record!.options))).toEqual(['hints']);
  });

  it('reads a record of rules 2 that does not name it as its declared absence, and checks one that does', () => {
    // The Seven Suitors machine is the same in both rulebooks, so the game of rules 1 plays alike under rules 2.
    const { record } = readGolden('current/sevenSuitors-hands1-plain-finished.json');
    expect(verifyRecord({ ...record, rules: 2 }).problems).toEqual([]);
    expect(verifyRecord({ ...record, rules: 2, options: { ...record!.options, hints: 'on' } }).problems).toEqual([]);
    expect(verifyRecord({ ...record, rules: 2, options: { ...record!.options, hints: 'loud' } }).problems).toEqual([
      { field: 'options', message: 'option hints of sevenSuitors must be one of off, on, not "loud"' },
    ]);
  });

  it('is written in the records of new tables, which verify', async () => {
    const { host } = await hostsOver('new');
    const { tableId } = await host.createTable({
      game: 'sevenSuitors',
      options: { end: 'hands:1' },
      players: Array.from({ length: 4 }, (_, seat) => ({ name: `Bot ${seat}`, bot: true })),
    });
    const rng = createRng(tableId);
    for (let moves = 0; moves < 500; moves++) {
      const { snapshot } = await host.snapshot(tableId);
      if (snapshot.context.outcome?.finished) break;
      await host.submit(tableId, nextBotMove(snapshot, rng) ?? nextPersonMove(snapshot, rng)!);
    }
    const record = await host.exportRecord(tableId);
    expect(record.result.finished).toBe(true);
    expect(record.rules).toBe(2);
    expect(record.options).toEqual({ end: 'hands:1', specials: 'off', hints: 'on' });
    expect(verifyRecord(record).problems).toEqual([]);
    // Claimed for rules 1, the option is none of those rules': it is not read, and the game verifies as played without it.
    expect(verifyRecord({ ...record, rules: 1 }).problems).toEqual([]);
  });
});
