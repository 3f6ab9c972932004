/**
 * The pause between hands. The service deals the next hand at once; the
 * client holds the summary of the hand just scored (view.lastHand) in a
 * dialog until the player dismisses it, or a short countdown runs out, and
 * when the game ends shows the game-over screen instead. Which hand's
 * summary was last dismissed is kept per table in sessionStorage, so a
 * reload does not show it again.
 */
import type { TableView } from '../../../../machines/view.js';
import { h } from './dom.js';
import { gameOverHeadline, standings } from './gameOver.js';
import { handSummary } from './handSummary.js';
import { openModal, type Modal } from './modal.js';
import { words } from './i18n/index.js';
import { handProgress } from './words.js';

/** How long a summary stays before the next hand shows by itself. */
export const SUMMARY_SECONDS = 30;

export interface BetweenHandsActions {
  /** Extra lines for a hand's summary (the deal check), if any. */
  readonly extra?: (view: TableView, handIndex: number) => HTMLElement | null;
  /** Offered on the game-over screen when the viewer held a seat. */
  readonly rematch: (() => void) | null;
  readonly replayHref: string;
  /** After the dialog closes: where focus goes (the hand). */
  readonly afterClose: () => void;
}

export class BetweenHands {
  private modal: Modal | null = null;
  private timer: number | undefined;
  private readonly key: string;

  constructor(tableId: string) {
    this.key = `suitors.summary.${tableId}`;
  }

  private get dismissed(): number | null {
    const value = sessionStorage.getItem(this.key);
    return value === null ? null : Number(value);
  }

  private set dismissed(index: number) {
    sessionStorage.setItem(this.key, String(index));
  }

  get open(): boolean {
    return this.modal !== null;
  }

  /** Called with each view: opens the summary of a hand newly scored, or the game-over screen. */
  consider(view: TableView, actions: BetweenHandsActions): void {
    const last = view.lastHand;
    const finished = view.outcome?.finished === true;
    const index = shownIndex(view);
    const dismissed = this.dismissed;
    // A table opened in the middle of a game starts from where it is: only hands scored from now on are summarised.
    if (dismissed === null && !finished) {
      this.dismissed = index;
      return;
    }
    if (this.modal !== null || (dismissed !== null && index <= dismissed)) return;
    if (finished) this.showGameOver(view, actions);
    else if (last !== null) this.showSummary(view, actions);
  }

  /** Takes what the view would open as seen, without opening it: for a viewer whom a pop-up would only get in the way of. */
  pass(view: TableView): void {
    if (this.modal === null) this.dismissed = shownIndex(view);
  }

  private showSummary(view: TableView, actions: BetweenHandsActions): void {
    const last = view.lastHand!;
    let left = SUMMARY_SECONDS;
    const next = h('button', { type: 'button', class: 'primary next-hand' }, words().nextHand);
    const countdown = h('p', { class: 'countdown muted small', 'aria-live': 'off' }, words().nextHandIn(left));
    next.addEventListener('click', () => this.close());
    this.modal = openModal({
      title: words().handIsOver(capitalised(handProgress(last.index + 1, view.game, view.options))),
      className: 'summary-dialog',
      body: [handSummary(view, last), actions.extra?.(view, last.index) ?? null, countdown],
      actions: [next],
      onClose: () => this.closed(last.index, actions),
    });
    this.timer = window.setInterval(() => {
      left -= 1;
      countdown.textContent = words().nextHandIn(left);
      if (left <= 0) this.close();
    }, 1000);
  }

  private showGameOver(view: TableView, actions: BetweenHandsActions): void {
    const close = h('button', { type: 'button' }, words().close);
    close.addEventListener('click', () => this.close());
    const buttons: HTMLButtonElement[] = [];
    if (actions.rematch !== null) {
      const again = h('button', { type: 'button', class: 'primary rematch' }, words().proposeRematch);
      again.addEventListener('click', () => {
        this.close();
        actions.rematch?.();
      });
      buttons.push(again);
    }
    const replay = h('button', { type: 'button' }, words().watchTheReplay);
    replay.addEventListener('click', () => {
      this.close();
      location.hash = actions.replayHref;
    });
    buttons.push(replay, close);
    const last = view.lastHand;
    this.modal = openModal({
      title: words().gameOver,
      className: 'game-over-dialog',
      body: [
        gameOverHeadline(view),
        standings(view),
        last === null
          ? null
          : h(
              'details',
              { class: 'last-hand-details' },
              h('summary', {}, words().theLastHand(last.index + 1)),
              handSummary(view, last),
              actions.extra?.(view, last.index) ?? null,
            ),
      ],
      actions: buttons,
      onClose: () => this.closed(Number.MAX_SAFE_INTEGER, actions),
    });
  }

  private closed(index: number, actions: BetweenHandsActions): void {
    window.clearInterval(this.timer);
    this.dismissed = index;
    this.modal = null;
    actions.afterClose();
  }

  close(): void {
    this.modal?.close();
  }
}

/** What a view would open: the game-over screen (above every hand), else the summary of its last hand scored (-1: none). */
function shownIndex(view: TableView): number {
  return view.outcome?.finished === true ? Number.MAX_SAFE_INTEGER : (view.lastHand?.index ?? -1);
}

function capitalised(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}
