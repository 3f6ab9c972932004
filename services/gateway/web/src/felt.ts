/**
 * The card table itself: the seats round an oval of felt (4, 5 or 6), the
 * viewer's own seat at the bottom, each with its name, cards left, side,
 * role when known, points and whether it is to act; the trick in the middle,
 * each card in front of the seat that played it. A card arriving and a trick
 * being taken are animated once (style.css drops the motion under
 * prefers-reduced-motion); `FeltMemory` remembers what was already shown.
 */
import type { Card } from '../../../../machines/cards/card.js';
import type { SeatSummary, TableView } from '../../../../machines/view.js';
import { cardFace, suitChip, trickOutcome } from './board.js';
import { h } from './dom.js';
import { rulesOf } from '../../../../machines/games/rules/index.js';
import { words } from './i18n/index.js';
import { playsAlone, sideLabel, teamOf } from './sides.js';
import { seatColour, seatMark } from './seatMarks.js';
import { occupantName, shortName, STAND_IN_PREFIX } from './words.js';

/** What the felt has already animated, kept across renders of one page. */
export class FeltMemory {
  private readonly shown = new Set<string>();

  /** True the first time `key` is asked about. */
  firstTime(key: string): boolean {
    if (this.shown.has(key)) return false;
    this.shown.add(key);
    return true;
  }
}

export interface FeltOptions {
  readonly memory: FeltMemory;
  /** Offered on a seat that a person may take (open, or a bot standing in for one who left). */
  readonly onSit?: (seat: number) => void;
  /** Whom the viewer watches from, when not seated (a replay as a seat). */
  readonly bottomSeat?: number;
  /** The turn clock's bar, for each awaited seat a person holds (seatClock.ts); none in a replay. */
  readonly clock?: () => HTMLElement | null;
  /** What a seat just said at the table (quickChat.ts), by its seat. */
  readonly bubble?: (seat: number) => HTMLElement | null;
  /** A seat watched in a replay: shown as the seat at the bottom, but named by its player, not "You". */
  readonly ownNamed?: boolean;
}

/** A bot standing in for a player who left: its seat may be taken (docs/api.md). */
function isStandIn(summary: SeatSummary): boolean {
  return summary.occupant?.bot === true && summary.occupant.name.startsWith(STAND_IN_PREFIX);
}

export function isTakeable(summary: SeatSummary): boolean {
  return summary.occupant === null || isStandIn(summary);
}

/**
 * Which way seat `seat` sits from the middle, as a unit vector: the bottom
 * seat straight down, then clockwise (play goes left). style.css scales it by
 * how far out seats and trick cards go, which depends on the screen.
 */
function directionOf(seat: number, bottom: number, seatCount: number): { dx: number; dy: number } {
  const angle = (((seat - bottom + seatCount) % seatCount) * 2 * Math.PI) / seatCount;
  return { dx: -Math.sin(angle), dy: Math.cos(angle) };
}

function placed(direction: { dx: number; dy: number }): string {
  return `--dx:${direction.dx.toFixed(3)};--dy:${direction.dy.toFixed(3)}`;
}

export function felt(view: TableView, options: FeltOptions): HTMLElement {
  const seatCount = view.seats.length;
  const bottom = typeof view.viewer === 'number' ? view.viewer : (options.bottomSeat ?? 0);
  const handNumber = view.hand?.number ?? 0;
  const awaited = new Set(view.awaiting.map((awaiting) => awaiting.seat));
  const naming: TableView = options.ownNamed ? { ...view, viewer: 'spectator' } : view;
  const hand = view.hand;

  const seats = view.seats.map((summary) => {
    const toAct = awaited.has(summary.seat);
    const clock = toAct && summary.occupant?.bot === false ? (options.clock?.() ?? null) : null;
    const box = seatBox(
      view,
      summary,
      { toAct, clock, ownNamed: options.ownNamed === true },
      directionOf(summary.seat, bottom, seatCount),
      options.onSit,
    );
    box.append(options.bubble?.(summary.seat) ?? '');
    return box;
  });

  const table = words().table;
  const middle = h('div', { class: 'trick-area', role: 'group', 'aria-label': table.theTrick });
  const trickNumber = hand === null ? 0 : hand.tricks.length + (hand.trick !== null && hand.trick.plays.length > 0 ? 1 : 0);
  const inPlay = hand?.trick?.plays ?? [];
  if (hand !== null && inPlay.length > 0) {
    for (const play of inPlay) {
      const place = directionOf(play.seat, bottom, seatCount);
      const fresh = options.memory.firstTime(`${handNumber}:${trickNumber}:${play.seat}`);
      middle.append(trickCard(naming, play.seat, play.card, place, fresh ? 'arrive' : ''));
    }
  } else if (hand !== null && hand.tricks.length > 0 && view.phase === 'trickPlay') {
    // Between tricks the one just taken stays in the middle, sliding toward whoever took it.
    const last = hand.tricks.at(-1)!;
    const taker = last.capturedBy ?? last.winner;
    const to = directionOf(taker, bottom, seatCount);
    const fresh = options.memory.firstTime(`${handNumber}:taken:${hand.tricks.length}`);
    for (const play of last.plays) {
      const card = trickCard(naming, play.seat, play.card, directionOf(play.seat, bottom, seatCount), `taken${fresh ? ' sweep' : ''}`);
      card.style.setProperty('--tx', to.dx.toFixed(3));
      card.style.setProperty('--ty', to.dy.toFixed(3));
      middle.append(card);
    }
    middle.append(h('p', { class: 'taken-note' }, table.takenTrick(trickOutcome(view, last), hand.tricks.length)));
  }

  const trump = hand?.trump ?? null;
  return h(
    'div',
    { class: 'felt-wrap' },
    h(
      'p',
      { class: 'felt-info' },
      h(
        'span',
        { class: 'trump' },
        table.trump,
        trump === null ? h('em', {}, hand === null ? table.noTrumpYet : table.trumpToCome) : suitChip(trump),
      ),
      hand === null || view.phase !== 'trickPlay'
        ? null
        : h('span', { class: 'trick-count' }, table.trickOf(Math.max(trickNumber, 1), tricksInHand(view))),
    ),
    h(
      'div',
      { class: `felt seats-${seatCount}`, 'data-seats': seatCount },
      h('ol', { class: 'seats', 'aria-label': table.seats }, seats),
      middle,
    ),
  );
}

