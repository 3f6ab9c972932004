/**
 * The table page's bar (the game, who is watching as what, where the table
 * is, and the player's choices: lobby, rules, sound, leave) and, once the
 * game is over, the panel above the felt with the result and a rematch.
 */
import type { TableView } from '../../../../machines/view.js';
import { h } from './dom.js';
import { showCommitment } from './fairDeals.js';
import { gameOverHeadline, standings } from './gameOver.js';
import type { LiveState } from './live.js';
import { restartCoach } from './coach.js';
import { words } from './i18n/index.js';
import { openModal } from './modal.js';
import { rulesHelp } from './rulesHelp.js';
import { setVolume, soundOn, volume } from './sounds.js';
import { handProgress, phaseWords } from './words.js';

export interface TableHeaderOptions {
  readonly tableId: string;
  /** The seat this browser holds, or null when watching. */
  readonly seat: number | null;
  readonly connection: LiveState;
  readonly onSound: () => void;
  readonly onLeave: () => void;
}

export function tableHeader(view: TableView, options: TableHeaderOptions): HTMLElement {
  const { tableId, seat } = options;
  const finished = view.outcome?.finished === true;
  return h(
    'header',
    { class: 'table-header' },
    h('h2', {}, view.title, h('span', { class: 'table-id' }, words().tableWord(tableId))),
    h(
      'p',
      { class: 'muted' },
      seat === null ? words().spectating : words().playingAs(seat),
      ` · ${phaseWords(view.phase)}`,
      view.hand === null ? '' : ` · ${handProgress(view.hand.number, view.game, view.options)}`,
      options.connection === 'open' ? '' : ` · ${words().connection[options.connection] ?? options.connection}…`,
    ),
    h(
      'nav',
      { class: 'table-actions', 'aria-label': words().tableNav },
      h('a', { href: '#/', class: 'button-like' }, words().backToLobby),
      h('button', { type: 'button', onclick: () => showRules(view) }, words().rules),
      view.hand?.commitment == null
        ? null
        : h(
            'button',
            { type: 'button', class: 'fair-deal', title: words().fairDealTitle, onclick: () => showCommitment(view) },
            words().fairDeal,
          ),
      // A toggle: its name says what it is, aria-pressed whether it is on (a name "Sound off" read like an order).
      h(
        'button',
        {
          type: 'button',
          class: 'sound-toggle',
          'aria-pressed': soundOn() ? 'true' : 'false',
          title: words().soundsTitle,
          onclick: options.onSound,
        },
        words().sounds,
      ),
      soundOn() ? volumeSlider() : null,
      seat === null ? null : h('a', { href: `#/watch/${tableId}`, class: 'button-like wide-only' }, words().watchAsSpectator),
      finished ? h('a', { href: `#/replay/${tableId}`, class: 'button-like' }, words().replay) : null,
      seat !== null && !finished ? h('button', { type: 'button', class: 'danger', onclick: options.onLeave }, words().leaveSeat) : null,
    ),
  );
}

/** The rules of a table, or of a game and options being chosen (the lobby's form). */
function volumeSlider(): HTMLElement {
  const slider = h('input', { type: 'range', id: 'sound-volume', min: 0, max: 100, step: 10, value: volume() });
  slider.addEventListener('change', () => setVolume(Number(slider.value)));
  return h('label', { class: 'volume', for: 'sound-volume' }, words().volume, slider);
}

export function showRules(table: Parameters<typeof rulesHelp>[0]): void {
  const done = h('button', { type: 'button', class: 'primary' }, words().close);
  const again = h('button', { type: 'button', class: 'coach-again' }, words().tipsAgain);
  again.addEventListener('click', () => {
    restartCoach();
    again.textContent = words().tipsWillShow;
    again.disabled = true;
  });
  const modal = openModal({
    title: words().howToPlay,
    className: 'rules-dialog',
    body: [rulesHelp(table), h('p', {}, again)],
    actions: [done],
  });
  done.addEventListener('click', () => modal.close());
}

/** Above the felt once the game is over: won or lost, the standings, the rematch as it stands (rematchOffer.ts). */
export function gameOverPanel(view: TableView, tableId: string, rematch: HTMLElement): HTMLElement {
  return h(
    'section',
    { class: 'game-over', 'aria-label': words().gameOver },
    gameOverHeadline(view),
    standings(view),
    rematch,
    h('p', {}, h('a', { href: `#/replay/${tableId}`, class: 'button-like' }, words().watchTheReplay)),
  );
}
