/**
 * The games' own words in English: titles, rules options and their values
 * (worded here by their keys, as machines/games/rules/ names them), the
 * rules in short, sides, roles, suits and cards.
 */
import { GAME_NAMES, type GameRules, rulesOf } from '../../../../../machines/games/rules/index.js';
import type { GameName } from '../../../../../machines/table/options.js';
import type { TableView } from '../../../../../machines/view.js';

/** Each rules option's label, or each value's, by its key: the same key words the same in every game. */
function byKey(pick: (option: string, spec: OptionSpec) => [string, string][]): Readonly<Record<string, string>> {
  return Object.fromEntries(
    GAME_NAMES.flatMap((game) => Object.entries(rulesOf(game).options).flatMap(([option, spec]) => pick(option, spec))),
  );
}

type OptionSpec = GameRules['options'][string];

/** What the rules dialog knows of a table: a view, or the game and options being chosen in the lobby. */
export type RulesView = Pick<TableView, 'game' | 'options' | 'endWords' | 'rulesSummary'>;

export const enGame = {
  // English comes from the rules objects themselves (machines/games/rules/); other languages word them by key.
  titles: Object.fromEntries(GAME_NAMES.map((game) => [game, rulesOf(game).title])) as Readonly<Record<GameName, string>>,
  optionLabels: byKey((option, spec) => [[option, spec.label]]),
  choiceLabels: byKey((_, spec) => spec.choices.map((choice) => [choice.value, choice.label])),
  /** What ends the game, as "The game ends: …" finishes it; the table's own words, by the rules it plays. */
  end: (rules: RulesView): string => rules.endWords,
  /** The game's rules in short, as the table plays them. */
  summary: (rules: RulesView): readonly string[] => rules.rulesSummary,

  // Sides and roles
  teamLower: (team: string) => `team ${team}`,
  partnership: (side: string) => `Partnership ${side}`,
  antiCupid: 'Anti-Cupid',
  traitor: 'Traitor',
  matchmaker: 'Matchmaker',
  theTraitor: 'the Traitor',
  aMatchmaker: 'a Matchmaker',

  // Suits and cards (cards.ts)
  suits: ['Spades', 'Moons', 'Diamonds', 'Clubs', 'Stars', 'Pyramids', 'Hearts'] as readonly string[],
  specials: { cupid: 'Cupid', chaperone: 'Chaperone', rival: 'Rival', 'go-between': 'Go-Between' } as Readonly<Record<string, string>>,
  /** The special cards' names on the small face, split where a break may go. */
  specialFaces: { chaperone: ['Chap', 'erone'], 'go-between': ['Go-', 'Between'] } as Readonly<Record<string, readonly string[]>>,
  cardOf: (rank: string, suit: string) => `${rank} of ${suit}`,
  specialPowers: {
    cupid: 'With powers: whoever played Cupid wins the trick.',
    chaperone: 'With powers: nobody captures the trick; its cards are set aside, and a 7 set aside cannot be married this hand.',
    rival: 'With powers: the lowest card of the suit led wins, and trumps are ignored.',
    'go-between': "With powers: the trick is won as usual, but the player to the winner's left captures the cards.",
  } as Readonly<Record<string, string>>,
  specialPlain:
    'A special card may be played to any trick, even when you could follow suit, but not led while you hold a suit card. It never wins a trick.',
  sevenHelp: (card: string, suit: string) =>
    `${card}: one of the two 7s of ${suit} (a and b only tell them apart; if both would win, the first played wins). Capture both in a hand to marry ${suit}.`,
  sevensExplained:
    'Every suit has two 7s, written 7a and 7b. The letters only tell the two cards apart: they rank the same, and when both would win a trick, the one played first wins.',

  // The rules dialog (rulesHelp.ts)
  gameEnds: 'The game ends: ',
  tricksAndTrump: 'Tricks and trump',
  tricks: [
    'Whoever holds the 1 of Spades leads the first trick (after passing), with any card.',
    'Trump for the whole hand is the suit of the first card led.',
    'Follow the suit led if you can; if you cannot, play any card.',
    'The highest trump wins the trick; with no trump in it, the highest card of the suit led. The winner leads next.',
  ] as readonly string[],
  marriagesAndSevens: 'Marriages and the two 7s',
  marriage: 'A side marries a suit when it captures both 7s of that suit in one hand. Captured 7s are shown to everyone.',
  specialCards: 'Special cards',
  specialCardsWithPowers: 'Special cards, with powers',
  /** [name, what it does, whether only with powers] */
  specialRules: [
    [
      'Special cards (plain)',
      'Cupid, Chaperone, Rival and Go-Between may be played to any trick, even when you could follow suit, but cannot be led while you hold a suit card. They never win a trick.',
      false,
    ],
    ['Cupid (powers)', 'Whoever played Cupid wins the trick.', true],
    ['Chaperone (powers)', 'Nobody captures the trick: its cards are set aside, and a 7 set aside cannot be married this hand.', true],
    ['Rival (powers)', 'The lowest card of the suit led wins; trumps are ignored.', true],
    ['Go-Between (powers)', 'The trick is won as usual, but the player to the winner’s left captures the cards.', true],
  ] as readonly (readonly [string, string, boolean])[],
  powersInOrder: 'Several powers in one trick act in the order they were played; a Chaperone ends it.',
  hoverForHelp: 'Hover over a card to see what it does.',
};

export type GameWords = typeof enGame;
