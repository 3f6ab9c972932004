/**
 * The rules at hand, per game (docs/rules.md in short): trick play and
 * trump, marriages, what each side wants, what Anti-Cupid and the Traitor
 * want, the special cards, and the two 7s. Shown in a dialog from the table
 * and replay pages.
 */
import type { TableView } from '../../../../machines/view.js';
import { h } from './dom.js';
import { gameTitle, optionOf, SEVENS_EXPLAINED } from './words.js';

const TRICKS = [
  'Whoever holds the 1 of Spades leads the first trick (after passing), with any card.',
  'Trump for the whole hand is the suit of the first card led.',
  'Follow the suit led if you can; if you cannot, play any card.',
  'The highest trump wins the trick; with no trump in it, the highest card of the suit led. The winner leads next.',
];

const MARRIAGE = 'A side marries a suit when it captures both 7s of that suit in one hand. Captured 7s are shown to everyone.';

const SPECIALS = [
  [
    'Special cards (plain)',
    'Cupid, Chaperone, Rival and Go-Between may be played to any trick, even when you could follow suit, but cannot be led while you hold a suit card. They never win a trick.',
  ],
  ['Cupid (powers)', 'Whoever played Cupid wins the trick.'],
  ['Chaperone (powers)', 'Nobody captures the trick: its cards are set aside, and a 7 set aside cannot be married this hand.'],
  ['Rival (powers)', 'The lowest card of the suit led wins; trumps are ignored.'],
  ['Go-Between (powers)', 'The trick is won as usual, but the player to the winner’s left captures the cards.'],
] as const;

/** The rules of the table `view` shows: its end and its game's rules as the table plays them, which the view carries. */
export function rulesHelp(view: Pick<TableView, 'game' | 'options' | 'endWords' | 'rulesSummary'>): HTMLElement {
  const { game, options } = view;
  const specials = optionOf(options, 'specials') ?? 'off';
  return h(
    'div',
    { class: 'rules-help' },
    h('h3', {}, gameTitle(game)),
    h(
      'ul',
      {},
      view.rulesSummary.map((rule) => h('li', {}, rule)),
    ),
    h('p', {}, h('strong', {}, 'The game ends: '), view.endWords, '.'),
    h('h3', {}, 'Tricks and trump'),
    h(
      'ul',
      {},
      TRICKS.map((rule) => h('li', {}, rule)),
    ),
    h('h3', {}, 'Marriages and the two 7s'),
    h('p', {}, MARRIAGE),
    h('p', {}, SEVENS_EXPLAINED),
    specials === 'off'
      ? null
      : h(
          'div',
          {},
          h('h3', {}, specials === 'powers' ? 'Special cards, with powers' : 'Special cards'),
          h(
            'dl',
            {},
            SPECIALS.filter(([name]) => specials === 'powers' || !name.includes('(powers)')).flatMap(([name, what]) => [
              h('dt', {}, name),
              h('dd', {}, what),
            ]),
          ),
          specials === 'powers'
            ? h('p', { class: 'muted small' }, 'Several powers in one trick act in the order they were played; a Chaperone ends it.')
            : null,
        ),
    h('p', { class: 'muted small' }, 'Hover over a card to see what it does.'),
  );
}
