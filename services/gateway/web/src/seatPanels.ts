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
import { words } from './i18n/index.js';
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
  const table = words().table;
  const role = traitor ? words().games.theTraitor : words().games.aMatchmaker;
  const want = traitor ? table.traitorWants : table.matchmakerWants;
  return h(
    'p',
    { class: `role ${traitor ? 'role-traitor' : 'role-matchmaker'}` },
    h('strong', {}, table.yourRole(role)),
    h('span', { class: 'role-why' }, table.trackingCard(suitName(roleCard), want)),
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
  const table = words().table;
  return h(
    'section',
    { class: 'passing', 'aria-labelledby': 'passing-heading' },
    h('h3', { id: 'passing-heading', class: 'sr-only' }, table.passing),
    h('span', { class: 'passing-lead' }, table.passOneEach),
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
            'data-focus-key': `recipient-${seat}`,
            ...seatColour(seat),
            'aria-pressed': selection.next === seat ? 'true' : 'false',
            onclick: () => controls.aimAt(seat),
          },
          // On a phone the seat's number and colour name it; its player's name is kept for screen readers.
          h('span', {}, table.toSeat(seat), h('span', { class: 'recipient-name' }, ' · ', shortName(view, seat)), ': '),
          card === undefined ? h('em', {}, table.pickACard) : cardFace(card),
        );
      }),
    ),
    h(
      'button',
      {
        type: 'button',
        class: 'primary',
        'data-focus-key': 'pass',
        disabled: !selection.complete || controls.busy,
        onclick: () => controls.pass(),
      },
      table.passTheseCards,
    ),
  );
}

/** "Seat 1 · Bo": recipients and the accused are named with their seat, as the table shows them. */
function seatLabel(view: TableView, seat: number): string {
  return words().table.seatLabel(seat, shortName(view, seat));
}

function accusationPanel(view: TableView, controls: SeatControls): HTMLElement {
  return h(
    'section',
    { class: 'accusation', 'aria-labelledby': 'accusation-heading' },
    h('h3', { id: 'accusation-heading' }, words().table.whichTeammate),
    (view.hand?.mayAccuse ?? []).map((seat) =>
      h(
        'button',
        {
          type: 'button',
          class: 'primary accuse',
          'data-focus-key': `accuse-${seat}`,
          ...seatColour(seat),
          disabled: controls.busy,
          onclick: () => controls.accuse(seat),
        },
        words().table.accuse(seatLabel(view, seat)),
      ),
    ),
  );
}

function notesPanel(view: TableView): HTMLElement | null {
  const hand = view.hand;
  if (hand === null) return null;
  const notes: HTMLElement[] = [];
  const table = words().table;
  if (view.phase === 'passing' && hand.passesSent.length > 0) {
    notes.push(
      h(
        'span',
        {},
        table.youPassed,
        hand.passesSent.map((pass) => h('span', {}, cardFace(pass.card), table.passedTo(shortName(view, pass.to)))),
      ),
    );
  }
  if (hand.passesReceived.length > 0 && hand.tricks.length === 0) {
    notes.push(
      h(
        'span',
        {},
        table.youReceived,
        hand.passesReceived.map((pass) => h('span', {}, cardFace(pass.card), table.receivedFrom(shortName(view, pass.from)))),
      ),
    );
  }
  if (hand.accusation !== null && hand.traitor === null) notes.push(h('span', {}, table.youNamed(shortName(view, hand.accusation))));
  return notes.length === 0 ? null : h('div', { class: 'notes-panel', 'aria-label': table.yourNotes, role: 'note' }, notes);
}
