/**
 * "Play on from here": from any step of a finished game's replay, a new
 * table that starts as the game stood then (POST /api/tables/:id/fork),
 * with bots in every other seat. The dialog asks which seat to take and a
 * name, then opens the new table seated there.
 */
import type { TableView } from '../../../../machines/view.js';
import { api } from './api.js';
import { h } from './dom.js';
import { nameFrom } from './invites.js';
import { openModal } from './modal.js';
import { holdSeat, playerName, rememberPlayerName } from './seatTokens.js';
import { failureWords } from './i18n/refusals.js';
import { words } from './i18n/index.js';
import { shortName } from './words.js';

/** Asks for a seat and a name, makes the new table and opens it; `seat` is the seat chosen at first. */
export function playOnFrom(tableId: string, at: number, view: TableView, seat: number): void {
  const friends = words().friends;
  const message = h('p', { class: 'error', role: 'alert', hidden: true });
  const nameInput = h('input', {
    id: 'play-on-name',
    name: 'name',
    autocomplete: 'nickname',
    required: true,
    maxlength: 40,
    value: playerName(),
  });
  const seatSelect = h(
    'select',
    { id: 'play-on-seat' },
    view.seats.map((summary) =>
      h('option', { value: summary.seat, selected: summary.seat === seat }, friends.inPlaceOf(summary.seat, shortName(view, summary.seat))),
    ),
  );
  const start = h('button', { type: 'button', class: 'primary' }, friends.playOn);
  const cancel = h('button', { type: 'button' }, friends.cancel);
  const modal = openModal({
    title: friends.playOnFrom(at),
    className: 'play-on',
    body: [
      h('p', {}, friends.playOnExplained),
      h('p', {}, h('label', { for: 'play-on-seat' }, friends.yourSeat), seatSelect),
      h('p', {}, h('label', { for: 'play-on-name' }, friends.yourName), nameInput),
      message,
    ],
    actions: [cancel, start],
  });
  cancel.addEventListener('click', () => modal.close());
  start.addEventListener('click', () => {
    const name = nameFrom(nameInput, message);
    if (name === null) return;
    start.disabled = true;
    api.fork(tableId, at, Number(seatSelect.value), name).then(
      (forked) => {
        holdSeat(forked.tableId, { seat: forked.seat, token: forked.token });
        rememberPlayerName(name);
        modal.close();
        location.hash = `#/table/${encodeURIComponent(forked.tableId)}`;
      },
      (error: unknown) => {
        start.disabled = false;
        message.textContent = failureWords(error);
        message.hidden = false;
      },
    );
  });
}
