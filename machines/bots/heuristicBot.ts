/**
 * A bot that plays to its side's goal: getting both 7s of a suit captured by
 * the side it wants to marry (its own team, or, for the Traitor, quietly the
 * other team), and for Anti-Cupid, keeping the 7s apart.
 *
 * It decides from one seat's view (viewFor) and nothing else, so it cannot
 * see a card or role its seat may not see. Its only randomness is the rng it
 * is given, used to break ties.
 */
import { HEARTS, faceOf, isSeven, isSpecial, suitOf, type Card, type Suit } from '../cards/card.js';
import type { Rng } from '../cards/shuffle.js';
import type { CompletedTrick } from '../table/context.js';
import type { PlayerCommand } from '../table/events.js';
import type { Action } from '../table/refusal.js';
import type { TableView } from '../view.js';
import { passRecipients } from '../fragments/passing.js';
import { rulesOf, sideOf } from '../games/rules/index.js';
import { teammatesOf } from '../rules/sides.js';
import { resolveTrick, trumpAfterPlay, type Play, type Seat } from '../rules/trick.js';

export function heuristicMove(view: TableView, action: Action, rng: Rng): PlayerCommand {
  const seat = view.viewer;
  if (seat === 'spectator' || view.hand === null) throw new Error('a bot plays a seat of a hand in progress');
  switch (action) {
    case 'pass':
      return choosePasses(view, seat);
    case 'play':
      return { type: 'card.played', seat, card: choosePlay(view, seat, rng) };
    case 'accuse':
      return { type: 'traitor.accused', seat, accused: chooseAccused(view, seat, rng) };
  }
}

/**
 * What the bot's seat gains (positive) or loses when the 7s of `suit` end
 * the hand married by `marrier`'s side, or apart (`marrier` null): the game's
 * scoring seen from the bot's seat.
 */
type Stake = (suit: Suit, marrier: Seat | null) => number;

function stakeOf(view: TableView, me: Seat): Stake {
  const hand = view.hand!;
  return rulesOf(view.game).bot.stake({
    me,
    seatCount: view.seats.length,
    antiCupid: hand.antiCupid,
    roleCard: hand.roleCard,
    marked: view.marked,
  });
}

/** The seats whose capture of a 7 counts as the same side's (one marriage needs both 7s on one side). */
function sameSide(view: TableView, a: Seat, b: Seat): boolean {
  const antiCupid = view.hand!.antiCupid;
  const seatCount = view.seats.length;
  return sideOf(view.game, a, antiCupid, seatCount) === sideOf(view.game, b, antiCupid, seatCount);
}

/** Where the 7s of one suit stand: who captured each so far, and whether one was set aside. */
interface SevensOfSuit {
  readonly captors: readonly Seat[];
  readonly setAside: boolean;
}

function sevensBySuit(tricks: readonly CompletedTrick[]): Map<Suit, SevensOfSuit> {
  const bySuit = new Map<Suit, { captors: Seat[]; setAside: boolean }>();
  for (const trick of tricks) {
    for (const play of trick.plays) {
      if (!isSeven(play.card)) continue;
      const suit = suitOf(play.card)!;
      const entry = bySuit.get(suit) ?? { captors: [], setAside: false };
      if (trick.capturedBy === null) entry.setAside = true;
      else entry.captors.push(trick.capturedBy);
      bySuit.set(suit, entry);
    }
  }
  return bySuit;
}

/**
 * How good a suit's position is for the bot, in units of the stake: settled
 * positions are worth their stake; one 7 captured is half-way to a marriage.
 */
function positionValue(view: TableView, stake: Stake, suit: Suit, sevens: SevensOfSuit): number {
  if (sevens.setAside) return stake(suit, null);
  const [first, second] = sevens.captors;
  if (first === undefined) return 0;
  if (second === undefined) return 0.5 * stake(suit, first);
  return sameSide(view, first, second) ? stake(suit, first) : stake(suit, null);
}

/** How much the bot's side gains if the 7s among `plays` go to `capturedBy` (null: set aside). */
function captureGain(
  view: TableView,
  stake: Stake,
  known: Map<Suit, SevensOfSuit>,
  plays: readonly Play[],
  capturedBy: Seat | null,
): number {
  let gain = 0;
  const suits = new Set(plays.filter((play) => isSeven(play.card)).map((play) => suitOf(play.card)!));
  for (const suit of suits) {
    const before = known.get(suit) ?? { captors: [], setAside: false };
    const count = plays.filter((play) => isSeven(play.card) && suitOf(play.card) === suit).length;
    const after: SevensOfSuit =
      capturedBy === null
        ? { captors: before.captors, setAside: true }
        : { captors: [...before.captors, ...Array.from({ length: count }, () => capturedBy)], setAside: before.setAside };
    gain += positionValue(view, stake, suit, after) - positionValue(view, stake, suit, before);
  }
  return gain;
}

