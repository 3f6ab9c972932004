/**
 * What one seat, or a spectator, may see of a table (docs/rules.md,
 * "Who may see what"). Every view in the service is built here and nowhere
 * else: hidden information is filtered in this one place.
 */
import { HEARTS, inCanonicalOrder, type Card, type Suit } from './cards/card.js';
import type { NextDeal, RevealedDeal } from './fairness/fairDeal.js';
import {
  nextDealOf,
  revealedDealsOf,
  type CompletedHand,
  type CompletedTrick,
  type HandResult,
  type Pass,
  type TableContext,
  type TeamTally,
  type TrickInProgress,
  type GameOutcome,
} from './table/context.js';
import type { Occupant } from './table/events.js';
import { GAMES, type GameName, type TableOptions } from './table/options.js';
import { awaitedActions, type AwaitedAction } from './table/refusal.js';
import { rulesOfMachine } from './games/index.js';
import { phaseOf, type Phase, type TableSnapshot } from './table/snapshot.js';
import { capturedSevens, type CapturedSeven } from './rules/marriage.js';
import { legalPlaysFor } from './fragments/trickPlay.js';
import { allSeatsHaveAccused } from './fragments/accusation.js';
import { passRecipients } from './fragments/passing.js';
import { teammatesOf } from './rules/sides.js';
import type { Seat } from './rules/trick.js';

export type Viewer = Seat | 'spectator';

export type RoleName = 'traitor' | 'matchmaker';

export interface SeatSummary {
  readonly seat: Seat;
  readonly occupant: Occupant | null;
  readonly cardsHeld: number;
  /** Passing: whether the seat has chosen its passes (never which). */
  readonly hasPassed: boolean | null;
  /** Accusation: whether the seat has named a teammate (never whom, until all have). */
  readonly hasAccused: boolean | null;
  /** A Traitor of Love: known for the viewer's own seat, and for every seat once the Traitor is revealed. */
  readonly role: RoleName | null;
}

interface HandView {
  readonly number: number;
  readonly antiCupid: Seat | null;
  readonly trump: Suit | null;
  readonly trick: TrickInProgress | null;
  readonly tricks: readonly CompletedTrick[];
  readonly capturedSevens: readonly CapturedSeven[];
  readonly turn: Seat | null;
  /** The viewer's own cards, in canonical order (suit, then rank); null for a spectator. */
  readonly cards: readonly Card[] | null;
  /** The viewer's own cards as dealt, before any pass, in canonical order; null for a spectator. */
  readonly dealt: readonly Card[] | null;
  /** The cards the viewer may play now, in canonical order; empty when it is not their turn. */
  readonly legalCards: readonly Card[];
  /** SHA-256 of this hand's secret seed (docs/fairness.md); null for a deal made without one. */
  readonly commitment: string | null;
  /** The viewer's own tracking card suit (A Traitor of Love). */
  readonly roleCard: Suit | null;
  /** The seats the viewer must pass one card each to, while it has not passed; empty otherwise. */
  readonly passTo: readonly Seat[];
  /** The teammates the viewer may name, while it has not accused; empty otherwise. */
  readonly mayAccuse: readonly Seat[];
  /** Passes the viewer chose or made. */
  readonly passesSent: readonly Pass[];
  /** Passes the viewer received, once every seat has passed. */
  readonly passesReceived: readonly Pass[];
  readonly accusation: Seat | null;
  /** Once all have named: the Traitor and every accusation. */
  readonly traitor: Seat | null;
  readonly accusations: readonly (Seat | null)[] | null;
}

/**
 * A scored hand as the score sheet shows it: trump, marriages, points. Its
 * tricks (who led and won each) stay in the table's context and record: no
 * client shows them, and they were most of a view's growth over a game.
 */
export type ScoredHand = Omit<HandResult, 'tricks'>;

