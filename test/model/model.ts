/**
 * The test models: each game's production machine, traversed with
 * @xstate/graph under an abstraction small enough to traverse that still
 * keeps apart what the machine's guards and the game's end conditions read.
 *
 * - `eventsFor` yields legal commands (and host deals) for a snapshot, plus a
 *   few illegal ones whose expected outcome is "refused, state unchanged".
 * - `abstractKey` is the `serializeState`: phase, hand number, seats taken,
 *   deal, how many seats have passed/accused, trump, trick number, plays in
 *   the trick, whose turn, who is winning the trick, who captured which 7s,
 *   and the score buckets the end condition reads. Snapshots with the same
 *   key are one state, expanded from the first such snapshot reached.
 * - `stopWhen` ends the traversal at game over and after a configured number
 *   of hands; `limit` makes a runaway traversal throw instead of hanging.
 *
 * Test configurations are ordinary machine inputs (TableInput with a small
 * `cardsPerSeat` and short end options), so the traversal and every test run
 * exactly the production machine code.
 */
import { createTestModel, getAdjacencyMap, type StatePath } from '@xstate/graph';
import type { AnyStateMachine } from 'xstate';
import { ONE_CARD, SUITS, faceOf, isSpecial, sevensOf, suitOf, type Card } from '../../machines/cards/card.js';
import { createRng, shuffle } from '../../machines/cards/shuffle.js';
import { shuffleDeal } from '../../machines/fragments/dealing.js';
import { passRecipients } from '../../machines/fragments/passing.js';
import { legalPlaysFor } from '../../machines/fragments/trickPlay.js';
import { capturedSevens } from '../../machines/rules/marriage.js';
import { opponentsOf, teammatesOf } from '../../machines/rules/sides.js';
import { sideOf } from '../../machines/games/rules/index.js';
import { ledSuitOf, resolveTrick } from '../../machines/rules/trick.js';
import type { TableContext, TableInput } from '../../machines/table/context.js';
import type { HandDealt, TableEvent } from '../../machines/table/events.js';
import { deckFor } from '../../machines/table/options.js';
import { phaseOf, type TableSnapshot } from '../../machines/table/snapshot.js';

export type Snapshot = TableSnapshot;

/** What the suite knows about an event it generated. */
export interface EventLabel {
  readonly legal: boolean;
  /** For illegal events: what is wrong with it ("wrong seat", "card not in hand", ...). */
  readonly kind: string;
}

const labels = new WeakMap<object, EventLabel>();

function legal<E extends TableEvent>(event: E, kind = 'legal'): E {
  labels.set(event, { legal: true, kind });
  return event;
}

function illegal<E extends object>(event: E, kind: string): TableEvent {
  labels.set(event, { legal: false, kind });
  return event as unknown as TableEvent;
}

export function labelOf(event: object): EventLabel | undefined {
  return labels.get(event);
}

export interface ModelConfig {
  /** Shown in test names and the report. */
  readonly name: string;
  readonly input: TableInput;
  /** The traversal does not deal a hand beyond this many (game over usually comes first). */
  readonly maxHands: number;
  /** The host deals offered when a hand is due; more than one explores each. */
  readonly deals: (context: TableContext) => HandDealt[];
  /** Offer a seat change (leave and rejoin) in the first state of each phase of the first hand. */
  readonly seatChanges: boolean;
  /** Hard bound on traversal work (@xstate/graph throws beyond it). */
  readonly limit: number;
}

/** Seeded shuffles by hand number: the same host deals every time the suite runs. */
export function seededDeals(tag: string, count: number): (context: TableContext) => HandDealt[] {
  return (context) =>
    Array.from({ length: count }, (_, k) => shuffleDeal(context, createRng(`${tag}-h${context.handResults.length}-d${k}`)));
}

/**
 * Deals rich in 7s, so that small hands still marry suits: the 1 card, as
 * many 7s as fit, then other cards, shuffled by seed.
 */
