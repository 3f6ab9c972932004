/**
 * Targeted paths: whole games scripted from crafted deals, for the outcomes a
 * bounded traversal of small deals cannot reach (long games, tie-breaks).
 *
 * `planHand` crafts a hand whose marriages are exactly a target: it chooses
 * the cards (the 1 card, both 7s of some suits, low fillers), shares them out
 * as the hands *after* passing, works back the deal and passes that produce
 * them, and searches the plays (depth-first, with the production trick rules)
 * for a legal sequence in which each side captures exactly its target 7s.
 * The script is then turned into a model path with @xstate/graph's
 * getPathsFromEvents, and the machine itself decides every outcome.
 */
import { createActor, type AnyStateMachine } from 'xstate';
import { createTestModel, getAdjacencyMap, type StatePath } from '@xstate/graph';
import { HEARTS, ONE_CARD, SUITS, faceOf, isSeven, sevensOf, type Card, type Suit } from '../../machines/cards/card.js';
import { createRng, shuffle } from '../../machines/cards/shuffle.js';
import { passRecipients } from '../../machines/fragments/passing.js';
import { teammatesOf } from '../../machines/rules/sides.js';
import { sideOf } from '../../machines/games/rules/index.js';
import { legalPlays, resolveTrick, type Play } from '../../machines/rules/trick.js';
import type { Side, TableContext, TableInput } from '../../machines/table/context.js';
import type { CardPlayed, CardsPassed, HandDealt, TableEvent, TraitorAccused } from '../../machines/table/events.js';
import { deckFor } from '../../machines/table/options.js';
import type { DriverSnapshot } from './driver.js';
import { exactKey, illegalEventsFor, serializeEvent, type Adjacency, type ModelPath, type Snapshot } from './model.js';

export interface HandSpec {
  /** Suits whose two 7s are married, and by which side ('A'/'B', or an Anti-Cupid seat number). */
  readonly marry: Partial<Record<Suit, Side>>;
  /** Suits whose two 7s are dealt but must not marry (captured by different sides). */
  readonly split?: readonly Suit[];
  /** A Traitor of Love: the Traitor's seat, and what each seat names (default: its first teammate). */
  readonly traitor?: number;
  readonly accusations?: readonly number[];
}

interface PlannedHand {
  readonly deal: HandDealt;
  readonly passes: CardsPassed[];
  readonly plays: CardPlayed[];
  readonly accusations: TraitorAccused[];
}

interface SearchState {
  holdings: Card[][];
  tricks: number;
  trump: Suit | null;
  captured: Map<Suit, (Side | 'aside')[]>;
  plays: Play[];
  leader: number;
  out: CardPlayed[];
}

/** Crafts one hand for a table about to deal (`context` in dealing). Throws if no plan is found. */
function planHand(context: TableContext, spec: HandSpec, seed: string): PlannedHand {
  const seats = context.seatCount;
  const needed = seats * context.cardsPerSeat;
  const married = Object.keys(spec.marry).map(Number) as Suit[];
  const dealtSuits = [...married, ...(spec.split ?? [])];
  const sevens = dealtSuits.flatMap((suit) => sevensOf(suit));
  const rng = createRng(seed);
  // Low cards cannot beat a 7 of their own suit, which keeps the search small.
  const fillers = shuffle(
    deckFor(context.options).filter((card) => {
      const face = faceOf(card);
      return face !== undefined && card !== ONE_CARD && !isSeven(card) && face.rank < 7;
    }),
    rng,
  );
  const cards = [ONE_CARD, ...sevens, ...fillers.slice(0, needed - 1 - sevens.length)];
  if (cards.length !== needed) throw new Error(`cannot craft ${needed} cards from ${cards.length}`);
  for (let attempt = 0; attempt < 3000; attempt++) {
    const order = shuffle(cards, rng);
    const after = Array.from({ length: seats }, (_, seat) => order.slice(seat * context.cardsPerSeat, (seat + 1) * context.cardsPerSeat));
    const { deal, passes } = dealBehind(context, after);
    // As the machine decides it: the first hand's Anti-Cupid holds the 1 card when dealt; then the role rotates.
    let antiCupid: number | null = null;
    if (context.game === 'antiCupid') {
      antiCupid =
        context.handResults.length === 0 || context.firstAntiCupid === null
          ? deal.findIndex((cards) => cards.includes(ONE_CARD))
          : (context.firstAntiCupid + context.handResults.length) % seats;
    }
    const side = (seat: number) => sideOf(context.game, seat, antiCupid, seats);
    const plays = searchPlays(context, after, spec, side);
    if (plays === null) continue;
    const roles = context.game === 'traitorOfLove' ? rolesWithTraitor(spec.traitor ?? 0, seats) : null;
    const accusations: TraitorAccused[] =
      context.game === 'traitorOfLove'
        ? Array.from({ length: seats }, (_, seat) => ({
            type: 'traitor.accused' as const,
            seat,
            accused: spec.accusations?.[seat] ?? teammatesOf(seat, seats)[0],
          }))
        : [];
    return { deal: { type: 'hand.dealt', deal, roles }, passes, plays, accusations };
  }
  throw new Error(`no crafted hand found for ${JSON.stringify(spec)}`);
}

