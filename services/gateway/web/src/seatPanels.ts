/**
 * What only the seated player sees and does beside their hand (handBar.ts):
 * their role, the passing choices, the accusation, and notes on what they
 * passed, received and named.
 */
import type { TableView } from '../../../../machines/view.js';
import { cardFace } from './board.js';
import { suitName } from './cards.js';
import { h } from './dom.js';
import { seatColour } from './seatMarks.js';
import { ownAction } from './handBar.js';
import type { PassSelection } from './passSelection.js';
import { shortName } from './words.js';

export interface SeatControls {
  readonly busy: boolean;
  readonly selection: PassSelection;
  aimAt(seat: number): void;
  pass(): void;
  accuse(seat: number): void;
}

/** A Traitor of Love: the viewer's tracking card, dealt anew each hand. */
export function rolePanel(view: TableView): HTMLElement | null {
  const roleCard = view.hand?.roleCard ?? null;
  if (roleCard === null) return null;
  const traitor = roleCard === 7;
  const role = traitor ? 'the Traitor' : 'a Matchmaker';
  const want = traitor
    ? 'You score for the other team’s marriages, and for each teammate who does not name you.'
    : 'You score for your own team’s marriages, and +2 if you name the Traitor when they are on your team.';
  return h(
    'p',
    { class: `role ${traitor ? 'role-traitor' : 'role-matchmaker'}` },
    h('strong', {}, `Your role this hand: ${role}`),
    h('span', { class: 'role-why' }, ` (tracking card: ${suitName(roleCard)}). ${want}`),
  );
}

/** Passing or the accusation: what the player is asked to do now, above the hand. */
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
    { class: 'passing', 'aria-labelledby': 'passing-heading' },
    h('h3', { id: 'passing-heading', class: 'sr-only' }, 'Passing'),
    h('span', { class: 'passing-lead' }, 'Pass one card to each:'),
    h(
      'div',
      { class: 'recipients' },
      selection.recipients.map((seat) => {
        const card = selection.cardFor(seat);
        return h(
          'button',
          {
            type: 'button',
            class: 'recipient',
            ...seatColour(seat),
            'aria-pressed': selection.next === seat ? 'true' : 'false',
            onclick: () => controls.aimAt(seat),
          },
          // On a phone the seat's number and colour name it; its player's name is kept for screen readers.
          h('span', {}, `To Seat ${seat} · `, h('span', { class: 'recipient-name' }, shortName(view, seat)), ': '),
          card === undefined ? h('em', {}, 'pick a card') : cardFace(card),
        );
      }),
    ),
    h(
      'button',
      { type: 'button', class: 'primary', disabled: !selection.complete || controls.busy, onclick: () => controls.pass() },
      'Pass these cards',
    ),
  );
}

/** "Seat 1 · Bo": recipients and the accused are named with their seat, as the table shows them. */
function seatLabel(view: TableView, seat: number): string {
  return `Seat ${seat} · ${shortName(view, seat)}`;
}

function accusationPanel(view: TableView, controls: SeatControls): HTMLElement {
  return h(
    'section',
    { class: 'accusation', 'aria-labelledby': 'accusation-heading' },
    h('h3', { id: 'accusation-heading' }, 'Which teammate is the Traitor?'),
    (view.hand?.mayAccuse ?? []).map((seat) =>
      h(
        'button',
        { type: 'button', class: 'primary accuse', ...seatColour(seat), disabled: controls.busy, onclick: () => controls.accuse(seat) },
        `Accuse ${seatLabel(view, seat)}`,
      ),
    ),
  );
}

function notesPanel(view: TableView): HTMLElement | null {
  const hand = view.hand;
  if (hand === null) return null;
  const notes: HTMLElement[] = [];
  if (view.phase === 'passing' && hand.passesSent.length > 0) {
    notes.push(
      h(
        'span',
        {},
        'You passed: ',
        hand.passesSent.map((pass) => h('span', {}, cardFace(pass.card), ` to ${shortName(view, pass.to)} `)),
      ),
    );
  }
  if (hand.passesReceived.length > 0 && hand.tricks.length === 0) {
    notes.push(
      h(
        'span',
        {},
        'You received: ',
        hand.passesReceived.map((pass) => h('span', {}, cardFace(pass.card), ` from ${shortName(view, pass.from)} `)),
      ),
    );
  }
  if (hand.accusation !== null && hand.traitor === null) notes.push(h('span', {}, `You named ${shortName(view, hand.accusation)}.`));
  return notes.length === 0 ? null : h('div', { class: 'notes-panel', 'aria-label': 'Your notes', role: 'note' }, notes);
}