function tricksInHand(view: TableView): number {
  const hand = view.hand;
  if (hand === null) return 0;
  const held = view.seats.reduce((most, seat) => Math.max(most, seat.cardsHeld), 0);
  return hand.tricks.length + held;
}

function trickCard(naming: TableView, seat: number, card: Card, direction: { dx: number; dy: number }, motion: string): HTMLElement {
  return h(
    'div',
    { class: `trick-card ${motion}`, style: placed(direction), 'data-seat': seat },
    cardFace(card),
    h('span', { class: 'who', ...seatColour(seat) }, shortName(naming, seat)),
  );
}

function seatBox(
  view: TableView,
  summary: SeatSummary,
  turn: { readonly toAct: boolean; readonly clock: HTMLElement | null; readonly ownNamed: boolean },
  direction: { dx: number; dy: number },
  onSit?: (seat: number) => void,
): HTMLElement {
  const { toAct, ownNamed } = turn;
  const own = view.viewer === summary.seat;
  const occupant = summary.occupant;
  const side = sideLabel(view, summary.seat);
  const alone = playsAlone(view, summary.seat);
  const table = words().table;
  const points = rulesOf(view.game).marksSuits
    ? view.marked === null
      ? null
      : table.suitsMarked(view.marked[teamOf(summary.seat)].length)
    : table.points(view.scores[summary.seat] ?? 0);
  const badges = [
    toAct ? h('span', { class: 'badge to-act-badge' }, own ? table.yourTurnBadge : table.toAct) : null,
    summary.role === null
      ? null
      : h('span', { class: `badge role-${summary.role}` }, summary.role === 'traitor' ? words().games.traitor : words().games.matchmaker),
    alone ? h('span', { class: 'badge role-anticupid' }, side) : null,
    summary.hasPassed === true && view.phase === 'passing' ? h('span', { class: 'badge quiet' }, table.passedBadge) : null,
    summary.hasAccused === true && view.phase === 'accusation' ? h('span', { class: 'badge quiet' }, table.namedBadge) : null,
  ];
  const takeable = onSit !== undefined && isTakeable(summary) && view.phase !== 'gameOver';
  return h(
    'li',
    {
      class: `seat${toAct ? ' to-act' : ''}${own ? ' own' : ''}${occupant === null ? ' empty' : ''}`,
      'data-seat': summary.seat,
      ...seatColour(summary.seat),
      style: placed(direction),
    },
    h(
      'div',
      { class: 'seat-head' },
      seatMark(summary.seat),
      h(
        'div',
        { class: 'seat-name' },
        h('strong', {}, own && !ownNamed ? words().you : occupant === null ? table.openSeat : occupantName(occupant)),
      ),
    ),
    h(
      'div',
      { class: 'seat-notes' },
      h('span', {}, words().seat(summary.seat)),
      occupant?.bot && !/^(Heuristic|Random) bot \d+$/.test(occupant.name) ? h('span', { class: 'bot-mark' }, table.botMark) : null,
      side === '' || alone ? null : h('span', {}, side),
      view.hand === null ? null : h('span', { class: 'cards-left' }, table.cardsLeft(summary.cardsHeld)),
      points === null ? null : h('span', { class: 'seat-points' }, points),
    ),
    h('div', { class: 'badges' }, badges),
    turn.clock,
    takeable
      ? h(
          'button',
          { type: 'button', class: 'sit', onclick: () => onSit(summary.seat) },
          occupant === null ? table.sitHere : table.takeThisSeat,
        )
      : null,
  );
}