export function richDeals(tag: string, count: number): (context: TableContext) => HandDealt[] {
  return (context) =>
    Array.from({ length: count }, (_, k) => {
      const rng = createRng(`${tag}-rich-h${context.handResults.length}-d${k}`);
      const needed = context.cardsPerSeat * context.seatCount;
      const sevens = shuffle(
        SUITS.flatMap((suit) => sevensOf(suit)),
        rng,
      );
      const others = shuffle(
        deckFor(context.options).filter((card) => card !== ONE_CARD && !sevens.includes(card as never)),
        rng,
      );
      const cards = shuffle([ONE_CARD, ...sevens, ...others].slice(0, needed), rng);
      const deal = Array.from({ length: context.seatCount }, (_, seat) =>
        cards.slice(seat * context.cardsPerSeat, (seat + 1) * context.cardsPerSeat),
      );
      const base = shuffleDeal(context, rng);
      return { type: 'hand.dealt' as const, deal, roles: base.roles };
    });
}

export function bothDeals(...sources: ((context: TableContext) => HandDealt[])[]): (context: TableContext) => HandDealt[] {
  return (context) => sources.flatMap((source) => source(context));
}

// ---------------------------------------------------------------------------
// The abstraction (serializeState)

const dealIds = new WeakMap<object, string>();
const dealNames = new Map<string, string>();

function dealId(deal: readonly (readonly Card[])[]): string {
  let id = dealIds.get(deal);
  if (id === undefined) {
    const json = JSON.stringify(deal);
    id = dealNames.get(json);
    if (id === undefined) {
      id = `D${dealNames.size}`;
      dealNames.set(json, id);
    }
    dealIds.set(deal, id);
  }
  return id;
}

export function stateValueName(value: unknown): string {
  if (typeof value === 'string') return value;
  return Object.entries(value as Record<string, unknown>)
    .map(([key, child]) => `${key}.${stateValueName(child)}`)
    .join(',');
}

function seatMask(context: TableContext): string {
  return context.occupants.map((occupant) => (occupant === null ? '_' : 'x')).join('');
}

/** The score buckets a game's end condition reads. */
function scoreBucket(context: TableContext): string {
  switch (context.game) {
    case 'sevenSuitors':
    case 'firstLesson':
      return `marked ${context.marked!.A.length}/${context.marked!.B.length} count ${context.marriageCount!.A}/${context.marriageCount!.B}${context.tieBreak ? ' tie-break' : ''}`;
    case 'antiCupid':
      // Anti-Cupid ends on the hand count alone; scores never change what the machine does.
      return '';
    case 'traitorOfLove':
      return `top ${Math.max(...context.scores)}`;
  }
}

/** Who has captured the 7s of each suit so far this hand: what the hand's marriages will be made of. */
function sevensSummary(context: TableContext): string {
  const hand = context.hand!;
  const bySuit = new Map<number, string[]>();
  for (const seven of capturedSevens(hand.tricks)) {
    const suit = faceOf(seven.card)!.suit;
    const side = String(sideOf(context.game, seven.seat, hand.antiCupid, context.seatCount));
    bySuit.set(suit, [...(bySuit.get(suit) ?? []), side]);
  }
  return [...bySuit.entries()]
    .sort(([a], [b]) => a - b)
    .map(([suit, sides]) => `${suit}:${sides.sort().join('')}`)
    .join(' ');
}

function abstractKey(snapshot: Snapshot): string {
  const { context } = snapshot;
  const value = stateValueName(snapshot.value);
  const phase = phaseOf(snapshot);
  if (snapshot.status !== 'active') {
    return `${value} ${snapshot.status} winners ${context.outcome?.winners.join(',')} after ${context.handResults.length}`;
  }
  const parts = [value, `hand ${context.handResults.length}`, `seats ${seatMask(context)}`, scoreBucket(context)];
  const hand = context.hand;
  if (hand !== null && phase !== 'dealing') {
    parts.push(dealId(hand.deal));
    if (phase === 'passing') parts.push(`passed ${hand.passChoices?.filter((c) => c !== null).length ?? '-'}`);
    if (phase === 'accusation') parts.push(`accused ${hand.accusations!.filter((a) => a !== null).length}`);
    if (phase === 'trickPlay') {
      const plays = hand.trick?.plays ?? [];
      const winning = plays.length === 0 ? '-' : resolveTrick(plays, hand.trump, context.options.specials, context.seatCount).winner;
      parts.push(`trump ${hand.trump ?? '-'} trick ${hand.tricks.length} plays ${plays.length} turn ${hand.turn} winning ${winning}`);
      parts.push(`sevens ${sevensSummary(context) || '-'}`);
    }
  }
  return parts.filter((part) => part !== '').join(' | ');
}

// ---------------------------------------------------------------------------
// Events: legal commands and a few illegal ones per state

