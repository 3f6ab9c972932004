/**
 * Inviting people to a table: one link per seat a person may take
 * (`#/join/<table>/<seat>`), with a button to copy it; and the page such a
 * link opens, which asks a name and takes the seat
 * (POST /api/tables/:id/seats/:seat).
 */
import type { TableView } from '../../../../machines/view.js';
import { api } from './api.js';
import { h, replaceChildren } from './dom.js';
import { isTakeable } from './felt.js';
import { joinSeat } from './seatJoin.js';
import { playerName, rememberLeftSeat, rememberPlayerName } from './seatTokens.js';
import { gameTitle } from './words.js';

function inviteLink(tableId: string, seat: number): string {
  return `${location.origin}${location.pathname}#/join/${encodeURIComponent(tableId)}/${seat}`;
}

/** The seats a person may take, each with its link to copy; null when every seat is held. */
export function invitePanel(view: TableView, tableId: string): HTMLElement | null {
  if (view.outcome?.finished) return null;
  const open = view.seats.filter(isTakeable);
  if (open.length === 0) return null;
  return h(
    'details',
    { class: 'panel invites', open: view.phase === 'seating' },
    h('summary', {}, `Invite players (${open.length} open seat${open.length === 1 ? '' : 's'})`),
    h('p', { class: 'muted small' }, 'Send a link to a friend: opening it asks their name and seats them.'),
    h(
      'ul',
      { class: 'invite-list' },
      open.map((summary) => {
        const link = inviteLink(tableId, summary.seat);
        const field = h('input', {
          type: 'text',
          readonly: true,
          value: link,
          'aria-label': `Invite link for seat ${summary.seat}`,
          class: 'invite-link',
          'data-seat': summary.seat,
        });
        field.addEventListener('focus', () => field.select());
        const copy = h('button', { type: 'button', class: 'copy' }, 'Copy');
        copy.addEventListener('click', () => {
          const done = () => (copy.textContent = 'Copied ✓');
          field.select();
          if (navigator.clipboard !== undefined)
            navigator.clipboard.writeText(link).then(done, () => (document.execCommand('copy') ? done() : undefined));
          else if (document.execCommand('copy')) done();
        });
        const who = summary.occupant === null ? 'open' : `now ${summary.occupant.name}`;
        return h('li', {}, h('span', { class: 'invite-seat' }, `Seat ${summary.seat} (${who})`), field, copy);
      }),
    ),
  );
}

/** Takes `seat` at `tableId` as `name`, keeps the token, and opens the table. */
export async function sitAt(tableId: string, seat: number, name: string): Promise<void> {
  await joinSeat(tableId, seat, name);
  rememberLeftSeat(tableId, null);
  rememberPlayerName(name);
  if (location.hash === `#/table/${tableId}`) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = `#/table/${tableId}`;
}

/** The page an invite link opens: which table, which seat, a name, and "Take the seat". */
/** The name typed in `input`, or null after saying in `message` that one is needed. */
export function nameFrom(input: HTMLInputElement, message: HTMLElement): string | null {
  const name = input.value.trim();
  if (name !== '') return name;
  message.textContent = 'Enter your name: the other players see it at the table.';
  message.hidden = false;
  input.focus();
  return null;
}

export function showJoin(root: HTMLElement, tableId: string, seat: number): () => void {
  const message = h('p', { class: 'error', role: 'alert', hidden: true });
  const nameInput = h('input', {
    id: 'join-name',
    name: 'name',
    autocomplete: 'nickname',
    required: true,
    maxlength: 40,
    value: playerName(),
  });
  const about = h('p', { class: 'muted' }, 'Loading the table…');
  const submit = async (event: Event) => {
    event.preventDefault();
    const name = nameFrom(nameInput, message);
    if (name === null) return;
    try {
      await sitAt(tableId, seat, name);
    } catch (error) {
      message.textContent = `${error instanceof Error ? error.message : String(error)}.`;
      message.hidden = false;
    }
  };
  replaceChildren(
    root,
    h(
      'form',
      { class: 'join card-panel', onsubmit: (event: Event) => void submit(event), 'aria-labelledby': 'join-heading' },
      h('h2', { id: 'join-heading' }, `You are invited to seat ${seat}`),
      about,
      message,
      h('p', {}, h('label', { for: 'join-name' }, 'Your name '), nameInput),
      h(
        'p',
        {},
        h('button', { type: 'submit', class: 'primary' }, 'Take the seat'),
        ' ',
        h('a', { href: `#/watch/${encodeURIComponent(tableId)}` }, 'Just watch'),
      ),
    ),
  );
  nameInput.focus();
  api
    .view(tableId, null)
    .then(({ view }) => {
      const players = view.seats.filter((each) => each.occupant !== null && !each.occupant.bot).map((each) => each.occupant!.name);
      const summary = view.seats[seat];
      const free = summary !== undefined && isTakeable(summary);
      about.textContent = `${gameTitle(view.game)} at table ${tableId}${players.length === 0 ? '' : `, with ${players.join(', ')}`}.${free ? '' : ` Seat ${seat} is already taken.`}`;
    })
    .catch((error: unknown) => {
      about.textContent = error instanceof Error ? error.message : String(error);
    });
  return () => {};
}
