/**
 * What a viewer may be sent, checked against the table itself: a view is
 * exactly viewFor's and hides every other seat's cards, roles, passes and
 * unrevealed seeds; a refusal names no card the viewer may not know. The
 * gateway's tests, the leak and security tests and the bot games use them.
 */
import { expect } from 'vitest';
import { nextDealOf, revealedDealsOf, type TableInput } from '../machines/table/context.js';
import { offer, startTable, type TableSnapshot } from '../machines/table/snapshot.js';
import { viewFor, type Viewer } from '../machines/view.js';
import type { Message } from '../drivers/httpClient.js';
import type { StoredEvent } from '../services/eventstore/eventStore.js';
import { isMachineEvent, toTableEvent } from '../services/host/tableLog.js';

/** The table's state right after each event of its log (index = seq), folded through the machine. */
export function statesOfLog(events: readonly StoredEvent[]): TableSnapshot[] {
  const created = events[0].data as TableInput;
  const table = startTable(created);
  const states: TableSnapshot[] = [];
  states[1] = table.getSnapshot();
  for (const event of events.slice(1)) {
    if (isMachineEvent(event) && !offer(table, toTableEvent(event))) throw new Error(`event ${event.seq} is refused on replay`);
    states[event.seq] = table.getSnapshot();
  }
  table.stop();
  return states;
}

/** A card as it appears in JSON (quoted). */
const CARD_PATTERN = /"(\d-(?:\d+|7a|7b)|cupid|chaperone|rival|go-between)"/g;
/** A card as it appears in a sentence ("the 9 of Clubs (4-9)"), not inside a longer word or number. */
const CARD_IN_TEXT = /(?<![\w-])(\d-(?:7a|7b|\d+)|cupid|chaperone|rival|go-between)(?![\w-])/g;

/** The cards a refusal's message, or any other text, names. */
export function cardsNamedIn(text: string): string[] {
  return [...text.matchAll(CARD_IN_TEXT)].map((match) => match[1]);
}

/**
 * The hand scored last is public in full, and its cards are dealt again in
 * the next hand, so a card named there says nothing of anyone's new hand:
 * the text scan leaves it out.
 */
function withoutLastHand(key: string, value: unknown): unknown {
  if (key === 'lastHand') return undefined;
  // A socket's `changes` message sets the last hand as `[["view", "lastHand", ...], value]`.
  if (isChangeTo('lastHand', value)) return undefined;
  return value;
}

function isChangeTo(key: string, value: unknown): boolean {
  return Array.isArray(value) && value.length === 2 && Array.isArray(value[0]) && value[0][0] === 'view' && value[0][1] === key;
}

/**
 * Checks one view a viewer received (a socket's view message, or an HTTP
 * view or replay as `{ version, view }`) against the table at that version,
 * derived from the log: it is exactly viewFor's view, and nothing hidden is
 * in it (expectNothingHidden).
 */
export function expectNoLeak(message: Message, viewer: Viewer, states: readonly TableSnapshot[]): void {
  const snapshot = states[message.version];
  if (snapshot === undefined) expect.fail(`version ${message.version} is not in the log`);
  const expected = JSON.stringify(viewFor(snapshot, viewer));
  // Compared as text (the message is that text parsed): a deep comparison of hundreds of views is slow.
  if (JSON.stringify(message.view) !== expected) expect(message.view).toEqual(JSON.parse(expected));
  expectNothingHidden(message, viewer, snapshot);
}

/**
 * The scan of a message holding a view, against the table it shows: no card
 * of another seat's hand anywhere in the message (but those the viewer passed
 * them), no role before the reveal, no other seat's passes, no accusation
 * before all are in. It does not trust viewFor: it reads the table itself.
 * (Plain checks, not expect(), in the loops: a game has hundreds of messages.)
 */
