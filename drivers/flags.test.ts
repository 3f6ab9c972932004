import { describe, expect, it } from 'vitest';
import { list, number, parseFlags, text, UsageError, wholeNumber } from './flags.js';

const SETTINGS = {
  tables: wholeNumber({ env: 'BENCH_TABLES', default: 1000 }),
  minutes: number({ default: 10 }),
  'think-ms': number({ env: 'BENCH_THINK_MS', default: 0, zero: true }),
  game: text({ default: 'sevenSuitors', choices: ['sevenSuitors', 'antiCupid', 'traitorOfLove'] }),
  seed: text({}),
  option: list(),
};

const refusal = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  try {
    parseFlags(SETTINGS, { argv, env });
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`${argv.join(' ')} was taken`);
};

describe('command-line settings', () => {
  it('take a flag over its environment variable over the default, in either spelling', () => {
    expect(parseFlags(SETTINGS, { argv: [], env: {} })).toEqual({
      tables: 1000,
      minutes: 10,
      'think-ms': 0,
      game: 'sevenSuitors',
      seed: undefined,
      option: [],
    });
    expect(parseFlags(SETTINGS, { argv: [], env: { BENCH_TABLES: '12', BENCH_THINK_MS: '' } })).toMatchObject({
      tables: 12,
      'think-ms': 0,
    });
    expect(
      parseFlags(SETTINGS, {
        argv: ['--tables', '3', '--minutes=0.5', '--option', 'end=hands:2', '--option', 'passing=off'],
        env: { BENCH_TABLES: '12' },
      }),
    ).toMatchObject({
      tables: 3,
      minutes: 0.5,
      option: ['end=hands:2', 'passing=off'],
    });
  });

  it('refuse what will not do, saying what would', () => {
    expect(refusal(['--table', '3'])).toBe(
      'unknown flag --table; this command takes --tables, --minutes, --think-ms, --game, --seed, --option',
    );
    expect(refusal(['--tables', '--minutes', '2'])).toBe('--tables needs a value (--tables <value> or --tables=<value>)');
    expect(refusal(['3'])).toMatch(/^this command takes flags only .*, not "3"$/);
    expect(refusal(['--tables', '1e3'])).toBe('--tables must be a whole number above 0, not "1e3"');
    expect(refusal(['--tables', '1.5'])).toBe('--tables must be a whole number above 0, not "1.5"');
    expect(refusal([], { BENCH_TABLES: ' 4' })).toBe('BENCH_TABLES must be a whole number above 0, not " 4"');
    expect(refusal(['--minutes', '0'])).toBe('--minutes must be a number above 0, not "0"');
    expect(refusal(['--think-ms', '-1'])).toBe('--think-ms must be a number from 0, not "-1"');
    expect(refusal(['--game', 'hearts'])).toBe('--game must be sevenSuitors, antiCupid or traitorOfLove, not "hearts"');
    expect(() => parseFlags({ seed: text({ required: true }) }, { argv: [], env: {} })).toThrow('--seed is required');
  });
});
