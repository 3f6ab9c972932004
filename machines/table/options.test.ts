/**
 * Table options (RULES.md "Table options at a glance", §6): defaults, the
 * values each game accepts, and a precise refusal of anything unknown or
 * contradictory, so no typo silently falls back to a default.
 */
import { describe, expect, it } from 'vitest';
import { FULL_DECK, SUIT_DECK } from '../cards/card.js';
import { FIRST_RULES, KNOWN_RULES } from '../games/index.js';
import { GAME_RULES } from '../games/rules/index.js';
import { startTable } from './snapshot.js';
import {
  DEFAULT_OPTIONS,
  GAME_NAMES,
  cardsPerSeat,
  deckFor,
  isGameName,
  parseEnd,
  parseOptions,
  type GameName,
  type TableOptions,
} from './options.js';

function accepted(game: GameName, given?: Record<string, unknown>): TableOptions {
  const parsed = parseOptions(game, given);
  if (!parsed.ok) throw new Error(`refused: ${parsed.errors.join('; ')}`);
  return parsed.options;
}

function refused(game: GameName, given: Record<string, unknown>): string[] {
  const parsed = parseOptions(game, given);
  if (parsed.ok) throw new Error(`accepted: ${JSON.stringify(parsed.options)}`);
  return parsed.errors;
}

describe('parseOptions: defaults', () => {
  it.each([
    ['sevenSuitors', { end: 'allSuits', specials: 'off' }],
    ['antiCupid', { specials: 'plain', passing: 'none' }],
    ['traitorOfLove', { specials: 'plain' }],
  ] as const)('%s with no options gets every rules option at its default', (game, defaults) => {
    expect(accepted(game)).toEqual(defaults);
    expect(accepted(game, {})).toEqual(defaults);
  });

  it('fills in the defaults of options not given', () => {
    expect(accepted('sevenSuitors', { specials: 'powers' })).toEqual({ end: 'allSuits', specials: 'powers' });
    expect(accepted('antiCupid', { passing: 'oneEach' })).toEqual({ specials: 'plain', passing: 'oneEach' });
  });

  it('never changes the shared defaults', () => {
    const options = accepted('sevenSuitors', { end: 'hands:3' }) as unknown as Record<string, unknown>;
    options.end = 'changed';
    expect(DEFAULT_OPTIONS.sevenSuitors).toEqual({ end: 'allSuits', specials: 'off' });
    expect(accepted('sevenSuitors')).toEqual({ end: 'allSuits', specials: 'off' });
  });
});

describe('parseOptions: accepted values', () => {
  it.each([
    ['sevenSuitors', 'specials', 'off'],
    ['sevenSuitors', 'specials', 'plain'],
    ['sevenSuitors', 'specials', 'powers'],
    ['sevenSuitors', 'end', 'allSuits'],
    ['sevenSuitors', 'end', 'hands:1'],
    ['sevenSuitors', 'end', 'hands:7'],
    ['sevenSuitors', 'end', 'hands:999'],
    ['sevenSuitors', 'end', 'marriages:1'],
    ['sevenSuitors', 'end', 'marriages:10'],
    ['sevenSuitors', 'end', 'marriages:250'],
    ['antiCupid', 'specials', 'plain'],
    ['antiCupid', 'specials', 'powers'],
    ['antiCupid', 'passing', 'none'],
    ['antiCupid', 'passing', 'oneEach'],
    ['traitorOfLove', 'specials', 'plain'],
    ['traitorOfLove', 'specials', 'powers'],
  ] as const)('%s accepts %s %s', (game, key, value) => {
    expect((accepted(game, { [key]: value }) as unknown as Record<string, unknown>)[key]).toBe(value);
  });

  it('expands bare "hands" to hands:7 and bare "marriages" to marriages:10', () => {
    expect(accepted('sevenSuitors', { end: 'hands' })).toEqual({ end: 'hands:7', specials: 'off' });
    expect(accepted('sevenSuitors', { end: 'marriages' })).toEqual({ end: 'marriages:10', specials: 'off' });
  });

  it('writes every option of the game and nothing else', () => {
    expect(Object.keys(accepted('antiCupid', { specials: 'powers' })).sort()).toEqual(['passing', 'specials']);
    expect(Object.keys(accepted('traitorOfLove', { specials: 'powers' }))).toEqual(['specials']);
  });
});