function rolesWithTraitor(traitor: number, seats: number): Suit[] {
  const others = SUITS.filter((suit) => suit !== HEARTS);
  return Array.from({ length: seats }, (_, seat) => (seat === traitor ? HEARTS : others[seat < traitor ? seat : seat - 1]));
}

/**
 * The deal and passes that leave each seat holding `after`: every seat keeps
 * some of its own cards and receives one card from each seat that passes to it.
 */
function dealBehind(context: TableContext, after: Card[][]): { deal: Card[][]; passes: CardsPassed[] } {
  const seats = context.seatCount;
  // Written here, not asked of the rules: the model tests check the machines against their own reading of the rules.
  const passesTable =
    context.game === 'firstLesson'
      ? false
      : context.game !== 'antiCupid' || (context.options as { passing?: string }).passing === 'oneEach';
  if (!passesTable) return { deal: after.map((cards) => cards.slice()), passes: [] };
  const recipients = Array.from({ length: seats }, (_, seat) => passRecipients(context, seat));
  const deal: Card[][] = Array.from({ length: seats }, () => []);
  const sent: Map<number, Map<number, Card>> = new Map();
  for (let seat = 0; seat < seats; seat++) {
    const senders = recipients.flatMap((to, from) => (to.includes(seat) ? [from] : []));
    const kept = after[seat].length - senders.length;
    deal[seat].push(...after[seat].slice(0, kept));
    senders.forEach((from, i) => {
      const card = after[seat][kept + i];
      deal[from].push(card);
      if (!sent.has(from)) sent.set(from, new Map());
      sent.get(from)!.set(seat, card);
    });
  }
  const passes = recipients.map((to, seat) => ({
    type: 'cards.passed' as const,
    seat,
    passes: to.map((recipient) => ({ to: recipient, card: sent.get(seat)!.get(recipient)! })),
  }));
  return { deal, passes };
}

/** Depth-first search for plays whose captured 7s give exactly the target marriages. */
function searchPlays(context: TableContext, after: Card[][], spec: HandSpec, side: (seat: number) => Side): CardPlayed[] | null {
  const seats = context.seatCount;
  const leader = after.findIndex((cards) => cards.includes(ONE_CARD));
  const state: SearchState = {
    holdings: after.map((cards) => cards.slice()),
    tricks: 0,
    trump: null,
    captured: new Map(),
    plays: [],
    leader,
    out: [],
  };
  let budget = 20000;
  const consistent = (captured: Map<Suit, (Side | 'aside')[]>): boolean => {
    for (const [suit, sides] of captured) {
      const target = spec.marry[suit];
      if (target !== undefined) {
        if (sides.some((s) => s !== target)) return false;
      } else if (sides.length === 2 && sides[0] === sides[1]) {
        return false;
      }
    }
    return true;
  };
  const search = (): boolean => {
    if (--budget < 0) return false;
    if (state.holdings.every((cards) => cards.length === 0)) {
      return Object.keys(spec.marry).every((suit) => state.captured.get(Number(suit) as Suit)?.length === 2);
    }
    const seat = (state.leader + state.plays.length) % seats;
    const holding = state.holdings[seat];
    for (const card of legalPlays(holding, state.plays)) {
      const saved = { ...state, holdings: state.holdings, captured: state.captured, plays: state.plays, out: state.out };
      state.holdings = state.holdings.map((cards, s) => (s === seat ? cards.filter((c) => c !== card) : cards));
      state.plays = [...state.plays, { seat, card }];
      state.out = [...state.out, { type: 'card.played', seat, card }];
      if (state.trump === null && state.tricks === 0) state.trump = faceOf(card)?.suit ?? null;
      let ok = true;
      if (state.plays.length === seats) {
        const { winner, capturedBy } = resolveTrick(state.plays, state.trump, context.options.specials, seats);
        const captured = new Map(state.captured);
        for (const play of state.plays) {
          if (!isSeven(play.card)) continue;
          const suit = faceOf(play.card)!.suit;
          // A 7 set aside by a Chaperone can marry nothing: treat it as captured by nobody.
          captured.set(suit, [...(captured.get(suit) ?? []), capturedBy === null ? 'aside' : side(capturedBy)]);
        }
        ok = consistent(captured);
        state.captured = captured;
        state.tricks++;
        state.leader = winner;
        state.plays = [];
      }
      if (ok && search()) return true;
      Object.assign(state, saved);
    }
    return false;
  };
  return search() ? state.out : null;
}

