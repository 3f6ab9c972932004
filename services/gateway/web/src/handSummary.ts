/**
 * What happened in a scored hand, in words (view.lastHand and its
 * HandResult, all public by then): trump, in A Traitor of Love who the
 * Traitor was and who named whom, each marriage and who it scored for, in
 * Anti-Cupid the split suits that scored for Anti-Cupid, the points of the
 * hand and its final trick.
 */
import type { Suit } from '../../../../machines/cards/card.js';
import type { CompletedHand, Marriage } from '../../../../machines/table/context.js';
import type { ScoredHand, TableView } from '../../../../machines/view.js';
import { suitChip, trickOutcome, trickPlays } from './board.js';
import { SUIT_LOOKS } from './cards.js';
import { h } from './dom.js';
import { rulesOf } from '../../../../machines/games/rules/index.js';
import { seatsOfSide, seatsOfTeam, teamOf } from './sides.js';
import { words } from './i18n/index.js';
import { shortName } from './words.js';

/** The result of hand `index` (0-based), if it was scored. */
function resultOf(view: TableView, index: number): ScoredHand | undefined {
  return view.handResults[index];
}

function names(view: TableView, seats: readonly number[]): string {
  return words().table.list(seats.map((seat) => shortName(view, seat)));
}

/** The marriages of one side and whom they scored for, in the game's words: "Your team (A) married ♦ Diamonds, ♥ Hearts." */
function marriageLine(view: TableView, last: CompletedHand, by: Marriage['by'], suits: readonly Suit[]): (Node | string)[] {
  const seatCount = view.seats.length;
  const chips = suits.flatMap((suit, index) => (index === 0 ? [suitChip(suit)] : [' ', suitChip(suit)]));
  const table = words().table;
  if (last.antiCupid !== null) {
    if (typeof by === 'number') {
      const others = Array.from({ length: seatCount }, (_, seat) => seat).filter((seat) => seat !== by);
      return [table.antiCupidMarried(shortName(view, by)), ...chips, table.toTheOtherFour(suits.length, names(view, others))];
    }
    const pair = seatsOfSide(view, by, last.antiCupid);
    return [table.partnershipMarried(names(view, pair), by), ...chips, table.pointsEach(suits.length)];
  }
  const team = by as 'A' | 'B';
  const viewerTeam = view.viewer === 'spectator' ? null : teamOf(view.viewer);
  const who = team === viewerTeam ? table.yourTeamLetter(team) : table.teamLetter(team);
  if (rulesOf(view.game).roles !== null) return [table.married(who), ...chips, table.matchmakersScore(team)];
  return [table.teamMarried(who, names(view, seatsOfTeam(team, seatCount))), ...chips, '.'];
}

/** Marriages grouped by the side that made them, in the order the sides first married. */
function bySide(marriages: readonly Marriage[]): [Marriage['by'], Suit[]][] {
  const sides = new Map<Marriage['by'], Suit[]>();
  for (const marriage of marriages) sides.set(marriage.by, [...(sides.get(marriage.by) ?? []), marriage.suit]);
  return [...sides];
}

export function handSummary(view: TableView, last: CompletedHand): HTMLElement {
  const result = resultOf(view, last.index);
  const married = new Set<Suit>((result?.marriages ?? []).map((marriage) => marriage.suit));
  const split = (Object.keys(SUIT_LOOKS).map(Number) as Suit[]).filter((suit) => !married.has(suit));
  const table = words().table;
  return h(
    'div',
    { class: 'hand-summary', 'data-hand': last.index + 1 },
    h(
      'p',
      {},
      table.trumpWas,
      last.trump === null ? table.noTrump : suitChip(last.trump),
      '.',
      last.antiCupid === null ? '' : table.antiCupidWas(shortName(view, last.antiCupid)),
    ),
    last.traitor === null ? null : traitorReveal(view, last),
    result === undefined
      ? null
      : h(
          'div',
          { class: 'marriages-block' },
          h('h3', {}, table.marriagesHeading),
          result.marriages.length === 0
            ? h('p', {}, table.noMarriages)
            : h(
                'ul',
                { class: 'marriages' },
                bySide(result.marriages).map(([by, suits]) => h('li', {}, marriageLine(view, last, by, suits))),
              ),
          last.antiCupid !== null && split.length > 0
            ? h('p', { class: 'split' }, table.notMarried(shortName(view, last.antiCupid ?? 0)), split.map(suitChip))
            : null,
        ),
    result === undefined ? null : handPoints(view, result),
    last.finalTrick === null
      ? null
      : h(
          'div',
          { class: 'final-trick' },
          h('h3', {}, table.lastTrick(trickOutcome(view, last.finalTrick))),
          trickPlays(view, last.finalTrick, table.cardsOfLastTrick),
        ),
  );
}

function traitorReveal(view: TableView, last: CompletedHand): HTMLElement {
  const traitor = last.traitor!;
  const table = words().table;
  return h(
    'div',
    { class: 'reveal' },
    h(
      'p',
      { class: 'reveal-line' },
      h('strong', {}, traitor === view.viewer ? table.youWereTraitor : table.traitorWas(shortName(view, traitor))),
    ),
    h(
      'ul',
      { class: 'accusations' },
      (last.accusations ?? []).map((accused, seat) =>
        accused === null ? null : h('li', {}, table.namedWhom(shortName(view, seat), shortName(view, accused), accused === traitor)),
      ),
    ),
    h('p', { class: 'muted small' }, table.accusationsScore),
  );
}

function handPoints(view: TableView, result: ScoredHand): HTMLElement {
  if (rulesOf(view.game).marksSuits) {
    const marked = result.marked;
    return h('p', { class: 'hand-points' }, marked === null ? '' : words().table.suitsMarkedAfter(marked.A.length, marked.B.length));
  }
  return h(
    'table',
    { class: 'hand-points' },
    h('caption', {}, words().table.pointsThisHand),
    h(
      'tbody',
      {},
      result.handScores.map((score, seat) =>
        h('tr', {}, h('th', { scope: 'row' }, shortName(view, seat)), h('td', {}, score > 0 ? `+${score}` : String(score))),
      ),
    ),
  );
}

/** The hand scored last, kept beside the table through the next hand: the summary, folded open. */
export function lastHandPanel(view: TableView, dealCheck: HTMLElement | null = null): HTMLElement | null {
  const last = view.lastHand;
  if (last === null) return null;
  return h(
    'details',
    { class: 'panel last-hand', open: true },
    h('summary', {}, words().table.lastHandOf(last.index + 1)),
    handSummary(view, last),
    dealCheck,
  );
}