function player(seat: number) {
  return { name: `Player ${seat}`, bot: seat % 2 === 1 };
}

function isFirstStateOfPhase(snapshot: Snapshot): boolean {
  const { context } = snapshot;
  const hand = context.hand;
  if (context.handResults.length > 0) return false;
  switch (phaseOf(snapshot)) {
    case 'dealing':
      return true;
    case 'passing':
      return hand!.passChoices!.every((choice) => choice === null);
    case 'trickPlay':
      return hand!.tricks.length === 0 && hand!.trick!.plays.length === 0;
    case 'accusation':
      return hand!.accusations!.every((accused) => accused === null);
    default:
      return false;
  }
}

/** The cards in play this hand but not in `seat`'s hand. */
function cardsElsewhere(context: TableContext, seat: number): Card[] {
  return context.hand!.holdings.flatMap((cards, other) => (other === seat ? [] : cards));
}

function seatingEvents(context: TableContext): { legal: TableEvent[]; illegal: TableEvent[] } {
  const empty = context.occupants.flatMap((o, seat) => (o === null ? [seat] : []));
  const taken = context.occupants.flatMap((o, seat) => (o === null ? [] : [seat]));
  const legalEvents: TableEvent[] = [
    ...empty.map((seat) => legal({ type: 'seat.joined', seat, player: player(seat) })),
    ...taken.map((seat) => legal({ type: 'seat.left', seat })),
  ];
  const illegalEvents: TableEvent[] = [];
  if (taken.length > 0) illegalEvents.push(illegal({ type: 'seat.joined', seat: taken[0], player: player(9) }, 'seat taken'));
  if (empty.length > 0) {
    illegalEvents.push(illegal({ type: 'seat.left', seat: empty[0] }, 'seat empty'));
    illegalEvents.push(illegal({ type: 'seat.joined', seat: empty[0], player: { name: '', bot: false } }, 'no name'));
  }
  illegalEvents.push(illegal({ type: 'seat.joined', seat: context.seatCount, player: player(context.seatCount) }, 'no such seat'));
  illegalEvents.push(illegal({ type: 'card.played', seat: 0, card: ONE_CARD }, 'play before the game starts'));
  return { legal: legalEvents, illegal: illegalEvents };
}

/** A seat left mid-game: the only move offered is to take it again (the game itself does not stop). */
function vacatedEvents(context: TableContext): { legal: TableEvent[]; illegal: TableEvent[] } {
  const empty = context.occupants.indexOf(null);
  const taken = context.occupants.findIndex((o) => o !== null);
  return {
    legal: [legal({ type: 'seat.joined', seat: empty, player: player(empty) })],
    illegal: [
      illegal({ type: 'seat.left', seat: empty }, 'seat empty'),
      illegal({ type: 'seat.joined', seat: taken, player: player(9) }, 'seat taken'),
    ],
  };
}

function illegalDeals(context: TableContext, sample: HandDealt): TableEvent[] {
  const dealt = new Set(sample.deal.flat());
  const absent = deckFor(context.options).find((card) => !dealt.has(card))!;
  const short = sample.deal.map((cards, seat) => (seat === 0 ? cards.slice(1) : cards));
  const withoutOne = sample.deal.map((cards) => cards.map((card) => (card === ONE_CARD ? absent : card)));
  const twice = sample.deal.map((cards, seat) => (seat === 1 ? [sample.deal[0][0], ...cards.slice(1)] : cards));
  const badRoles =
    context.game === 'traitorOfLove'
      ? sample.roles!.map((suit) => (suit === 7 ? 1 : suit))
      : [7, 1, 2, 3, 4, 5].slice(0, context.seatCount);
  return [
    illegal({ type: 'hand.dealt', deal: short, roles: sample.roles }, 'too few cards'),
    illegal({ type: 'hand.dealt', deal: withoutOne, roles: sample.roles }, 'no 1 card'),
    illegal({ type: 'hand.dealt', deal: twice, roles: sample.roles }, 'card dealt twice'),
    illegal(
      { type: 'hand.dealt', deal: sample.deal, roles: badRoles },
      context.game === 'traitorOfLove' ? 'no Traitor' : 'roles in a game without roles',
    ),
    illegal({ type: 'cards.passed', seat: 0, passes: [] }, 'pass before the deal'),
  ];
}

