/**
 * Checks a game record against the rules without trusting anything in it:
 * replays its deals, passes, plays and accusations through the machine and
 * compares every recorded result with the one the machine derives. In
 * format 2 it also re-derives each deal from its revealed seed
 * (docs/fairness.md) and checks the seed against its commitment; in format
 * 3, from the revealed host secret and every seat's contribution.
 */
import { CONTRIBUTED_DEAL_SCHEME, DEAL_SCHEME, fairnessRefusal, isHex256, type DealShape } from '../fairness/fairDeal.js';
import { FIRST_RULES, KNOWN_RULES, knowsRules } from '../games/index.js';
import { GAME_NAMES_IN_WORDS, GAMES, isGameName, optionsOfRules, parseOptions, rulesOptionsIn, type GameName } from '../table/options.js';
import type { TableEvent } from '../table/events.js';
import { refusalOf } from '../table/refusal.js';
import { offer, startTable, type TableActor } from '../table/snapshot.js';
import { outcomeSoFar } from '../rules/scoring.js';
import {
  RECORD_FORMAT,
  RECORD_FORMAT_1,
  RECORD_FORMAT_2,
  eventsOfHand,
  importedOccupant,
  type GameRecord,
  type RecordedHand,
} from './record.js';

export interface RecordProblem {
  /** Where in the document, e.g. "hands[2].plays[13]". */
  readonly field: string;
  readonly message: string;
}

export interface Verification {
  readonly ok: boolean;
  readonly problems: readonly RecordProblem[];
  /**
   * Hands (by index) whose deal has no proof to check: every hand of a
   * format 1 record, and in format 2 a deal made without a seed or a hand
   * cut off before its seed was revealed.
   */
  readonly unverifiedDeals: readonly number[];
  /**
   * Hands (by index) dealt for contributions (scheme 2) that no seat sent
   * one for, so the house's secret alone chose them. (A scheme 1 deal, the
   * only kind format 2 holds, never took any: docs/fairness.md says what it
   * proves.)
   */
  readonly uncontributedDeals: readonly number[];
}

export function verifyRecord(document: unknown): Verification {
  const problems: RecordProblem[] = [];
  const report = (field: string, message: string) => problems.push({ field, message });
  const unverifiedDeals: number[] = [];
  const uncontributedDeals: number[] = [];
  const header = checkHeader(document, report);
  if (header === null) return { ok: false, problems, unverifiedDeals, uncontributedDeals };
  const record = document as GameRecord;
  const table = startTable({ game: header.game, options: header.options, rules: header.rules });
  try {
    for (let seat = 0; seat < record.seats; seat++) {
      offer(table, { type: 'seat.joined', seat, player: importedOccupant(seat) });
    }
    for (let index = 0; index < record.hands.length; index++) {
      const hand = record.hands[index];
      // The proof first: a deal that is not its seed's is the first thing to say, whatever it breaks later.
      const proven =
        typeof hand === 'object' &&
        hand !== null &&
        Array.isArray(hand.deal) &&
        dealIsProven(header, record.format, hand, `hands[${index}].fairness`, report);
      if (!proven) unverifiedDeals.push(index);
      else if (hand.fairness?.scheme === CONTRIBUTED_DEAL_SCHEME && !hand.fairness.contributions?.some((each) => each !== null)) {
        uncontributedDeals.push(index);
      }
      if (!replayHand(table, hand, `hands[${index}]`, report)) {
        if (index + 1 < record.hands.length) report(`hands[${index + 1}]`, 'not checked: an earlier hand could not be replayed');
        return { ok: false, problems, unverifiedDeals, uncontributedDeals };
      }
      compareHandResult(table, hand, index, report);
    }
    compare('result', record.result, outcomeSoFar(table.getSnapshot().context), report);
    return { ok: problems.length === 0, problems, unverifiedDeals, uncontributedDeals };
  } finally {
    table.stop();
  }
}

type Report = (field: string, message: string) => void;