describe('parseOptions: refusals', () => {
  it.each([
    ['sevenSuitors', 'passing', 'unknown option "passing" for sevenSuitors: its options are end, specials'],
    ['sevenSuitors', 'special', 'unknown option "special" for sevenSuitors: its options are end, specials'],
    ['antiCupid', 'end', 'unknown option "end" for antiCupid: its options are specials, passing'],
    ['traitorOfLove', 'passing', 'unknown option "passing" for traitorOfLove: its options are specials'],
    ['traitorOfLove', 'end', 'unknown option "end" for traitorOfLove: its options are specials'],
  ] as const)('%s refuses the unknown option %s', (game, key, message) => {
    expect(refused(game, { [key]: 'x' })).toEqual([message]);
  });

  it.each(['toString', 'constructor', 'hasOwnProperty', 'valueOf'])(
    'refuses "%s", a name every object inherits, as an unknown option rather than failing',
    (key) => {
      expect(refused('sevenSuitors', { [key]: 'plain' })).toEqual([
        `unknown option "${key}" for sevenSuitors: its options are end, specials`,
      ]);
    },
  );

  it('refuses "__proto__" from parsed JSON as an unknown option', () => {
    const given = JSON.parse('{"__proto__": "plain"}') as Record<string, unknown>;
    expect(refused('antiCupid', given)).toEqual(['unknown option "__proto__" for antiCupid: its options are specials, passing']);
  });

  it('a first lesson has no special cards, and ends after one to three hands', () => {
    expect(accepted('firstLesson')).toEqual({ end: 'hands:1', specials: 'off' });
    expect(accepted('firstLesson', { end: 'hands' })).toEqual({ end: 'hands:1', specials: 'off' });
    expect(refused('firstLesson', { specials: 'plain' })).toEqual([
      'a first lesson has no special cards: specials is off (play Seven Suitors for them)',
    ]);
    expect(refused('firstLesson', { end: 'hands:4' })).toEqual([
      'option end of firstLesson must be one of hands:1, hands:2, hands:3, not "hands:4"',
    ]);
    expect(refused('firstLesson', { passing: 'oneEach' })).toEqual([
      'unknown option "passing" for firstLesson: its options are end, specials',
    ]);
  });

  it.each(['antiCupid', 'traitorOfLove'] as const)('%s refuses specials off, which contradicts its hand size', (game) => {
    expect(refused(game, { specials: 'off' })).toEqual([
      `specials "off" is impossible in ${game}: its hand size needs the 60-card deck; use plain or powers`,
    ]);
  });

  it.each([
    ['sevenSuitors', 'specials', 'Plain', 'off, plain, powers'],
    ['sevenSuitors', 'specials', 'none', 'off, plain, powers'],
    ['sevenSuitors', 'specials', 7, 'off, plain, powers'],
    ['sevenSuitors', 'specials', null, 'off, plain, powers'],
    ['antiCupid', 'specials', 'all', 'plain, powers'],
    ['antiCupid', 'passing', 'three', 'none, oneEach'],
    ['antiCupid', 'passing', true, 'none, oneEach'],
    ['traitorOfLove', 'specials', '', 'plain, powers'],
  ] as const)('%s refuses %s %j', (game, key, value, values) => {
    expect(refused(game, { [key]: value })).toEqual([`option ${key} of ${game} must be one of ${values}, not ${JSON.stringify(value)}`]);
  });

  it.each([
    'hands:0',
    'hands:-1',
    'hands:1000',
    'hands:07',
    'hands:x',
    'hands:',
    'hands:2.5',
    'hands: 3',
    'marriages:0',
    'marriages:ten',
    'allsuits',
    'suits',
    7,
  ])('refuses end %j', (end) => {
    expect(refused('sevenSuitors', { end })).toEqual([
      `option end of sevenSuitors must be one of allSuits, hands:K, marriages:M, not ${JSON.stringify(end)}`,
    ]);
  });

  it('reports every problem at once, in the order given', () => {
    expect(refused('sevenSuitors', { end: 'hands:0', colour: 'red', specials: 'some' })).toEqual([
      'option end of sevenSuitors must be one of allSuits, hands:K, marriages:M, not "hands:0"',
      'unknown option "colour" for sevenSuitors: its options are end, specials',
      'option specials of sevenSuitors must be one of off, plain, powers, not "some"',
    ]);
  });
});

describe('decks and hand sizes', () => {
  it.each([
    ['sevenSuitors', {}, 56, 14],
    ['sevenSuitors', { specials: 'plain' }, 60, 15],
    ['sevenSuitors', { specials: 'powers' }, 60, 15],
    ['antiCupid', {}, 60, 12],
    ['antiCupid', { specials: 'powers' }, 60, 12],
    ['traitorOfLove', {}, 60, 10],
  ] as const)('%s with %j: a %i-card deck, %i cards a seat', (game, given, deckSize, perSeat) => {
    const options = accepted(game, given);
    expect(deckFor(options)).toHaveLength(deckSize);
    expect(cardsPerSeat(game, options)).toBe(perSeat);
    const table = startTable({ game, options });
    expect(table.getSnapshot().context.cardsPerSeat).toBe(perSeat);
    table.stop();
  });

  it('uses the 56 suit cards without specials and adds the four special cards otherwise', () => {
    expect(deckFor(accepted('sevenSuitors'))).toEqual(SUIT_DECK);
    expect(deckFor(accepted('antiCupid'))).toEqual(FULL_DECK);
    expect(FULL_DECK.filter((card) => !SUIT_DECK.includes(card))).toEqual(['cupid', 'chaperone', 'rival', 'go-between']);
  });
});

describe('parseEnd', () => {
  it('reads each end condition', () => {
    expect(parseEnd('allSuits')).toEqual({ kind: 'allSuits' });
    expect(parseEnd('hands:7')).toEqual({ kind: 'hands', hands: 7 });
    expect(parseEnd('marriages:12')).toEqual({ kind: 'marriages', marriages: 12 });
  });
});

describe('isGameName', () => {
  it('knows the four games and nothing else', () => {
    expect(['sevenSuitors', 'antiCupid', 'traitorOfLove', 'firstLesson'].every(isGameName)).toBe(true);
    expect(['SevenSuitors', 'seven-suitors', '', 'toString', 7, null, undefined].some(isGameName)).toBe(false);
  });

  it('has every option of every game in a rules version this release knows, and each added one says what its absence means', () => {
    for (const game of GAME_NAMES) {
      for (const [key, spec] of Object.entries(GAME_RULES[game].options)) {
        expect(KNOWN_RULES, `${game}.${key} since rules ${spec.since}`).toContain(spec.since ?? FIRST_RULES);
        if (spec.since !== undefined) expect(typeof spec.whenAbsent, `${game}.${key}`).toBe('string');
        expect(spec.choices[0]?.value, `${game}.${key}: the form offers the default first`).toBe(spec.default);
        expect(parseOptions(game, { [key]: spec.default }).ok, `${game}.${key}`).toBe(true);
      }
    }
  });
});
