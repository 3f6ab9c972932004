/**
 * What only a seated player sees and does: their role, their hand as
 * buttons (playable cards highlighted, from view.hand.legalCards), passing
 * and accusation.
 */
import type { Card } from '../../../../machines/cards/card.js';
import type { Action } from '../../../../machines/table/refusal.js';
import type { TableView } from '../../../../machines/view.js';
import { cardFace, seatName } from './board.js';
import { cardName, sortCards, suitName } from './cards.js';
import { h } from './dom.js';
import type { PassSelection } from './passSelection.js';

export interface SeatControls {
  readonly seat: number;
  /** A command is on its way, or its effect has not reached the view yet. */
  readonly busy: boolean;
  readonly selection: PassSelection;
  choose(card: Card): void;
  aimAt(seat: number): void;
  play(card: Card): void;
  pass(): void;
  accuse(seat: number): void;
}

export function ownAction(view: TableView): Action | null {
  return view.awaiting.find((awaited) => awaited.seat === view.viewer)?.action ?? null;
}

/** A Traitor of Love: the viewer's tracking card, dealt anew each hand. */
export function rolePanel(view: TableView): HTMLElement | null {
  const roleCard = view.hand?.roleCard ?? null;
  if (roleCard === null) return null;
  const role = roleCard === 7 ? 'the Traitor (your tracking card is Hearts)' : `a Matchmaker (your tracking card is ${suitName(roleCard)})`;
  return h('p', { class: 'role' }, `Your role this hand: ${role}.`);
}

export function handPanel(view: TableView, controls: SeatControls): HTMLElement | null {
  const cards = sortCards(view.hand?.cards ?? []);
  if (cards.length === 0) return null;
  const action = ownAction(view);
  const legal = new Set(view.hand?.legalCards ?? []);
  const button = (card: Card): HTMLElement => {
    if (action === 'pass') {
      const to = controls.selection.recipientOf(card);
      return h(
        'button',
        {
          type: 'button',
          class: `card-button${to === undefined ? '' : ' selected'}`,
          'aria-label': to === undefined ? cardName(card) : `${cardName(card)}, passing to ${seatName(view, to)}`,
          'aria-pressed': to === undefined ? 'false' : 'true',
          disabled: controls.busy,
          onclick: () => controls.choose(card),
        },
        cardFace(card),
      );
    }
    const playable = action === 'play' && legal.has(card);
    return h(
      'button',
      {
        type: 'button',
        class: `card-button${playable ? ' legal' : ''}`,
        'aria-label': cardName(card),
        disabled: !playable || controls.busy,
        onclick: () => controls.play(card),
      },
      cardFace(card),
    );
  };
  return h('section', { class: 'hand', 'aria-label': 'Your hand' }, h('h3', {}, `Your hand (${cards.length})`), h('div', { class: 'cards' }, cards.map(button)));
}

/** Passing, the accusation, or notes on what the player passed, received and named. */
export function actionPanel(view: TableView, controls: SeatControls): HTMLElement | null {
  switch (ownAction(view)) {
    case 'pass':
      return passingPanel(view, controls);
    case 'accuse':
      return accusationPanel(view, controls);
    default:
      return notesPanel(view);
  }
}

function passingPanel(view: TableView, controls: SeatControls): HTMLElement {
  const { selection } = controls;
  return h(
    'section',
    { class: 'passing', 'aria-label': 'Passing' },
    h('h3', {}, 'Pass one card to each of'),
    h(
      'div',
      { class: 'recipients' },
      selection.recipients.map((seat) => {
        const card = selection.cardFor(seat);
        return h(
          'button',
          { type: 'button', class: 'recipient', 'aria-pressed': selection.next === seat ? 'true' : 'false', onclick: () => controls.aimAt(seat) },
          `To ${seatName(view, seat)}: `,
          card === undefined ? h('em', {}, 'choose a card') : cardFace(card),
        );
      }),
    ),
    h('button', { type: 'button', class: 'primary', disabled: !selection.complete || controls.busy, onclick: () => controls.pass() }, 'Pass these cards'),
  );
}

function accusationPanel(view: TableView, controls: SeatControls): HTMLElement {
  return h(
    'section',
    { class: 'accusation', 'aria-label': 'Accusation' },
    h('h3', {}, 'Which teammate is the Traitor?'),
    (view.hand?.mayAccuse ?? []).map((seat) =>
      h('button', { type: 'button', class: 'primary', disabled: controls.busy, onclick: () => controls.accuse(seat) }, `Accuse ${seatName(view, seat)}`),
    ),
  );
}

function notesPanel(view: TableView): HTMLElement | null {
  const hand = view.hand;
  if (hand === null) return null;
  const notes: HTMLElement[] = [];
  if (view.phase === 'passing' && hand.passesSent.length > 0) {
    notes.push(h('p', {}, 'You passed: ', hand.passesSent.map((pass) => h('span', {}, cardFace(pass.card), ` to ${seatName(view, pass.to)} `))));
  }
  if (hand.passesReceived.length > 0 && hand.tricks.length === 0) {
    notes.push(h('p', {}, 'You received: ', hand.passesReceived.map((pass) => h('span', {}, cardFace(pass.card), ` from ${seatName(view, pass.from)} `))));
  }
  if (hand.accusation !== null && hand.traitor === null) notes.push(h('p', {}, `You named ${seatName(view, hand.accusation)}.`));
  return notes.length === 0 ? null : h('section', { class: 'notes-panel', 'aria-label': 'Your notes' }, notes);
}