function standardPass(context: TableContext, seat: number) {
  const recipients = passRecipients(context, seat);
  const cards = context.hand!.holdings[seat];
  return recipients.map((to, i) => ({ to, card: cards[i] }));
}

function legalPasses(context: TableContext): TableEvent[] {
  const choices = context.hand!.passChoices!;
  const waiting = choices.flatMap((choice, seat) => (choice === null ? [seat] : []));
  return waiting.map((seat) => legal({ type: 'cards.passed', seat, passes: standardPass(context, seat) }));
}

function illegalPasses(context: TableContext): TableEvent[] {
  const hand = context.hand!;
  const choices = hand.passChoices!;
  const waiting = choices.flatMap((choice, seat) => (choice === null ? [seat] : []));
  const done = choices.flatMap((choice, seat) => (choice === null ? [] : [seat]));
  const events: TableEvent[] = [];
  const seat = waiting[0];
  const passes = standardPass(context, seat);
  if (done.length > 0) {
    events.push(illegal({ type: 'cards.passed', seat: done[0], passes: standardPass(context, done[0]) }, 'already passed'));
  }
  const elsewhere = cardsElsewhere(context, seat)[0];
  events.push(illegal({ type: 'cards.passed', seat, passes: [{ ...passes[0], card: elsewhere }, ...passes.slice(1)] }, 'card not in hand'));
  const wrongTo = context.game === 'traitorOfLove' ? teammatesOf(seat, context.seatCount)[0] : seat;
  events.push(illegal({ type: 'cards.passed', seat, passes: [{ ...passes[0], to: wrongTo }, ...passes.slice(1)] }, 'wrong recipient'));
  events.push(illegal({ type: 'cards.passed', seat, passes: passes.slice(1) }, 'too few passes'));
  events.push(illegal({ type: 'card.played', seat, card: hand.holdings[seat][0] }, 'play during passing'));
  events.push(illegal({ type: 'hand.dealt', deal: hand.deal, roles: hand.roles }, 'deal during passing'));
  return events;
}

function legalPlays(context: TableContext): TableEvent[] {
  const seat = context.hand!.turn!;
  return legalPlaysFor(context, seat).map((card) => legal({ type: 'card.played', seat, card }));
}

function illegalPlays(context: TableContext): TableEvent[] {
  const hand = context.hand!;
  const seat = hand.turn!;
  const holding = hand.holdings[seat];
  const plays = hand.trick!.plays;
  const events: TableEvent[] = [];
  const next = (seat + 1) % context.seatCount;
  if (hand.holdings[next].length > 0) events.push(illegal({ type: 'card.played', seat: next, card: hand.holdings[next][0] }, 'wrong seat'));
  const elsewhere = cardsElsewhere(context, seat);
  if (elsewhere.length > 0) events.push(illegal({ type: 'card.played', seat, card: elsewhere[0] }, 'card not in hand'));
  const led = ledSuitOf(plays);
  const canFollow = led !== null && holding.some((card) => suitOf(card) === led);
  const offSuit = holding.find((card) => !isSpecial(card) && suitOf(card) !== led);
  if (canFollow && offSuit !== undefined) events.push(illegal({ type: 'card.played', seat, card: offSuit }, 'not following suit'));
  const special = holding.find(isSpecial);
  if (plays.length === 0 && special !== undefined && holding.some((card) => !isSpecial(card))) {
    events.push(illegal({ type: 'card.played', seat, card: special }, 'special led while holding a suit card'));
  }
  events.push(illegal({ type: 'card.played', seat, card: '8-8' }, 'not a card'));
  events.push(illegal({ type: 'cards.passed', seat, passes: [] }, 'pass during trick play'));
  events.push(illegal({ type: 'traitor.accused', seat, accused: (seat + 2) % context.seatCount }, 'accusation during trick play'));
  return events;
}

function legalAccusations(context: TableContext): TableEvent[] {
  const accusations = context.hand!.accusations!;
  const waiting = accusations.flatMap((a, seat) => (a === null ? [seat] : []));
  return waiting.flatMap((seat) =>
    teammatesOf(seat, context.seatCount).map((accused) => legal({ type: 'traitor.accused', seat, accused })),
  );
}

