/**
 * The `suitors` command line end to end, as a user runs it: `simulate`
 * writes many records of each game (1000 under `npm run test:deep`) and
 * `check` passes them all; a tampered record fails with a line naming the
 * problem; bad flags exit 2 with a message saying what is wrong.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GAME_NAMES } from '../machines/table/options.js';
import { scratchDirectory, suitors, type RecordDocument } from './kit/cli.js';
import { settingsFromEnv, wholeNumber } from '../drivers/flags.js';

/** 40 in the everyday suite (the command's files, names and counts, not the rules: botGames.test.ts plays those); `npm run test:deep` writes and checks 1000 of each game (CLI_GAMES). */
const { games: GAMES_PER_RUN } = settingsFromEnv({ games: wholeNumber({ env: 'CLI_GAMES', default: 40 }) });

const scratch = scratchDirectory('suitors-cli-test');

describe(`simulate then check, ${GAMES_PER_RUN} games of each game`, () => {
  it.concurrent.each([...GAME_NAMES])(
    '%s',
    async (game) => {
      const out = join(scratch, `thousand-${game}`);
      const simulated = await suitors('simulate', '--game', game, '--games', String(GAMES_PER_RUN), '--seed', 'cli-test', '--out', out);
      expect(simulated.stderr).toBe('');
      expect(simulated.code).toBe(0);
      expect(simulated.stdout).toMatch(new RegExp(`^${GAMES_PER_RUN} games, \\d+ hands, \\d+ plays, [\\d.]+ seconds -> ${out}\\n$`));
      const files = readdirSync(out);
      expect(files).toHaveLength(GAMES_PER_RUN);
      expect(files).toContain(`${game}-cli-test-1.json`);
      expect(files).toContain(`${game}-cli-test-${GAMES_PER_RUN}.json`);

      const checked = await suitors('check', out);
      expect(checked.stderr).toBe('');
      expect(checked.stdout).toBe(`${GAMES_PER_RUN} passed, 0 failed\n`);
      expect(checked.code).toBe(0);
      console.log(`${game}: simulate ${simulated.seconds.toFixed(1)} s, check ${checked.seconds.toFixed(1)} s`);
    },
    240_000,
  );
});

