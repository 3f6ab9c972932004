/**
 * What every table's state and log must be, whatever drove it there: checks
 * the model-based tests (test/model/), the command fuzzer and the chaos
 * audit (hardening/) all run. Each returns a list of problems (empty when
 * the state is sound), so its caller can report them with the step that
 * produced them. They read the core's types and functions only, never the
 * host's, so a check does not share the code it checks.
 */
import { HEARTS, inCanonicalOrder, isCard, type Card } from '../machines/cards/card.js';
import type { TableContext } from '../machines/table/context.js';
import type { TableEvent } from '../machines/table/events.js';
import { deckFor } from '../machines/table/options.js';
import { awaitedActions } from '../machines/table/refusal.js';
import { phaseOf, type TableSnapshot } from '../machines/table/snapshot.js';
import { viewFor, type Viewer } from '../machines/view.js';
import { legalPlaysFor } from '../machines/fragments/trickPlay.js';

function sorted(cards: readonly Card[]): string {
  return [...cards].sort().join(',');
}

/** Every card dealt is somewhere exactly once: in a hand, in the trick in progress, or in a completed trick. */
export function cardConservation(context: TableContext): string[] {
  const hand = context.hand;
  if (hand === null) return [];
  const problems: string[] = [];
  const deck = new Set<Card>(deckFor(context.options));
  const dealt = hand.deal.flat();
  if (hand.deal.length !== context.seatCount) problems.push(`deal has ${hand.deal.length} hands for ${context.seatCount} seats`);
  hand.deal.forEach((cards, seat) => {
    if (cards.length !== context.cardsPerSeat) problems.push(`seat ${seat} was dealt ${cards.length} cards, not ${context.cardsPerSeat}`);
  });
  if (new Set(dealt).size !== dealt.length) problems.push('a card is dealt twice');
  for (const card of dealt) if (!isCard(card) || !deck.has(card)) problems.push(`${card} is not in the table's deck`);
  const played = [...hand.tricks.flatMap((trick) => trick.plays), ...(hand.trick?.plays ?? [])].map((play) => play.card);
  const located = [...hand.holdings.flat(), ...played];
  if (sorted(located) !== sorted(dealt)) {
    problems.push(`cards not conserved: dealt ${sorted(dealt)}, held or played ${sorted(located)}`);
  }
  // Chosen passes stay in the passer's hand until every seat has chosen.
  hand.passChoices?.forEach((choice, seat) => {
    for (const pass of choice ?? []) {
      if (!hand.holdings[seat].includes(pass.card) && hand.passes.length === 0) {
        problems.push(`seat ${seat} chose to pass ${pass.card}, which it no longer holds before the exchange`);
      }
    }
  });
  const sizes = hand.holdings.map((cards) => cards.length);
  if (Math.max(...sizes) - Math.min(...sizes) > 1) problems.push(`hand sizes drifted apart: ${sizes.join(', ')}`);
  return problems;
}

/** The table waits for exactly the seats the phase says; in trick play, for one seat, which can play. */
export function oneActorWhenExpected(snapshot: TableSnapshot): string[] {
  const { context } = snapshot;
  const awaited = awaitedActions(snapshot);
  const phase = phaseOf(snapshot);
  const problems: string[] = [];
  const hand = context.hand;
  switch (phase) {
    case 'trickPlay': {
      if (awaited.length !== 1) return [`trick play awaits ${awaited.length} seats`];
      const [{ seat, action }] = awaited;
      if (action !== 'play' || seat !== hand!.turn) problems.push(`trick play awaits ${action} from ${seat}, turn is ${hand!.turn}`);
      const trick = hand!.trick!;
      if ((trick.leader + trick.plays.length) % context.seatCount !== seat)
        problems.push(`seat ${seat} is not next after the trick's plays`);
      if (legalPlaysFor(context, seat).length === 0) problems.push(`seat ${seat} must play but has no legal card`);
      for (let other = 0; other < context.seatCount; other++) {
        if (other !== seat && legalPlaysFor(context, other).length > 0) problems.push(`seat ${other} could play out of turn`);
      }
      break;
    }
    case 'passing':
    case 'accusation':
      if (awaited.length === 0) problems.push(`${phase} awaits nobody`);
      if (awaited.some((a) => a.action !== (phase === 'passing' ? 'pass' : 'accuse'))) problems.push(`${phase} awaits the wrong action`);
      if (hand?.turn != null) problems.push(`${phase} has a turn`);
      break;
    default:
      if (awaited.length !== 0) problems.push(`${phase} awaits seats ${awaited.map((a) => a.seat).join(', ')}`);
  }
  return problems;
}

const CARD_PATTERN = /"(\d-(?:\d+|7a|7b)|cupid|chaperone|rival|go-between)"/g;

/**
 * Every card a view names is one its viewer may know: public cards (played to
 * tricks), its own hand, and the passes it sent or received. Roles and
 * accusations stay hidden until all seats have named a teammate.
 */