function illegalAccusations(context: TableContext): TableEvent[] {
  const accusations = context.hand!.accusations!;
  const waiting = accusations.flatMap((a, seat) => (a === null ? [seat] : []));
  const done = accusations.flatMap((a, seat) => (a === null ? [] : [seat]));
  const seat = waiting[0];
  const events: TableEvent[] = [];
  events.push(illegal({ type: 'traitor.accused', seat, accused: seat }, 'names itself'));
  events.push(illegal({ type: 'traitor.accused', seat, accused: opponentsOf(seat, context.seatCount)[0] }, 'names an opponent'));
  if (done.length > 0)
    events.push(illegal({ type: 'traitor.accused', seat: done[0], accused: teammatesOf(done[0], context.seatCount)[0] }, 'already named'));
  events.push(illegal({ type: 'card.played', seat, card: ONE_CARD }, 'play during accusation'));
  return events;
}

/**
 * The illegal commands tried in a state, each expected to be refused with
 * the state unchanged. `sampleDeal` is a valid deal to corrupt when a deal is due.
 */
export function illegalEventsFor(snapshot: Snapshot, sampleDeal: () => HandDealt): TableEvent[] {
  if (snapshot.status !== 'active') return [];
  const { context } = snapshot;
  const phase = phaseOf(snapshot);
  if (phase === 'seating') return seatingEvents(context).illegal;
  if (context.occupants.some((o) => o === null)) return vacatedEvents(context).illegal;
  switch (phase) {
    case 'dealing':
      return illegalDeals(context, sampleDeal());
    case 'passing':
      return illegalPasses(context);
    case 'trickPlay':
      return illegalPlays(context);
    case 'accusation':
      return illegalAccusations(context);
    default:
      return [];
  }
}

/** The legal commands (and host deals) a traversal explores from a state. */
function legalEventsFor(snapshot: Snapshot, config: ModelConfig): TableEvent[] {
  if (snapshot.status !== 'active') return [];
  const { context } = snapshot;
  const phase = phaseOf(snapshot);
  if (phase === 'seating') return seatingEvents(context).legal;
  if (context.occupants.some((o) => o === null)) return vacatedEvents(context).legal;
  const events: TableEvent[] = [];
  if (phase === 'dealing') events.push(...config.deals(context).map((deal) => legal(deal)));
  if (phase === 'passing') events.push(...legalPasses(context));
  if (phase === 'trickPlay') events.push(...legalPlays(context));
  if (phase === 'accusation') events.push(...legalAccusations(context));
  if (config.seatChanges && isFirstStateOfPhase(snapshot)) events.push(legal({ type: 'seat.left', seat: 1 }, 'seat change'));
  return events;
}

function eventsFor(snapshot: Snapshot, config: ModelConfig): TableEvent[] {
  return [...legalEventsFor(snapshot, config), ...illegalEventsFor(snapshot, () => config.deals(snapshot.context)[0])];
}

function stopWhen(snapshot: Snapshot, config: ModelConfig): boolean {
  return snapshot.status !== 'active' || (phaseOf(snapshot) === 'dealing' && snapshot.context.handResults.length >= config.maxHands);
}

// ---------------------------------------------------------------------------
// Paths

export interface ModelPath {
  /** Unique within a suite; the vitest test name. */
  readonly name: string;
  readonly input: TableInput;
  /** Events after the initial state, in order. */
  readonly events: readonly TableEvent[];
  /** The model's state value after each event (index 0: the initial state). */
  readonly values: readonly unknown[];
  /** The model's transitions, for the runner's expectations and refusal probes. */
  readonly model: ModelGraph;
  /** Checks on the driver's snapshots after the run (targeted paths assert outcomes here). */
  readonly expect?: (snapshots: readonly import('./driver.js').DriverSnapshot[]) => void;
}

/** @xstate/graph's adjacency map: every abstract state the traversal expanded, with the outcome of each event tried there. */
export type Adjacency = Record<string, { state: Snapshot; transitions: Record<string, { event: TableEvent; state: Snapshot }> }>;

interface ModelGraph {
  readonly serializeState: (snapshot: Snapshot) => string;
  readonly adjacency: Adjacency;
}

export function serializeEvent(event: TableEvent): string {
  return JSON.stringify(event);
}

function toModelPath(path: StatePath<Snapshot, TableEvent>, name: string, input: TableInput, graph: ModelGraph): ModelPath {
  // After @xstate/graph's alterPath, step 0 is the initial state under 'xstate.init'.
  const steps = path.steps;
  return {
    name,
    input,
    events: steps.slice(1).map((step) => step.event),
    values: steps.map((step) => step.state.value),
    model: graph,
  };
}