export interface TableView {
  readonly game: GameName;
  readonly title: string;
  readonly options: TableOptions;
  /** What ends this table's game, in words, by the rules it plays (a later rules version may differ from today's). */
  readonly endWords: string;
  /** The game's own rules in short, as the table plays them. */
  readonly rulesSummary: readonly string[];
  readonly viewer: Viewer;
  readonly phase: Phase;
  readonly seats: readonly SeatSummary[];
  readonly awaiting: readonly AwaitedAction[];
  readonly hand: HandView | null;
  readonly handResults: readonly ScoredHand[];
  /** Each scored hand's seed and commitment, so anyone can re-derive its deal (docs/fairness.md). */
  readonly revealedDeals: readonly RevealedDeal[];
  /**
   * The commitment to the host's secret for the next hand, to which each
   * seat may send its contribution until the hand before it ends (or, for
   * the first hand, until the table is full): docs/fairness.md. Null when the
   * next hand takes no contributions, and once the game is over.
   */
  readonly nextDeal: NextDeal | null;
  /** Cards dealt to each seat at this table: with the game and options, what a seed's deal depends on. */
  readonly cardsPerSeat: number;
  /** The hand scored last, all of it public by then: its final trick, Traitor and accusations. */
  readonly lastHand: CompletedHand | null;
  readonly scores: readonly number[];
  readonly marked: TeamTally<readonly Suit[]> | null;
  readonly marriageCount: TeamTally<number> | null;
  readonly outcome: GameOutcome | null;
}

export function viewFor(snapshot: TableSnapshot, viewer: Viewer): TableView {
  const { context } = snapshot;
  const own = viewer === 'spectator' ? null : viewer;
  const shared = sharedPartsOf(snapshot);
  return {
    game: context.game,
    title: GAMES[context.game].title,
    options: context.options,
    endWords: shared.endWords,
    rulesSummary: shared.rulesSummary,
    viewer,
    phase: shared.phase,
    seats: shared.seats ?? seatsSeenBy(context, own, shared.revealed),
    awaiting: shared.awaiting,
    hand: context.hand === null ? null : handView(snapshot, own, shared),
    handResults: scoreSheetOf(context.handResults),
    revealedDeals: revealedDealsOf(context),
    nextDeal: context.outcome === null ? nextDealOf(context) : null,
    cardsPerSeat: context.cardsPerSeat,
    lastHand: context.lastHand,
    scores: context.scores,
    marked: context.marked,
    marriageCount: context.marriageCount,
    outcome: context.outcome,
  };
}

/**
 * `compute`, made once for each object it is given: the machine's context
 * keeps what a move does not touch, so the views of the versions that follow
 * share the part (one array for every viewer and version, and a socket's
 * changes skip it without a look, machines/viewChanges.ts).
 */
function oncePer<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  const made = new WeakMap<K, V>();
  return (key) => {
    let value = made.get(key);
    if (value === undefined) {
      value = compute(key);
      made.set(key, value);
    }
    return value;
  };
}

/**
 * What every viewer's view of one snapshot shares, made once for all of them: the gateway builds a view per seat
 * and spectator of each version, and a socket's changes skip a part its two versions share without a look.
 */
interface SharedParts {
  readonly phase: Phase;
  readonly awaiting: readonly AwaitedAction[];
  readonly endWords: string;
  readonly rulesSummary: readonly string[];
  /** Once every seat has accused, the Traitor and the accusations are everyone's to see. */
  readonly revealed: boolean;
  /** The seats, when no viewer sees a role another does not (no roles dealt, or all revealed); else per viewer. */
  readonly seats: readonly SeatSummary[] | null;
}

const sharedPartsOf = oncePer((snapshot: TableSnapshot): SharedParts => {
  const { context } = snapshot;
  const revealed = context.hand?.accusations != null && allSeatsHaveAccused(context);
  const rules = rulesOfMachine(context.game, snapshot.machine);
  const rolesPrivate = context.hand?.roles != null && !revealed;
  return {
    phase: phaseOf(snapshot),
    awaiting: awaitedActions(snapshot),
    endWords: rules.words.end(context.options),
    rulesSummary: rules.words.summary,
    revealed,
    seats: rolesPrivate ? null : seatsSeenBy(context, null, revealed),
  };
});

