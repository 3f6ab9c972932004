/**
 * `suitors lab` as a person runs it: the same seed gives the same figures
 * whatever the number of worker threads, a record directory with a bad
 * file names it and folds the rest, and a usage mistake is refused with
 * what would be right, writing nothing.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDirectory, suitors } from '../../../test/kit/cli.js';
import { simulateGame } from '../../simulator/simulate.js';
import type { LabStats } from '../../lab/labStats.js';
import { parseArgs, UsageError } from '../args.js';
import { labCommand } from './lab.js';

const scratch = scratchDirectory('suitors-lab-cli');

function statsIn(out: string): LabStats {
  return JSON.parse(readFileSync(join(out, 'stats.json'), 'utf8')) as LabStats;
}

describe('suitors lab --game', () => {
  it('plays each listed option value and bot kind, the same figures on one worker thread as on two', async () => {
    const args = [
      'lab',
      '--game',
      'sevenSuitors',
      '--end',
      'hands:1',
      '--specials',
      'off,powers',
      '--bots',
      'random,heuristic',
      '--games',
      '6',
      '--seed',
      'same',
    ];
    const [one, two] = await Promise.all([
      suitors(...args, '--workers', '1', '--out', join(scratch, 'one')),
      suitors(...args, '--workers', '2', '--out', join(scratch, 'two')),
    ]);
    expect(one.stderr).toBe('');
    expect(one.code).toBe(0);
    expect(two.stdout).toMatch(/^24 games on 2 worker threads, [\d.]+ seconds -> /);
    const stats = statsIn(join(scratch, 'one'));
    expect(stats.sections.map((section) => `${section.options.specials} ${section.bots} ${section.count}`)).toEqual([
      'off heuristic 6',
      'off random 6',
      'powers heuristic 6',
      'powers random 6',
    ]);
    expect(stats.comparisons.map((comparison) => comparison.setting).sort()).toEqual(['bots', 'bots', 'specials', 'specials']);
    expect(readFileSync(join(scratch, 'two', 'stats.json'), 'utf8')).toBe(readFileSync(join(scratch, 'one', 'stats.json'), 'utf8'));
    expect(readFileSync(join(scratch, 'two', 'report.html'), 'utf8')).toBe(readFileSync(join(scratch, 'one', 'report.html'), 'utf8'));
  });

  it('refuses a usage mistake with exit status 2 and the usage, writing nothing', async () => {
    const out = join(scratch, 'refused');
    const run = await suitors('lab', '--game', 'antiCupid', '--specials', 'off', '--games', '1', '--seed', 's', '--out', out);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^suitors lab: specials "off" is impossible in antiCupid.*\nusage: suitors lab /);
    expect(existsSync(out)).toBe(false);
  });

  // In this process: main.ts turns a UsageError into exit status 2 and the usage, as the test above shows.
  it.each([
    [['--game', 'sevenSuitors', '--bots', 'random,clever'], '--bots must list heuristic or random, not "clever"'],
    [['--game', 'chess'], '--game must be sevenSuitors, antiCupid, traitorOfLove or firstLesson, not "chess"'],
    [['--game', 'sevenSuitors', '--games', '0'], '--games must be at least 1'],
    [['--game', 'sevenSuitors', '--workers', '0'], '--workers must be at least 1'],
    [
      ['--game', 'sevenSuitors', '--games', '400000', '--specials', 'off,plain,powers'],
      '1200000 games in all is more than the 1000000 one run plays; ask for fewer',
    ],
    [['--game', 'sevenSuitors', '--records', 'somewhere'], 'give --records DIR or --game G, not both'],
    [['--records', join(scratch, 'nowhere')], `${join(scratch, 'nowhere')} does not exist; name a directory of game records (.json)`],
  ])('refuses %j: %s', async (given, message) => {
    const out = join(scratch, `refused-${given.join('-')}`);
    const refusal = await labCommand
      .run(parseArgs(['--games', '1', '--seed', 's', ...given, '--out', out]))
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(UsageError);
    expect((refusal as UsageError).message).toBe(message);
    expect(existsSync(out)).toBe(false);
  });
});

describe('suitors lab --records', () => {
  it('names each file that is not a valid record, leaves it out, and folds the rest', async () => {
    const directory = join(scratch, 'records');
    mkdirSync(directory, { recursive: true });
    for (let i = 0; i < 3; i++) {
      const { record } = simulateGame({ game: 'traitorOfLove', options: { specials: 'plain' }, seed: `records-${i}` });
      writeFileSync(join(directory, `game-${i}.json`), JSON.stringify(record));
    }
    const { record } = simulateGame({ game: 'traitorOfLove', options: { specials: 'plain' }, seed: 'tampered' });
    record.result = { ...record.result, winners: [0] };
    writeFileSync(join(directory, 'tampered.json'), JSON.stringify(record));
    writeFileSync(join(directory, 'torn.json'), '{"format": "seven-suitors-rec');
    const out = join(scratch, 'from-records');
    const run = await suitors('lab', '--records', directory, '--out', out);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      new RegExp(
        `^${join(directory, 'tampered.json')}: left out: result\\.winners: .+\\n${join(directory, 'torn.json')}: left out: not a JSON record: .+\\n$`,
      ),
    );
    expect(run.stdout).toBe(`3 records read, 2 left out -> ${join(out, 'stats.json')}, ${join(out, 'report.html')}\n`);
    const stats = statsIn(out);
    expect(stats.sections).toHaveLength(1);
    expect(stats.sections[0]).toMatchObject({ game: 'traitorOfLove', count: 3, bots: 'not recorded' });
    expect(stats.sections[0].loneRole).toMatchObject({ lone: 'Traitor', others: 'Matchmakers' });
    expect(stats.skipped.map((entry) => entry.file)).toEqual([join(directory, 'tampered.json'), join(directory, 'torn.json')]);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('tampered.json');
  });
});