function checkHeader(document: unknown, report: Report): { game: GameName; options: GameRecord['options']; rules: number } | null {
  if (typeof document !== 'object' || document === null) {
    report('', 'a record is a JSON object');
    return null;
  }
  const record = document as Partial<GameRecord>;
  if (record.format !== RECORD_FORMAT && record.format !== RECORD_FORMAT_2 && record.format !== RECORD_FORMAT_1) {
    report(
      'format',
      `must be "${RECORD_FORMAT}" (or the older "${RECORD_FORMAT_2}" or "${RECORD_FORMAT_1}"), not ${JSON.stringify(record.format)}`,
    );
  }
  if (!isGameName(record.game)) {
    report('game', `must be ${GAME_NAMES_IN_WORDS}, not ${JSON.stringify(record.game)}`);
    return null;
  }
  const game = record.game;
  // A record names the rules it was played under, and is checked against those, not today's.
  const rules = record.rules ?? FIRST_RULES;
  if (!knowsRules(rules)) {
    report(
      'rules',
      `the game was played under rules version ${JSON.stringify(rules)}; this checker knows rules ${KNOWN_RULES.join(', ')}: check it with a release that knows them`,
    );
    return null;
  }
  if (record.seats !== GAMES[game].seats) report('seats', `${game} has ${GAMES[game].seats} seats, not ${JSON.stringify(record.seats)}`);
  const given = (typeof record.options === 'object' && record.options !== null ? record.options : {}) as Record<string, unknown>;
  // Checked against the options of the rules it names: an option added since is not asked of it.
  const { options: rulesOptions, missing } = rulesOptionsIn(game, rules, given);
  for (const key of missing) report(`options.${key}`, 'missing: a record writes every rules option, defaults included');
  const parsed = parseOptions(game, rulesOptions, optionsOfRules(game, rules));
  if (!parsed.ok) for (const error of parsed.errors) report('options', error);
  if (!Array.isArray(record.hands)) report('hands', 'must be an array of hands');
  if (typeof record.result !== 'object' || record.result === null) report('result', 'must be an object');
  if (!parsed.ok || !Array.isArray(record.hands) || record.seats !== GAMES[game].seats) return null;
  return { game, options: { ...given, ...parsed.options }, rules };
}

/** Replays one hand's events; false when one is refused (reported with its field). */
function replayHand(table: TableActor, hand: RecordedHand, where: string, report: Report): boolean {
  if (typeof hand !== 'object' || hand === null || !Array.isArray(hand.deal) || !Array.isArray(hand.plays)) {
    report(where, 'a hand needs deal, passes, plays and result');
    return false;
  }
  let events: TableEvent[];
  try {
    // The deal's proof is checked on its own (dealIsProven), so a bad one is reported as fairness, not as a refused deal.
    events = eventsOfHand({ ...hand, passes: hand.passes ?? [], fairness: null });
  } catch {
    report(where, 'malformed passes, plays or accusations');
    return false;
  }
  let playIndex = 0;
  for (const event of events) {
    const field = fieldOf(event, where, playIndex);
    const refusal = refusalOf(table.getSnapshot(), event);
    if (refusal !== null || !offer(table, event)) {
      report(field, refusal ?? 'refused by the machine');
      return false;
    }
    if (event.type === 'card.played') playIndex++;
    const antiCupid = table.getSnapshot().context.hand!.antiCupid;
    if (event.type === 'hand.dealt' && hand.antiCupid !== antiCupid) {
      report(`${where}.antiCupid`, `recorded ${JSON.stringify(hand.antiCupid)}, the rules give ${antiCupid}`);
    }
  }
  return true;
}

/**
 * Whether the hand's deal is proven by its revealed seed; a proof that is
 * present but wrong is a problem, an absent one only leaves the deal
 * unverified.
 */
