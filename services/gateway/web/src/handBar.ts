/**
 * The player's hand along the bottom of the screen: the cards as one
 * toolbar (a single tab stop; arrow keys, Home and End move across it,
 * Enter or Space plays or picks), focus kept on the hand after each pick
 * even though every view redraws it, and a click on a card that cannot be
 * played saying why (whyNotPlayable), instead of doing nothing.
 */
import type { Card } from '../../../../machines/cards/card.js';
import type { TableView } from '../../../../machines/view.js';
import { cardFace } from './board.js';
import { cardName, faceOf, sortCards, suitName } from './cards.js';
import { h } from './dom.js';
import type { PassSelection } from './passSelection.js';
import { words } from './i18n/index.js';
import { shortName } from './words.js';

export interface HandActions {
  /** A command is on its way, or its effect has not reached the view yet. */
  readonly busy: boolean;
  readonly selection: PassSelection;
  choose(card: Card): void;
  play(card: Card): void;
  /** A card that cannot be played now was picked: say why. */
  explain(message: string): void;
}

export function ownAction(view: TableView): 'pass' | 'play' | 'accuse' | null {
  return view.awaiting.find((awaited) => awaited.seat === view.viewer)?.action ?? null;
}

/** Why `card` cannot be played now, in the game's words (RULES.md §3 and §8); null when it can. */
export function whyNotPlayable(view: TableView, card: Card): string | null {
  const action = ownAction(view);
  const table = words().table;
  if (action === 'play' && (view.hand?.legalCards ?? []).includes(card)) return null;
  if (view.outcome?.finished) return table.gameIsOver;
  if (action === 'pass') return null;
  if (action === 'accuse') return table.nameFirst;
  if (view.phase !== 'trickPlay') return table.passFirst;
  if (action !== 'play') {
    const waiting = view.awaiting.map((awaited) => shortName(view, awaited.seat));
    return table.notYourTurn(waiting.join(', ') || table.theNextPlayer);
  }
  const held = view.hand?.cards ?? [];
  const plays = view.hand?.trick?.plays ?? [];
  const { suit } = faceOf(card);
  const ledSuit = plays.map((play) => faceOf(play.card).suit).find((each) => each !== null) ?? null;
  if (suit === null && ledSuit === null && held.some((each) => faceOf(each).suit !== null)) {
    return table.cannotLead(cardName(card));
  }
  if (ledSuit !== null && suit !== ledSuit) {
    const follow = sortCards(held).find((each) => faceOf(each).suit === ledSuit);
    if (follow !== undefined) return table.mustFollow(suitName(ledSuit), cardName(follow));
  }
  return table.cannotPlay(cardName(card));
}

/** Remembers which card of the hand had focus, so a redraw can put it back (or on its neighbour once it is played). */
export class HandFocus {
  private card: Card | null = null;
  private index = 0;

  /** Call before redrawing: notes the focused card, if focus is in the hand. */
  capture(): void {
    const active = document.activeElement;
    if (!(active instanceof HTMLElement) || active.closest('.hand-cards') === null) {
      this.card = null;
      return;
    }
    const buttons = [...document.querySelectorAll<HTMLElement>('.hand-cards .card-button')];
    this.index = Math.max(0, buttons.indexOf(active));
    this.card = (active.dataset.card as Card | undefined) ?? null;
  }

  /** Call after redrawing: focuses the same card, or the one now in its place. */
  restore(container: HTMLElement | null): void {
    if (this.card === null || container === null) return;
    const buttons = [...container.querySelectorAll<HTMLElement>('.card-button')];
    if (buttons.length === 0) return;
    const same = buttons.find((button) => button.dataset.card === this.card);
    const target = same ?? buttons[Math.min(this.index, buttons.length - 1)];
    rove(buttons, target);
    target.focus({ preventScroll: true });
  }
}

function rove(buttons: readonly HTMLElement[], current: HTMLElement): void {
  for (const button of buttons) button.tabIndex = button === current ? 0 : -1;
}

export function handBar(view: TableView, actions: HandActions): HTMLElement | null {
  const cards = sortCards(view.hand?.cards ?? []);
  if (cards.length === 0) return null;
  const action = ownAction(view);
  const table = words().table;
  // The cards passed to this seat are marked until the first trick is taken, as the notes panel lists them.
  const hand = view.hand;
  const received = new Map<Card, number>(
    hand === null || hand.tricks.length > 0 ? [] : hand.passesReceived.map((pass) => [pass.card, pass.from] as const),
  );
  const button = (card: Card): HTMLElement => {
    if (action === 'pass') {
      const to = actions.selection.recipientOf(card);
      return h(
        'button',
        {
          type: 'button',
          class: `card-button pickable${to === undefined ? '' : ' selected'}`,
          'data-card': card,
          'aria-label': to === undefined ? cardName(card) : table.passingTo(cardName(card), shortName(view, to)),
          'aria-pressed': to === undefined ? 'false' : 'true',
          'aria-disabled': actions.busy ? 'true' : 'false',
          onclick: () => {
            if (!actions.busy) actions.choose(card);
          },
        },
        cardFace(card),
        to === undefined ? null : h('span', { class: 'pass-tag', 'aria-hidden': 'true' }, `→ ${shortName(view, to)}`),
      );
    }
    const reason = whyNotPlayable(view, card);
    const playable = reason === null && action === 'play';
    const from = received.get(card);
    return h(
      'button',
      {
        type: 'button',
        class: `card-button${playable ? ' legal' : ''}${from === undefined ? '' : ' received'}`,
        'data-card': card,
        'aria-label': cardName(card),
        'aria-description': from === undefined ? null : table.passedToYouBy(shortName(view, from)),
        // Drawn by style.css as a tag: text in the button would no longer match its name, the card's (WCAG 2.5.3).
        'data-from': from === undefined ? null : table.fromTag(shortName(view, from)),
        'aria-disabled': !playable || actions.busy ? 'true' : 'false',
        onclick: () => {
          if (actions.busy) return;
          if (playable) actions.play(card);
          else actions.explain(reason ?? table.waitForYourTurn);
        },
      },
      cardFace(card),
    );
  };
  const buttons = cards.map(button);
  rove(buttons, buttons.find((each) => each.classList.contains('legal')) ?? buttons[0]);
  const row = h(
    'div',
    { class: 'hand-cards', role: 'toolbar', 'aria-label': table.yourHandOf(cards.length), 'aria-orientation': 'horizontal' },
    buttons,
  );
  row.addEventListener('keydown', (event) => {
    const list = [...row.querySelectorAll<HTMLElement>('.card-button')];
    const at = list.indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, number> = {
      ArrowRight: at + 1,
      ArrowDown: at + 1,
      ArrowLeft: at - 1,
      ArrowUp: at - 1,
      Home: 0,
      End: list.length - 1,
    };
    if (!(event.key in moves) || at === -1) return;
    event.preventDefault();
    const target = list[Math.max(0, Math.min(list.length - 1, moves[event.key]))];
    rove(list, target);
    target.focus();
  });
  return row;
}
