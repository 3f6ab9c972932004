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
import { failureWords } from './i18n/refusals.js';
import { words } from './i18n/index.js';
import { gameTitle, occupantName } from './words.js';

function inviteLink(tableId: string, seat: number): string {
  return `${location.origin}${location.pathname}#/join/${encodeURIComponent(tableId)}/${seat}`;
}

/**
 * The seats a person may take, each with its link to copy; null when every seat is held. With `startBots` (a seated
 * person), a game under way that waits at an open seat (a fork's, kept for its person) may let bots take them instead.
 */
export function invitePanel(view: TableView, tableId: string, startBots?: () => Promise<void>): HTMLElement | null {
  if (view.outcome?.finished) return null;
  const open = view.seats.filter(isTakeable);
  if (open.length === 0) return null;
  const friends = words().friends;
  return h(
    'details',
    { class: 'panel invites', open: view.phase === 'seating' || view.seats.some((seat) => seat.occupant === null) },
    h('summary', {}, friends.invitePlayers(open.length)),
    h('p', { class: 'muted small' }, friends.sendALink),
    h(
      'ul',
      { class: 'invite-list' },
      open.map((summary) => {
        const link = inviteLink(tableId, summary.seat);
        const field = h('input', {
          type: 'text',
          readonly: true,
          value: link,
          'aria-label': friends.inviteLinkFor(summary.seat),
          class: 'invite-link',
          'data-seat': summary.seat,
        });
        field.addEventListener('focus', () => field.select());
        const copy = h('button', { type: 'button', class: 'copy' }, friends.copy);
        copy.addEventListener('click', () => {
          const done = () => (copy.textContent = friends.copied);
          field.select();
          if (navigator.clipboard !== undefined)
            navigator.clipboard.writeText(link).then(done, () => (document.execCommand('copy') ? done() : undefined));
          else if (document.execCommand('copy')) done();
        });
        const who = summary.occupant === null ? friends.openWord : friends.nowHeldBy(occupantName(summary.occupant));
        return h('li', {}, h('span', { class: 'invite-seat' }, friends.inviteSeat(summary.seat, who)), field, copy);
      }),
    ),
    startBots !== undefined && view.phase !== 'seating' && view.seats.some((seat) => seat.occupant === null)
      ? startBotsButton(startBots)
      : null,
  );
}

function startBotsButton(startBots: () => Promise<void>): HTMLElement {
  const button = h('button', { type: 'button', class: 'start-bots' }, words().friends.startBots);
  const error = h('p', { class: 'error', role: 'alert', hidden: true });
  button.addEventListener('click', () => {
    button.disabled = true;
    startBots().catch((failure: unknown) => {
      button.disabled = false;
      error.textContent = failureWords(failure);
      error.hidden = false;
    });
  });
  return h('div', { class: 'start-bots-row' }, button, error);
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
  message.textContent = words().friends.enterYourName;
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
  const friends = words().friends;
  const about = h('p', { class: 'muted' }, friends.loadingTheTable);
  const submit = async (event: Event) => {
    event.preventDefault();
    const name = nameFrom(nameInput, message);
    if (name === null) return;
    try {
      await sitAt(tableId, seat, name);
    } catch (error) {
      message.textContent = failureWords(error);
      message.hidden = false;
    }
  };
  replaceChildren(
    root,
    h(
      'form',
      { class: 'join card-panel', onsubmit: (event: Event) => void submit(event), 'aria-labelledby': 'join-heading' },
      h('h2', { id: 'join-heading' }, friends.invitedTo(seat)),
      about,
      message,
      h('p', {}, h('label', { for: 'join-name' }, friends.yourName), nameInput),
      h(
        'p',
        {},
        h('button', { type: 'submit', class: 'primary' }, friends.takeTheSeat),
        ' ',
        h('a', { href: `#/watch/${encodeURIComponent(tableId)}` }, friends.justWatch),
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
      about.textContent = `${friends.aboutTable(gameTitle(view.game), tableId, players)}${free ? '' : friends.seatTaken(seat)}`;
    })
    .catch((error: unknown) => {
      about.textContent = failureWords(error);
    });
  return () => {};
}