// ---------------------------------------------------------------------------
// Scripted games as model paths

export interface ScriptedGame {
  readonly name: string;
  readonly input: TableInput;
  readonly events: readonly TableEvent[];
  readonly expect?: (snapshots: readonly DriverSnapshot[]) => void;
}

/**
 * Scripts a game: seats every player, then for each hand spec deals, passes,
 * plays and accuses as planned. The machine is asked for the context at each
 * deal, so later hands are planned against the real state of the game.
 */
export function scriptGame(
  machine: AnyStateMachine,
  name: string,
  input: TableInput,
  hands: readonly HandSpec[],
  expect?: ScriptedGame['expect'],
): ScriptedGame {
  const actor = createActor(machine, { input }).start();
  const events: TableEvent[] = [];
  const send = (event: TableEvent) => {
    const before = actor.getSnapshot();
    actor.send(event);
    if (actor.getSnapshot() === before) throw new Error(`${name}: the machine refused scripted ${JSON.stringify(event)}`);
    events.push(event);
  };
  const seats = (actor.getSnapshot().context as TableContext).seatCount;
  for (let seat = 0; seat < seats; seat++) send({ type: 'seat.joined', seat, player: { name: `Player ${seat}`, bot: false } });
  hands.forEach((spec, index) => {
    const plan = planHand(actor.getSnapshot().context as TableContext, spec, `${name}-${index}`);
    send(plan.deal);
    plan.passes.forEach(send);
    plan.plays.forEach(send);
    plan.accusations.forEach(send);
  });
  actor.stop();
  return { name, input, events, expect };
}

/**
 * The model path of a scripted game, through createTestModel and
 * getPathsFromEvents. At every state of the script the model also tries
 * the illegal commands of that state, so the runner probes refusals there too.
 */
export function scriptedPath(machine: AnyStateMachine, game: ScriptedGame): ModelPath {
  const steps = new Map<string, number>();
  const actor = createActor(machine, { input: game.input }).start();
  // getPathsFromEvents computes its default start state without the input, so the start is given explicitly.
  const fromState = actor.getSnapshot() as Snapshot;
  game.events.forEach((event, i) => {
    steps.set(exactKey(actor.getSnapshot() as Snapshot), i);
    actor.send(event);
  });
  actor.stop();
  const events = (snapshot: Snapshot): TableEvent[] => {
    const i = steps.get(exactKey(snapshot));
    if (i === undefined) return [];
    const next = game.events[i];
    const sample = () => (next.type === 'hand.dealt' ? next : (game.events.find((e) => e.type === 'hand.dealt') as HandDealt));
    return [next, ...illegalEventsFor(snapshot, sample)];
  };
  const options = { input: game.input, fromState, events, serializeState: exactKey, serializeEvent, limit: 100_000 };
  const testModel = createTestModel(machine, { serializeState: exactKey as never, serializeEvent: serializeEvent as never });
  const [path] = testModel.getPathsFromEvents(game.events as never, options as never) as unknown as StatePath<Snapshot, TableEvent>[];
  const adjacency = getAdjacencyMap(machine as never, options as never) as unknown as Adjacency;
  return {
    name: `${game.name} (${path.steps.length - 1} events)`,
    input: game.input,
    events: path.steps.slice(1).map((step) => step.event),
    values: path.steps.map((step) => step.state.value),
    model: { serializeState: exactKey, adjacency },
    expect: game.expect,
  };
}