describe('check reports tampered records', () => {
  it('prints one line per problem, names the file and field, and exits 1', async () => {
    const out = join(scratch, 'tampered');
    const simulated = await suitors('simulate', '--game', 'sevenSuitors', '--games', '5', '--seed', 'tamper', '--out', out);
    expect(simulated.code).toBe(0);
    const file = (i: number) => join(out, `sevenSuitors-tamper-${i}.json`);
    const read = (i: number) => JSON.parse(readFileSync(file(i), 'utf8')) as RecordDocument;
    const write = (i: number, record: RecordDocument) => writeFileSync(file(i), JSON.stringify(record));
    const expected: string[] = [];

    // 1: an illegal card: the first card of the game, swapped for one the leader never held.
    const illegal = read(1);
    const [leader] = illegal.hands[0].plays[0];
    const received = new Set(illegal.hands[0].passes.filter((pass) => pass.to === leader).map((pass) => pass.card));
    const foreign = illegal.hands[0].deal[(leader + 1) % 4].find((card) => !received.has(card))!;
    illegal.hands[0].plays[0] = [leader, foreign];
    write(1, illegal);
    expected.push(`${file(1)}: hands[0].plays[0]: ${foreign} is not in seat ${leader}'s hand`);
    if (illegal.hands.length > 1) expected.push(`${file(1)}: hands[1]: not checked: an earlier hand could not be replayed`);

    // 2: a wrong trick winner.
    const winner = read(2);
    const trick = winner.hands[0].result!.tricks[3];
    const wrong = (trick.winner + 1) % 4;
    expected.push(`${file(2)}: hands[0].result.tricks[3].winner: recorded ${wrong}, the rules give ${trick.winner}`);
    trick.winner = wrong;
    write(2, winner);

    // 3: a wrong score.
    const score = read(3);
    const scores = score.result.scores;
    score.result.scores = scores.map((value) => value + 1);
    write(3, score);
    expected.push(`${file(3)}: result.scores: recorded ${JSON.stringify(score.result.scores)}, the rules give ${JSON.stringify(scores)}`);

    // 4: a missing pass.
    const pass = read(4);
    const dropped = pass.hands[0].passes.findIndex((candidate) => candidate.from === 2);
    pass.hands[0].passes.splice(dropped, 1);
    write(4, pass);
    expected.push(`${file(4)}: hands[0].passes (seat 2): seat 2 must pass one card to each of seats 0, 1, 3`);
    if (pass.hands.length > 1) expected.push(`${file(4)}: hands[1]: not checked: an earlier hand could not be replayed`);

    // 6: not JSON at all.
    const broken = join(out, 'sevenSuitors-tamper-6.json');
    writeFileSync(broken, '{ "format": ');

    const checked = await suitors('check', out);
    const lines = checked.stdout.trimEnd().split('\n');
    expect(lines.slice(0, expected.length)).toEqual(expected);
    expect(lines[expected.length]).toMatch(new RegExp(`^${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cannot read a JSON record: `));
    expect(lines.slice(expected.length + 1)).toEqual(['1 passed, 5 failed']);
    expect(checked.code).toBe(1);

    // The untouched record still passes alone, named as a file rather than a directory.
    const alone = await suitors('check', file(5));
    expect(alone.stdout).toBe('1 passed, 0 failed\n');
    expect(alone.code).toBe(0);
  }, 60_000);

  it('checks every deal against its revealed seed: a tampered seed or deal fails, a format 1 record passes with its deals unverified', async () => {
    const out = join(scratch, 'fairness');
    const simulated = await suitors(
      'simulate',
      '--game',
      'traitorOfLove',
      '--games',
      '3',
      '--seed',
      'fair',
      '--max-hands',
      '2',
      '--out',
      out,
    );
    expect(simulated.code).toBe(0);
    const file = (i: number) => join(out, `traitorOfLove-fair-${i}.json`);
    const read = (i: number) => JSON.parse(readFileSync(file(i), 'utf8')) as RecordDocument;
    const write = (i: number, record: RecordDocument) => writeFileSync(file(i), JSON.stringify(record));

    const seed = read(1);
    seed.hands[0].fairness!.seed = seed.hands[1].fairness!.seed;
    write(1, seed);
    const roles = read(2);
    roles.hands[1].roles!.reverse();
    write(2, roles);
    const old = read(3);
    (old as { format: string }).format = 'seven-suitors-record/1';
    for (const hand of old.hands) delete hand.fairness;
    write(3, old);

    const checked = await suitors('check', out);
    const lines = checked.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`${file(1)}: hands[0].fairness: the commitment is not the SHA-256 of the seed`);
    expect(lines).toContain(`${file(2)}: hands[1].fairness: the role cards are not the ones the seed deals`);
    expect(lines).toContain(`${file(3)}: deals unverified (no revealed seed): hands 0, 1`);
    expect(lines.at(-1)).toBe('1 passed, 2 failed');
    expect(checked.code).toBe(1);
  }, 60_000);

  it('deal: prints the deal a seed makes and checks it against the commitment', async () => {
    const record = JSON.parse(readFileSync(join(scratch, 'fairness', 'traitorOfLove-fair-2.json'), 'utf8')) as RecordDocument;
    const hand = (
      await suitors(
        'simulate',
        '--game',
        'sevenSuitors',
        '--games',
        '1',
        '--seed',
        'deal',
        '--max-hands',
        '1',
        '--out',
        join(scratch, 'deal'),
      )
    ).code;
    expect(hand).toBe(0);
    const played = JSON.parse(readFileSync(join(scratch, 'deal', 'sevenSuitors-deal-1.json'), 'utf8')) as RecordDocument;
    const { seed, commitment } = played.hands[0].fairness!;
    const dealt = await suitors('deal', '--game', 'sevenSuitors', '--seed', seed!, '--commitment', commitment);
    expect(dealt.stdout.split('\n')).toEqual([
      `commitment ${commitment}`,
      ...played.hands[0].deal.map((cards, seat) => `seat ${seat}: ${cards.join(' ')}`),
      'the seed matches the commitment',
      '',
    ]);
    expect(dealt.code).toBe(0);
    const traitor = await suitors('deal', '--game', 'traitorOfLove', '--seed', record.hands[0].fairness!.seed!);
    expect(traitor.stdout).toContain('(tracking card Hearts: the Traitor)');
    const wrong = await suitors('deal', '--game', 'sevenSuitors', '--seed', seed!, '--commitment', record.hands[0].fairness!.commitment);
    expect(wrong.stdout.trimEnd().split('\n').at(-1)).toBe(
      `the seed does NOT match the commitment ${record.hands[0].fairness!.commitment}`,
    );
    expect(wrong.code).toBe(1);
    const bad = await suitors('deal', '--game', 'sevenSuitors', '--seed', 'abc');
    expect(bad.stderr).toMatch(/^suitors deal: --seed must be 64 lowercase hex characters/);
    expect(bad.code).toBe(2);
  }, 60_000);

  it('reports a file that does not exist', async () => {
    const missing = join(scratch, 'no-such-record.json');
    const checked = await suitors('check', missing);
    expect(checked.stdout).toMatch(new RegExp(`^${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cannot read a JSON record: ENOENT`));
    expect(checked.stdout.endsWith('0 passed, 1 failed\n')).toBe(true);
    expect(checked.code).toBe(1);
  }, 30_000);
});