export interface GeneratedModel {
  readonly config: ModelConfig;
  readonly paths: ModelPath[];
  readonly keys: number;
  readonly transitions: number;
}

/** Shortest paths to every abstract state of a configuration, through createTestModel. */
export function generateShortestPaths(machine: AnyStateMachine, config: ModelConfig): GeneratedModel {
  const serializeState = (snapshot: Snapshot) => abstractKey(snapshot);
  const options = {
    input: config.input,
    events: (snapshot: Snapshot) => eventsFor(snapshot, config),
    stopWhen: (snapshot: Snapshot) => stopWhen(snapshot, config),
    limit: config.limit,
    serializeState,
    serializeEvent,
  };
  const testModel = createTestModel(machine, { serializeState: serializeState as never, serializeEvent: serializeEvent as never });
  const paths = testModel.getShortestPaths(options as never) as unknown as StatePath<Snapshot, TableEvent>[];
  const adjacency = getAdjacencyMap(machine as never, options as never) as unknown as Adjacency;
  const graph: ModelGraph = { serializeState, adjacency };
  const keys = Object.keys(adjacency).length;
  const transitions = Object.values(adjacency).reduce((sum, node) => sum + Object.keys(node.transitions).length, 0);
  const named = paths.map((path, i) =>
    toModelPath(path, `${config.name} #${i + 1} → ${serializeState(path.state)} (${path.steps.length - 1} events)`, config.input, graph),
  );
  return { config, paths: named, keys, transitions };
}

/** A serialization that keeps every snapshot distinct, for small sub-graphs explored exactly. */
export function exactKey(snapshot: Snapshot): string {
  return JSON.stringify({ value: snapshot.value, status: snapshot.status, context: snapshot.context });
}

/**
 * Every order in which the seats can pass, as simple paths (getSimplePaths)
 * over an exact serialization: the table is seated and dealt one fixed way,
 * then every seat still to pass may pass next. All orders must end in the
 * same trick-play state, since no card moves until every seat has chosen.
 */
export function passingOrderPaths(
  machine: AnyStateMachine,
  name: string,
  input: TableInput,
  deal: (context: TableContext) => HandDealt,
): ModelPath[] {
  const events = (snapshot: Snapshot): TableEvent[] => {
    if (snapshot.status !== 'active') return [];
    const { context } = snapshot;
    const phase = phaseOf(snapshot);
    const sample = () => deal(context);
    if (phase === 'seating') {
      const seat = context.occupants.indexOf(null);
      return [legal({ type: 'seat.joined', seat, player: player(seat) }), ...illegalEventsFor(snapshot, sample)];
    }
    if (phase === 'dealing') return [legal(deal(context)), ...illegalEventsFor(snapshot, sample)];
    if (phase === 'passing') return [...legalPasses(context), ...illegalEventsFor(snapshot, sample)];
    return [];
  };
  const inTrickPlay = (snapshot: Snapshot) => phaseOf(snapshot) === 'trickPlay';
  const options = { input, events, serializeState: exactKey, serializeEvent, stopWhen: inTrickPlay, toState: inTrickPlay, limit: 100_000 };
  const testModel = createTestModel(machine, { serializeState: exactKey as never, serializeEvent: serializeEvent as never });
  const paths = testModel.getSimplePaths(options as never) as unknown as StatePath<Snapshot, TableEvent>[];
  const adjacency = getAdjacencyMap(machine as never, options as never) as unknown as Adjacency;
  const graph: ModelGraph = { serializeState: exactKey, adjacency };
  const ends = new Set(paths.map((path) => exactKey(path.state)));
  if (ends.size !== 1) throw new Error(`passing orders end in ${ends.size} different states`);
  const [end] = paths.map((path) => JSON.stringify(path.state.context));
  return paths.map((path, i) => {
    const order = path.steps.flatMap((step) => (step.event.type === 'cards.passed' ? [step.event.seat] : []));
    return {
      ...toModelPath(path, `${name} #${i + 1}: seats pass in order ${order.join(', ')}`, input, graph),
      expect: (snapshots) => {
        const last = snapshots[snapshots.length - 1];
        if (JSON.stringify(last.context) !== end)
          throw new Error(`passing in order ${order.join(', ')} ends elsewhere than the other orders`);
      },
    };
  });
}