export function viewsLeakNothing(snapshot: TableSnapshot): string[] {
  const { context } = snapshot;
  const hand = context.hand;
  const problems: string[] = [];
  // Played cards are public, those of the final trick of the hand scored last included.
  const publicCards = new Set<string>(
    [...(hand?.tricks ?? []), ...(context.lastHand?.finalTrick ? [context.lastHand.finalTrick] : [])]
      .flatMap((t) => t.plays)
      .concat(hand?.trick?.plays ?? [])
      .map((p) => p.card),
  );
  const awaited = awaitedActions(snapshot);
  const awaits = (seat: number | null, action: string) => awaited.some((a) => a.seat === seat && a.action === action);
  const revealed = hand?.accusations?.every((accused) => accused !== null) ?? false;
  const viewers: Viewer[] = [...Array.from({ length: context.seatCount }, (_, seat) => seat), 'spectator'];
  for (const viewer of viewers) {
    const view = viewFor(snapshot, viewer);
    const own = viewer === 'spectator' ? null : viewer;
    const allowed = new Set(publicCards);
    if (hand !== null && own !== null) {
      for (const card of hand.holdings[own]) allowed.add(card);
      for (const pass of hand.passChoices?.[own] ?? []) allowed.add(pass.card);
      for (const pass of hand.passes) if (pass.from === own || pass.to === own) allowed.add(pass.card);
    }
    const seen = JSON.stringify(view).match(CARD_PATTERN) ?? [];
    for (const quoted of new Set(seen)) {
      const card = quoted.slice(1, -1);
      if (!allowed.has(card)) problems.push(`${viewer === 'spectator' ? 'a spectator' : `seat ${viewer}`} sees ${card}`);
    }
    if (hand === null) continue;
    if (own === null && view.hand!.cards !== null) problems.push('a spectator sees a hand');
    if (own !== null && view.hand!.cards!.join() !== inCanonicalOrder(hand.holdings[own]).join()) {
      problems.push(`seat ${own} does not see its own hand in canonical order`);
    }
    for (const pass of [...view.hand!.passesSent, ...view.hand!.passesReceived]) {
      if (pass.from !== own && pass.to !== own) problems.push(`${viewer} sees a pass between ${pass.from} and ${pass.to}`);
    }
    // A view offers a seat exactly the actions the table awaits from it.
    if (view.hand!.legalCards.length > 0 !== awaits(own, 'play'))
      problems.push(`${viewer} is offered cards to play: ${view.hand!.legalCards.length > 0}`);
    if (view.hand!.passTo.length > 0 !== awaits(own, 'pass'))
      problems.push(`${viewer} is offered seats to pass to: ${view.hand!.passTo.join(',')}`);
    if (view.hand!.mayAccuse.length > 0 !== awaits(own, 'accuse'))
      problems.push(`${viewer} is offered teammates to name: ${view.hand!.mayAccuse.join(',')}`);
    if (hand.roles !== null && !revealed) {
      if (view.hand!.traitor !== null || view.hand!.accusations !== null) problems.push(`${viewer} sees the Traitor before the reveal`);
      view.seats.forEach((seat) => {
        if (seat.seat !== own && seat.role !== null) problems.push(`${viewer} sees seat ${seat.seat}'s role`);
      });
      if (own !== null && view.hand!.roleCard !== hand.roles[own]) problems.push(`seat ${own} does not see its own role card`);
    }
    if (hand.accusations !== null && !revealed && own !== null) {
      const ownAccusation = view.hand!.accusation;
      if (ownAccusation !== hand.accusations[own]) problems.push(`seat ${own} does not see its own accusation`);
    }
    if (revealed && hand.roles !== null && view.hand!.traitor !== hand.roles.indexOf(HEARTS))
      problems.push(`${viewer} is shown the wrong Traitor`);
  }
  return problems;
}

/**
 * The fields each event type has, and nothing else: how the log must store
 * a command. Written out here rather than taken from the host, so the check
 * does not share the host's code.
 */
export function canonicalFields(event: TableEvent): Record<string, unknown> {
  switch (event.type) {
    case 'seat.joined': {
      const player = { name: event.player.name, bot: event.player.bot };
      return event.holder === undefined
        ? { type: event.type, seat: event.seat, player }
        : { type: event.type, seat: event.seat, player, holder: event.holder };
    }
    case 'seat.left':
      return { type: event.type, seat: event.seat };
    case 'hand.dealt':
      return event.fairness === undefined
        ? { type: event.type, deal: event.deal, roles: event.roles }
        : { type: event.type, deal: event.deal, roles: event.roles, fairness: event.fairness };
    case 'cards.passed':
      return { type: event.type, seat: event.seat, passes: event.passes.map(({ to, card }) => ({ to, card })) };
    case 'card.played':
      return { type: event.type, seat: event.seat, card: event.card };
    case 'traitor.accused':
      return { type: event.type, seat: event.seat, accused: event.accused };
  }
}