// Each run starts node and tsx (about half a second of CPU), so the messages the core makes
// (parseOptions, tested in machines/table/options.test.ts) are sampled here, not repeated.
describe('bad flags exit 2 with a clear message', () => {
  const out = () => join(scratch, 'never-written');
  const simulateUsage =
    'usage: suitors simulate --game sevenSuitors|antiCupid|traitorOfLove --games N --seed S [--specials off|plain|powers] [--end allSuits|hands:K|marriages:M] [--passing none|oneEach] [--max-hands H] --out DIR\n';

  it.concurrent.each([
    [['--games', '5', '--seed', 's', '--out', 'OUT'], '--game is required'],
    [
      ['--game', 'chess', '--games', '5', '--seed', 's', '--out', 'OUT'],
      '--game must be sevenSuitors, antiCupid, traitorOfLove or firstLesson, not "chess"',
    ],
    [
      ['--game', 'antiCupid', '--specials', 'off', '--games', '5', '--seed', 's', '--out', 'OUT'],
      'specials "off" is impossible in antiCupid: its hand size needs the 60-card deck; use plain or powers',
    ],
    [
      ['--game', 'sevenSuitors', '--passing', 'oneEach', '--games', '5', '--seed', 's', '--out', 'OUT'],
      'unknown option "passing" for sevenSuitors: its options are end, specials',
    ],
    [['--game', 'sevenSuitors', '--games', 'many', '--seed', 's', '--out', 'OUT'], '--games must be a whole number, not "many"'],
    [['--game', 'sevenSuitors', '--games', '5', '--seed', 's'], '--out is required'],
  ])(
    'simulate %j',
    async (args, message) => {
      const run = await suitors('simulate', ...args.map((arg) => (arg === 'OUT' ? out() : arg)));
      expect(run.stderr).toBe(`suitors simulate: ${message}\n${simulateUsage}`);
      expect(run.stdout).toBe('');
      expect(run.code).toBe(2);
    },
    30_000,
  );

  it.concurrent('check with no file', async () => {
    const run = await suitors('check');
    expect(run.stderr).toBe('suitors check: name at least one record file\nusage: suitors check FILE...\n');
    expect(run.code).toBe(2);
  }, 30_000);

  it.concurrent('an unknown command', async () => {
    const run = await suitors('simulat', '--game', 'sevenSuitors');
    expect(run.stderr.startsWith('suitors: unknown command "simulat"\n')).toBe(true);
    expect(run.stderr).toContain('suitors simulate --game');
    expect(run.code).toBe(2);
  }, 30_000);
});
