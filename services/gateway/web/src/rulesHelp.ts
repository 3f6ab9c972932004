/**
 * The rules at hand, per game (docs/rules.md in short): trick play and
 * trump, marriages, what each side wants, what Anti-Cupid and the Traitor
 * want, the special cards, and the two 7s. Shown in a dialog from the table
 * and replay pages.
 */
import type { RulesView } from './i18n/enGame.js';
import { words } from './i18n/index.js';
import { h } from './dom.js';
import { gameTitle, optionOf } from './words.js';

/** The rules of the table `view` shows: its end and its game's rules as the table plays them, which the view carries. */
export function rulesHelp(view: RulesView): HTMLElement {
  const { game, options } = view;
  const games = words().games;
  const specials = optionOf(options, 'specials') ?? 'off';
  return h(
    'div',
    { class: 'rules-help' },
    h('h3', {}, gameTitle(game)),
    h(
      'ul',
      {},
      games.summary(view).map((rule) => h('li', {}, rule)),
    ),
    h('p', {}, h('strong', {}, games.gameEnds), games.end(view), '.'),
    h('h3', {}, games.tricksAndTrump),
    h(
      'ul',
      {},
      games.tricks.map((rule) => h('li', {}, rule)),
    ),
    h('h3', {}, games.marriagesAndSevens),
    h('p', {}, games.marriage),
    h('p', {}, games.sevensExplained),
    specials === 'off'
      ? null
      : h(
          'div',
          {},
          h('h3', {}, specials === 'powers' ? games.specialCardsWithPowers : games.specialCards),
          h(
            'dl',
            {},
            games.specialRules
              .filter(([, , withPowers]) => specials === 'powers' || !withPowers)
              .flatMap(([name, what]) => [h('dt', {}, name), h('dd', {}, what)]),
          ),
          specials === 'powers' ? h('p', { class: 'muted small' }, games.powersInOrder) : null,
        ),
    h('p', { class: 'muted small' }, games.hoverForHelp),
  );
}