/** A card's rank for spending it: specials count as low cards that can be kept for later. */
function rankOf(card: Card): number {
  return faceOf(card)?.rank ?? 0;
}

function choosePlay(view: TableView, me: Seat, rng: Rng): Card {
  const hand = view.hand!;
  const legal = hand.legalCards;
  if (legal.length === 1) return legal[0];
  const stake = stakeOf(view, me);
  const known = sevensBySuit(hand.tricks);
  const seatCount = view.seats.length;
  const plays = hand.trick?.plays ?? [];
  const lastToPlay = plays.length === seatCount - 1;
  // Seats still to play may overtake: the further from the end of the trick, the less the bot can count on its outcome.
  const certainty = lastToPlay ? 1 : plays.length === 0 ? 0.35 : 0.6;
  let best: Card = legal[0];
  let bestScore = -Infinity;
  for (const card of legal) {
    const after = [...plays, { seat: me, card }];
    const trump = trumpAfterPlay(hand.trump, hand.tricks.length, card);
    const { winner, capturedBy } = resolveTrick(after, trump, view.options.specials, seatCount);
    let score = certainty * captureGain(view, stake, known, after, capturedBy);
    // Spend high cards only on tricks worth winning, and keep special cards for when they are the only safe discard.
    score -= (winner === me ? 0.01 : 0.03) * rankOf(card);
    if (isSpecial(card)) score -= 0.15;
    if (isSeven(card) && capturedBy !== null && !sameSide(view, capturedBy, me) && !lastToPlay) score -= 0.1;
    score += rng.next() * 0.001;
    if (score > bestScore) {
      best = card;
      bestScore = score;
    }
  }
  return best;
}

/**
 * One card to each seat the bot must pass to. A seat the bot wants to see
 * marry (its partner; for the Traitor, the other team) gets 7s and strong
 * cards; anyone else gets the bot's weakest cards, never a 7.
 */
function choosePasses(view: TableView, me: Seat): PlayerCommand {
  // passRecipients reads only the game and the number of seats, both public.
  const recipients = passRecipients({ game: view.game, seatCount: view.seats.length }, me);
  const stake = stakeOf(view, me);
  const remaining = [...(view.hand!.cards ?? [])];
  const take = (pick: (cards: Card[]) => Card): Card => {
    const card = pick(remaining);
    remaining.splice(remaining.indexOf(card), 1);
    return card;
  };
  const weakest = (cards: Card[]) => minBy(cards, (card) => (isSeven(card) ? 100 : 0) + (isSpecial(card) ? 50 : 0) + rankOf(card));
  const strongest = (cards: Card[]) => minBy(cards, (card) => (isSeven(card) ? 100 : 0) - rankOf(card));
  const sevenFirst = (cards: Card[]) => minBy(cards, (card) => (isSeven(card) ? 0 : 100) - rankOf(card));
  const helpsWithSevens = rulesOf(view.game).bot.passesSevensToFriends;
  const passes = recipients.map((to) => {
    const friendly = stake(HEARTS, to) > 0;
    const card = take(friendly ? (helpsWithSevens ? sevenFirst : strongest) : weakest);
    return { to, card };
  });
  return { type: 'cards.passed', seat: me, passes };
}

/**
 * A Traitor of Love: names the teammate who most often let the other team
 * capture 7s (played a 7 into a trick the other team took). The Traitor
 * names one the same way, so its accusation looks like anyone's.
 */
function chooseAccused(view: TableView, me: Seat, rng: Rng): Seat {
  const mates = teammatesOf(me, view.seats.length);
  const suspicion = new Map<Seat, number>(mates.map((mate) => [mate, rng.next() * 0.001]));
  for (const trick of view.hand!.tricks) {
    for (const play of trick.plays) {
      if (!suspicion.has(play.seat) || !isSeven(play.card) || trick.capturedBy === null) continue;
      const helpedOpponents = !sameSide(view, trick.capturedBy, me);
      suspicion.set(play.seat, suspicion.get(play.seat)! + (helpedOpponents ? 1 : -0.5));
    }
  }
  return maxBy(mates, (mate) => suspicion.get(mate)!);
}

function minBy<T>(items: readonly T[], score: (item: T) => number): T {
  return maxBy(items, (item) => -score(item));
}

function maxBy<T>(items: readonly T[], score: (item: T) => number): T {
  let best = items[0];
  let bestScore = score(best);
  for (const item of items.slice(1)) {
    const value = score(item);
    if (value > bestScore) {
      best = item;
      bestScore = value;
    }
  }
  return best;
}
