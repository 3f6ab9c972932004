/**
 * Dealing: the host shuffles and deals (and, in A Traitor of Love, deals the
 * role cards); the machine checks the deal and starts the hand with it.
 */
import { ONE_CARD, isCard, type Card } from '../cards/card.js';
import { rulesOf } from '../games/rules/index.js';
import type { Rng } from '../cards/shuffle.js';
import {
  CONTRIBUTED_DEAL_SCHEME,
  contributedFairnessOf,
  dealFromSeed,
  dealOfFairness,
  fairnessOf,
  fairnessRefusal,
  isHex256,
  layOutDeal,
} from '../fairness/fairDeal.js';
import type { HandDealt } from '../table/events.js';
import { nextDealOf, type HandState, type TableContext } from '../table/context.js';
import { deckFor } from '../table/options.js';
import type { Seat } from '../rules/trick.js';
import { tablePasses } from './passing.js';

export function dealRefusal(context: TableContext, event: HandDealt): string | null {
  const { deal, roles } = event;
  if (!Array.isArray(deal) || deal.length !== context.seatCount) {
    return `a deal has one hand for each of the ${context.seatCount} seats`;
  }
  const deck = new Set<Card>(deckFor(context.options));
  const seen = new Set<Card>();
  for (let seat = 0; seat < deal.length; seat++) {
    const cards = deal[seat];
    if (!Array.isArray(cards) || cards.length !== context.cardsPerSeat) {
      return `seat ${seat} must be dealt ${context.cardsPerSeat} cards`;
    }
    for (const card of cards) {
      if (!isCard(card) || !deck.has(card)) return `${JSON.stringify(card)} is not in this table's deck`;
      if (seen.has(card)) return `${card} is dealt twice`;
      seen.add(card);
    }
  }
  if (!seen.has(ONE_CARD)) return `the deal must include ${ONE_CARD}, whose holder leads`;
  return (
    rolesRefusal(context, roles) ??
    (event.fairness === undefined ? null : fairnessRefusal(context, event, event.fairness)) ??
    commitmentRefusal(context, event)
  );
}

/**
 * A deal seats contributed to must be made from the secret the table
 * committed to for it before they could; the next commitment must be one.
 * A deal proven otherwise (scheme 1, a record's) is not bound to it.
 */
function commitmentRefusal(context: TableContext, event: HandDealt): string | null {
  if (event.nextCommitment !== undefined && !isHex256(event.nextCommitment)) {
    return "the next hand's commitment must be 64 lowercase hex characters";
  }
  const published = nextDealOf(context);
  const index = context.handResults.length;
  if (event.fairness?.scheme !== CONTRIBUTED_DEAL_SCHEME || published === null || published.index !== index) return null;
  return event.fairness.commitment === published.commitment
    ? null
    : `hand ${index + 1} must be dealt from the secret committed to before it (${published.commitment}), not another`;
}

function rolesRefusal(context: TableContext, roles: HandDealt['roles']): string | null {
  const roleRules = rulesOf(context.game).roles;
  if (roleRules === null) return roles === null ? null : `${context.game} deals no roles`;
  return roleRules.refusal(roles, context.seatCount);
}

export function holderOf(holdings: readonly (readonly Card[])[], card: Card): Seat {
  return holdings.findIndex((cards) => cards.includes(card));
}

export function dealHand(context: TableContext, event: HandDealt): Partial<TableContext> {
  const index = context.handResults.length;
  const deal = event.deal.map((cards) => cards.slice());
  const rules = rulesOf(context.game);
  const { antiCupid, firstAntiCupid } = rules.antiCupidOf(index, holderOf(deal, ONE_CARD), context.firstAntiCupid, context.seatCount);
  const empty = <T>(value: T) => Array.from({ length: context.seatCount }, () => value);
  const hand: HandState = {
    index,
    deal,
    roles: event.roles === null ? null : event.roles.slice(),
    fairness: event.fairness ?? null,
    antiCupid,
    holdings: deal,
    passChoices: tablePasses(context) ? empty(null) : null,
    passes: [],
    trump: null,
    trick: null,
    tricks: [],
    turn: null,
    accusations: rules.accuses ? empty(null) : null,
  };
  const nextDeal = event.nextCommitment === undefined ? null : { index: index + 1, commitment: event.nextCommitment };
  return { hand, firstAntiCupid, nextDeal };
}

/**
 * A deal from any rng, for tests and simulations that choose their own
 * deals: the same layout as a fair deal, without its proof. The host deals
 * with `fairDeal` from a secret seed.
 */
export function shuffleDeal(context: TableContext, rng: Rng): HandDealt {
  return { type: 'hand.dealt', ...layOutDeal(context, rng) };
}

/** The deal a seed makes at this table, with the proof that lets anyone check it. */
export function fairDeal(context: TableContext, seed: string, nextCommitment?: string): HandDealt {
  return { type: 'hand.dealt', ...dealFromSeed(context, seed), fairness: fairnessOf(seed), ...nextCommitmentOf(nextCommitment) };
}

/** The deal the host's secret and the seats' contributions make together (scheme 2), with its proof. */
export function contributedDeal(
  context: TableContext,
  secret: string,
  contributions: readonly (string | null)[],
  nextCommitment?: string,
): HandDealt {
  const fairness = contributedFairnessOf(secret, contributions);
  return { type: 'hand.dealt', ...dealOfFairness(context, fairness), fairness, ...nextCommitmentOf(nextCommitment) };
}

function nextCommitmentOf(commitment: string | undefined): { nextCommitment?: string } {
  return commitment === undefined ? {} : { nextCommitment: commitment };
}

export const dealingState = {
  description: 'Waiting for the host to shuffle and deal the next hand.',
  on: {
    'hand.dealt': { guard: 'isValidDeal', actions: 'dealHand', target: 'passing' },
  },
} as const;