export function expectNothingHidden(message: Message, viewer: Viewer, snapshot: TableSnapshot): void {
  const leak = (what: string) => expect.fail(`${what} reached ${viewer} at version ${message.version}`);
  const text = JSON.stringify(message, withoutLastHand);
  for (const internal of ['"holdings"', '"deal"', '"passChoices"', '"roles"']) if (text.includes(internal)) leak(internal);
  const { context } = snapshot;
  expectNoSecretSeed(JSON.stringify(message), context, leak);
  const hand = context.hand;
  if (hand === null) return;
  const own = viewer === 'spectator' ? null : viewer;
  const seen = new Set(text.match(CARD_PATTERN) ?? []);
  const passedAway = new Set((own === null ? [] : (hand.passChoices?.[own] ?? [])).map((pass) => pass.card));
  const revealed = hand.accusations?.every((accused) => accused !== null) ?? false;
  for (let other = 0; other < context.seatCount; other++) {
    if (other === own) continue;
    for (const card of hand.holdings[other]) {
      if (!passedAway.has(card) && seen.has(`"${card}"`)) leak(`${card} of seat ${other}`);
    }
    if (!revealed && message.view.seats[other].role !== null) leak(`the role of seat ${other}`);
  }
  // The scan leaves the last hand out, so it must be a hand already scored, never the one in play.
  const justScored = message.view.phase === 'dealing' || message.view.phase === 'gameOver';
  const lastHand = message.view.lastHand;
  if (lastHand != null && lastHand.index !== (justScored ? hand.index : hand.index - 1)) leak(`hand ${lastHand.index} as the last hand`);
  const view = message.view.hand;
  for (const pass of [...view.passesSent, ...view.passesReceived]) {
    if (pass.from !== own && pass.to !== own) leak(`a pass from ${pass.from} to ${pass.to}`);
  }
  if (view.roleCard !== (own === null || hand.roles === null ? null : hand.roles[own])) leak('a role card not its own');
  if (!revealed && (view.traitor !== null || view.accusations !== null)) leak('the Traitor or the accusations before the reveal');
  if (view.accusation !== (own === null ? null : (hand.accusations?.[own] ?? null))) leak('an accusation not its own');
  if (own === null && view.cards !== null) leak('a hand');
}

const HEX_256 = /[0-9a-f]{64}/g;

/**
 * The only 256-bit hex strings a message may hold are public ones: the
 * commitments, seeds and contributions of hands already scored, the
 * commitment of the hand in play and the one to the next hand. Anything
 * else (the seed or a contribution of the hand in play above all) would
 * tell the deal before its reveal (docs/fairness.md).
 */
function expectNoSecretSeed(text: string, context: TableSnapshot['context'], leak: (what: string) => void): void {
  const revealed = revealedDealsOf(context);
  const current = context.hand?.fairness;
  const next = nextDealOf(context);
  const allowed = new Set([
    ...revealed.flatMap((deal) => [deal.seed, deal.commitment, ...(deal.contributions ?? []).filter((each) => each !== null)]),
    ...(current == null ? [] : [current.commitment]),
    ...(next === null ? [] : [next.commitment]),
  ]);
  const inPlay = current != null && !revealed.some((deal) => deal.seed === current.seed);
  if (inPlay && text.includes(current.seed)) leak(`the seed of hand ${context.hand!.index} before its reveal`);
  for (const [seat, contribution] of (inPlay ? (current.contributions ?? []) : []).entries()) {
    if (contribution !== null && text.includes(contribution))
      leak(`seat ${seat}'s contribution to hand ${context.hand!.index} before its reveal`);
  }
  for (const hex of text.match(HEX_256) ?? []) if (!allowed.has(hex)) leak(`an unrevealed 256-bit value ${hex.slice(0, 8)}…`);
}

/** A refusal a viewer was sent, with what it takes to judge it. */
export interface SentRefusal {
  readonly refusal: { readonly error: string; readonly message: string };
  readonly viewer: Viewer;
  /** The versions the table may have been at when it refused: the one the viewer last saw when sending, to the next it caused. */
  readonly from: number;
  readonly to: number;
  /** The cards the refused command itself named: echoing those tells the sender nothing. */
  readonly named: readonly string[];
}

/**
 * A refusal may name the cards its command named and the viewer's own cards
 * ("seat 0 must follow Clubs, the suit led (4): the 9 of Clubs (4-9) is in its hand"), nothing else: never a card
 * of another seat's hand, so a seat that tries a card it does not hold does
 * not learn who holds it.
 */
export function expectRefusalLeaksNothing({ refusal, viewer, from, to, named }: SentRefusal, states: readonly TableSnapshot[]): void {
  const allowed = new Set(named);
  if (viewer !== 'spectator') {
    for (let version = from; version <= to && version < states.length; version++) {
      for (const card of states[version]?.context.hand?.holdings[viewer] ?? []) allowed.add(card);
    }
  }
  for (const card of cardsNamedIn(refusal.message)) {
    if (!allowed.has(card))
      expect.fail(
        `a refusal to ${viewer} (versions ${from} to ${to}) names ${card}, neither its own nor in its command: ${refusal.message}`,
      );
  }
}
