/**
 * The rules at hand, per game (docs/rules.md in short): trick play and
 * trump, marriages, what each side wants, what Anti-Cupid and the Traitor
 * want, the special cards, and the two 7s. Shown in a dialog from the table
 * and replay pages.
 */
import type { GameName } from '../../../../machines/table/options.js';
import { h } from './dom.js';
import { endWords, gameTitle, optionOf, SEVENS_EXPLAINED, type OptionsLike } from './words.js';

const TRICKS = [
  'Whoever holds the 1 of Spades leads the first trick (after passing), with any card.',
  'Trump for the whole hand is the suit of the first card led.',
  'Follow the suit led if you can; if you cannot, play any card.',
  'The highest trump wins the trick; with no trump in it, the highest card of the suit led. The winner leads next.',
];

const MARRIAGE = 'A side marries a suit when it captures both 7s of that suit in one hand. Captured 7s are shown to everyone.';

const GAME_RULES: Record<GameName, readonly string[]> = {
  sevenSuitors: [
    'Four players in two teams: seats 0 and 2 (team A) against seats 1 and 3 (team B); partners sit opposite.',
    'Before play, everyone passes one card to each other player at the same time.',
    'Every suit your team marries is marked off for your team for the rest of the game, and counts as a marriage.',
  ],
  antiCupid: [
    'Five players; each hand one of them is Anti-Cupid and plays alone. The role moves one seat left each hand, so everyone is Anti-Cupid once in the five hands.',
    'Counting left of Anti-Cupid, the 1st and 3rd players are partners (A), and so are the 2nd and 4th (B).',
    'A partnership that marries a suit scores 1 point for each of its two players.',
    'Anti-Cupid wants no marriages: Anti-Cupid scores 1 for every suit left unmarried (its 7s split, or one set aside). If Anti-Cupid captures both 7s of a suit, the other four score 1 each.',
    'After five hands the most points wins.',
  ],
  traitorOfLove: [
    'Six players in two teams that alternate round the table: seats 0, 2, 4 (team A) and 1, 3, 5 (team B).',
    'Each hand a secret role card is dealt: whoever gets Hearts is the Traitor; everyone else is a Matchmaker. Only you know your role.',
    'Everyone passes one card to each player of the other team.',
    'Matchmakers score 1 for each marriage of their own team. The Traitor wants the other team to marry: 1 point for each of their marriages, nothing for their own team’s.',
    'After the last trick, everyone secretly names a teammate. On the Traitor’s team a Matchmaker who named the Traitor scores +2; the Traitor loses 1 for each teammate who named them and gains 1 for each who did not.',
    'The game ends after a hand in which someone passes 15 points; the highest score wins.',
  ],
};

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

export function rulesHelp(game: GameName, options: OptionsLike): HTMLElement {
  const specials = optionOf(options, 'specials') ?? 'off';
  return h(
    'div',
    { class: 'rules-help' },
    h('h3', {}, gameTitle(game)),
    h(
      'ul',
      {},
      GAME_RULES[game].map((rule) => h('li', {}, rule)),
    ),
    h('p', {}, h('strong', {}, 'The game ends: '), endWords(game, options), '.'),
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