function seatsSeenBy(context: TableContext, own: Seat | null, revealed: boolean): readonly SeatSummary[] {
  const hand = context.hand;
  return context.occupants.map((occupant, seat) => ({
    seat,
    occupant,
    cardsHeld: hand?.holdings[seat].length ?? 0,
    hasPassed: hand?.passChoices == null ? null : hand.passChoices[seat] !== null,
    hasAccused: hand?.accusations == null ? null : hand.accusations[seat] !== null,
    role: roleVisibleTo(context, seat, own, revealed),
  }));
}

/** The score sheet: each list of results trimmed once, for every viewer and every change until the next hand is scored (it is a new array then). */
const scoreSheetOf = oncePer((results: readonly HandResult[]): readonly ScoredHand[] =>
  results.map(({ trump, marriages, handScores, marked, marriageCount }) => ({ trump, marriages, handScores, marked, marriageCount })),
);

/** A seat's cards in canonical order, sorted once while the seat's cards stay as they are. */
const canonicalCards = oncePer((cards: readonly Card[]): readonly Card[] => inCanonicalOrder(cards));

/** The cards of a seat that may play none: one array for every view, which a socket's changes skip without a look. */
const NO_CARDS: readonly Card[] = Object.freeze([]);
const NO_SEATS: readonly Seat[] = Object.freeze([]);
const NO_PASSES: readonly Pass[] = Object.freeze([]);

/**
 * Cards picked from a holding (the ones a seat may play), in canonical order:
 * the holding's own sorted copy when they are all of it (most leads), so that
 * neither is sorted again from one change to the next.
 */
function inCanonicalOrderOf(holding: readonly Card[], picked: readonly Card[]): readonly Card[] {
  if (picked.length === 0) return NO_CARDS;
  return picked.length === holding.length ? canonicalCards(holding) : inCanonicalOrder(picked);
}

const sevensCapturedIn = oncePer((tricks: readonly CompletedTrick[]): readonly CapturedSeven[] => capturedSevens(tricks));

function roleVisibleTo(context: TableContext, seat: Seat, own: Seat | null, revealed: boolean): RoleName | null {
  const roles = context.hand?.roles;
  if (roles == null || (seat !== own && !revealed)) return null;
  return roles[seat] === HEARTS ? 'traitor' : 'matchmaker';
}

function handView(snapshot: TableSnapshot, own: Seat | null, { phase, revealed }: SharedParts): HandView {
  const { context } = snapshot;
  const hand = context.hand!;
  return {
    number: hand.index + 1,
    antiCupid: hand.antiCupid,
    trump: hand.trump,
    trick: hand.trick,
    tricks: hand.tricks,
    capturedSevens: sevensCapturedIn(hand.tricks),
    turn: hand.turn,
    cards: own === null ? null : canonicalCards(hand.holdings[own]),
    dealt: own === null ? null : canonicalCards(hand.deal[own]),
    legalCards: own === null || phase !== 'trickPlay' ? NO_CARDS : inCanonicalOrderOf(hand.holdings[own], legalPlaysFor(context, own)),
    commitment: hand.fairness?.commitment ?? null,
    roleCard: own === null || hand.roles === null ? null : hand.roles[own],
    passTo: own !== null && hand.passChoices?.[own] === null ? passRecipients(context, own) : NO_SEATS,
    mayAccuse: own !== null && phase === 'accusation' && hand.accusations?.[own] === null ? teammatesOf(own, context.seatCount) : NO_SEATS,
    passesSent: own === null ? NO_PASSES : (hand.passChoices?.[own] ?? NO_PASSES),
    passesReceived: own === null || hand.passes.length === 0 ? NO_PASSES : hand.passes.filter((pass) => pass.to === own),
    accusation: own === null ? null : (hand.accusations?.[own] ?? null),
    traitor: revealed ? hand.roles!.indexOf(HEARTS) : null,
    accusations: revealed ? hand.accusations : null,
  };
}
