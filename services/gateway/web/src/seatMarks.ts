/**
 * Seats told apart by colour and number wherever a seat is named: each seat
 * has a colour of its own (style.css, `--seat-colour` by `data-seat-colour`),
 * and its number goes with it, for whoever cannot tell the colours apart.
 * On the felt a seat carries its mark (the number on its colour); a pass
 * slot, an accusation, a trick card's player and a row of the standings
 * carry the colour beside the seat number their words already give.
 */
import { h } from './dom.js';
import { words } from './i18n/index.js';

/** The attribute that gives an element its seat's colour. */
export function seatColour(seat: number): { 'data-seat-colour': number } {
  return { 'data-seat-colour': seat };
}

/** "seat 2" (the word for screen readers only) on seat 2's colour. */
export function seatMark(seat: number): HTMLElement {
  return h('span', { class: 'seat-mark', ...seatColour(seat) }, h('span', { class: 'sr-only' }, words().table.seatWord), String(seat));
}