function dealIsProven(shape: DealShape, format: unknown, hand: RecordedHand, where: string, report: Report): boolean {
  if (format !== RECORD_FORMAT && format !== RECORD_FORMAT_2) return false;
  if (!('fairness' in hand)) {
    report(where, 'missing: formats 2 and 3 write fairness on every hand (null for a deal made without a seed)');
    return false;
  }
  const fairness = hand.fairness;
  if (fairness === null || fairness === undefined) return false;
  if (typeof fairness !== 'object') {
    report(where, 'must be an object with scheme, commitment and seed, or null');
    return false;
  }
  const schemes = format === RECORD_FORMAT ? [DEAL_SCHEME, CONTRIBUTED_DEAL_SCHEME] : [DEAL_SCHEME];
  if (!(schemes as string[]).includes(fairness.scheme)) {
    report(`${where}.scheme`, `must be ${schemes.map((scheme) => `"${scheme}"`).join(' or ')}, not ${JSON.stringify(fairness.scheme)}`);
    return false;
  }
  if (!isHex256(fairness.commitment)) {
    report(`${where}.commitment`, 'must be a SHA-256 in 64 lowercase hex characters');
    return false;
  }
  if (fairness.seed === null) {
    if (hand.result != null) report(`${where}.seed`, 'missing: the hand is scored, so its seed must be revealed');
    return false;
  }
  if (!contributionsFit(format, fairness, `${where}.contributions`, report)) return false;
  const { contributions, ...proof } = fairness;
  const refusal = fairnessRefusal(shape, hand, fairness.scheme === CONTRIBUTED_DEAL_SCHEME ? fairness : proof);
  if (refusal !== null) report(where, refusal);
  return refusal === null;
}

/** Format 3 writes contributions beside every revealed seed: a list per seat for scheme 2, null for scheme 1. */
function contributionsFit(format: unknown, fairness: NonNullable<RecordedHand['fairness']>, where: string, report: Report): boolean {
  if (format !== RECORD_FORMAT) return true;
  if (!('contributions' in fairness)) {
    report(where, "missing: format 3 writes the seats' contributions beside the seed (null for a scheme 1 deal)");
    return false;
  }
  if (fairness.scheme === DEAL_SCHEME && fairness.contributions !== null) {
    report(where, `must be null: a ${DEAL_SCHEME} deal takes no contributions`);
    return false;
  }
  return true;
}

function fieldOf(event: TableEvent, where: string, playIndex: number): string {
  switch (event.type) {
    case 'hand.dealt':
      return `${where}.deal`;
    case 'cards.passed':
      return `${where}.passes (seat ${event.seat})`;
    case 'card.played':
      return `${where}.plays[${playIndex}]`;
    case 'traitor.accused':
      return `${where}.accusations[${event.seat}]`;
    default:
      return where;
  }
}

function compareHandResult(table: TableActor, hand: RecordedHand, index: number, report: Report): void {
  const derived = table.getSnapshot().context.handResults[index];
  const where = `hands[${index}].result`;
  if (derived === undefined) {
    if (hand.result != null) report(where, 'recorded, but the hand is not complete');
    return;
  }
  if (hand.result == null) {
    report(where, 'missing, but the hand is complete');
    return;
  }
  for (const key of Object.keys(derived) as (keyof typeof derived)[]) {
    if (key === 'tricks') compareTricks(where, hand.result.tricks, derived.tricks, report);
    else compare(`${where}.${key}`, hand.result[key], derived[key], report);
  }
}

function compareTricks(where: string, recorded: unknown, derived: readonly object[], report: Report): void {
  if (!Array.isArray(recorded) || recorded.length !== derived.length) {
    report(
      `${where}.tricks`,
      `the hand has ${derived.length} tricks; the record lists ${Array.isArray(recorded) ? recorded.length : 'none'}`,
    );
    return;
  }
  derived.forEach((trick, i) => compare(`${where}.tricks[${i}]`, recorded[i], trick, report));
}

/** Reports each field that differs, naming it and both values. */
function compare(field: string, recorded: unknown, derived: unknown, report: Report): void {
  if (typeof derived === 'object' && derived !== null && !Array.isArray(derived)) {
    if (typeof recorded !== 'object' || recorded === null) {
      report(field, `recorded ${JSON.stringify(recorded)}, the rules give ${JSON.stringify(derived)}`);
      return;
    }
    for (const [key, value] of Object.entries(derived))
      compare(`${field}.${key}`, (recorded as Record<string, unknown>)[key], value, report);
    return;
  }
  if (JSON.stringify(recorded) !== JSON.stringify(derived)) {
    report(field, `recorded ${JSON.stringify(recorded)}, the rules give ${JSON.stringify(derived)}`);
  }
}
