/**
 * Why a table refuses an event, in words for the person who sent it, and
 * which seats the table is waiting for. The guards of the machines call the
 * same refusal functions, so a refusal here is exactly a refusal there.
 */
import { PLAYER_COMMAND_TYPES, TABLE_EVENT_TYPES, type TableEvent, type TableEventType } from './events.js';
import { phaseOf, type Phase, type TableSnapshot } from './snapshot.js';
import { isSeat, type TableContext } from './context.js';
import { describeNonCard, isCard } from '../cards/card.js';
import { rulesOf } from '../games/rules/index.js';
import type { Seat } from '../rules/trick.js';
import { occupantRefusal, seatJoinRefusal, seatLeaveRefusal, seatRangeMessage } from '../fragments/seating.js';
import { dealRefusal } from '../fragments/dealing.js';
import { passRefusal, seatsYetToPass, tablePasses } from '../fragments/passing.js';
import { playRefusal } from '../fragments/trickPlay.js';
import { accusationRefusal, seatsYetToAccuse } from '../fragments/accusation.js';

export type Action = 'pass' | 'play' | 'accuse';

export interface AwaitedAction {
  readonly seat: Seat;
  readonly action: Action;
}

/** The seats the table waits for, and for what. Empty when it waits for the host or nobody. */
export function awaitedActions(snapshot: TableSnapshot): AwaitedAction[] {
  const { context } = snapshot;
  switch (phaseOf(snapshot)) {
    case 'passing':
      return seatsYetToPass(context).map((seat) => ({ seat, action: 'pass' }));
    case 'trickPlay':
      return context.hand?.turn == null ? [] : [{ seat: context.hand.turn, action: 'play' }];
    case 'accusation':
      return seatsYetToAccuse(context).map((seat) => ({ seat, action: 'accuse' }));
    default:
      return [];
  }
}

const PHASE_OF_EVENT: Partial<Record<TableEventType, Phase>> = {
  'hand.dealt': 'dealing',
  'cards.passed': 'passing',
  'card.played': 'trickPlay',
  'traitor.accused': 'accusation',
};

/**
 * Malformed: not a well-formed command (unknown type, seat out of range, not
 * a card). NotNow: well-formed but not at this moment (wrong turn or phase,
 * already done, game over). Illegal: against the rules (a card not in hand,
 * failing to follow suit).
 */
export type RefusalKind = 'malformed' | 'notNow' | 'illegal';

export interface Refusal {
  readonly kind: RefusalKind;
  readonly message: string;
}

/**
 * Null when the table accepts `event` now; otherwise what is wrong with it
 * and, where it helps, what would be right.
 */
export function refusalOf(snapshot: TableSnapshot, event: unknown): string | null {
  return explainRefusal(snapshot, event)?.message ?? null;
}

export function explainRefusal(snapshot: TableSnapshot, event: unknown): Refusal | null {
  const shape = shapeRefusal(event);
  if (shape !== null) return { kind: 'malformed', message: shape };
  const command = event as TableEvent;
  const { context } = snapshot;
  const field = fieldRefusal(context, command);
  if (field !== null) return { kind: 'malformed', message: field };
  if (command.type === 'traitor.accused' && !rulesOf(context.game).accuses) {
    return { kind: 'illegal', message: 'only A Traitor of Love has accusations' };
  }
  if (command.type === 'cards.passed' && !tablePasses(context)) {
    // Only a game whose passing is an option has one to name.
    const why = 'passing' in context.options ? ' (its passing option is none)' : '';
    return { kind: 'illegal', message: `this table does not pass cards${why}` };
  }
  const expected = PHASE_OF_EVENT[command.type];
  if (expected !== undefined && phaseOf(snapshot) !== expected) {
    return { kind: 'notNow', message: notNow(snapshot, command.type) };
  }
  // Seats change in any phase but the last: a finished game's machine takes no event at all.
  if (expected === undefined && phaseOf(snapshot) === 'gameOver') {
    return { kind: 'notNow', message: notNow(snapshot, command.type) };
  }
  const message = ruleRefusal(context, command);
  if (message === null) return null;
  return { kind: isAboutTiming(context, command) ? 'notNow' : 'illegal', message };
}

function ruleRefusal(context: TableContext, command: TableEvent): string | null {
  switch (command.type) {
    case 'seat.joined':
      return seatJoinRefusal(context, command);
    case 'seat.left':
      return seatLeaveRefusal(context, command);
    case 'hand.dealt':
      return dealRefusal(context, command);
    case 'cards.passed':
      return passRefusal(context, command);
    case 'card.played':
      return playRefusal(context, command);
    case 'traitor.accused':
      return accusationRefusal(context, command);
  }
}

/** The fields every command of its type must have, whatever the state of the table. */
function fieldRefusal(context: TableContext, command: TableEvent): string | null {
  if (command.type === 'hand.dealt') return null;
  if (!isSeat(context, command.seat)) return seatRangeMessage(context, command.seat);
  switch (command.type) {
    case 'card.played':
      return isCard(command.card) ? null : describeNonCard(command.card);
    case 'cards.passed': {
      if (!Array.isArray(command.passes)) return 'passes must be a list of { "to": seat, "card": card }';
      for (const pass of command.passes as unknown[]) {
        if (typeof pass !== 'object' || pass === null) return 'passes must be a list of { "to": seat, "card": card }';
        const { to, card } = pass as { to: unknown; card: unknown };
        if (!isSeat(context, to)) return `a pass recipient: ${seatRangeMessage(context, to)}`;
        if (!isCard(card)) return describeNonCard(card);
      }
      return null;
    }
    case 'traitor.accused':
      return isSeat(context, command.accused) ? null : `the accused: ${seatRangeMessage(context, command.accused)}`;
    case 'seat.joined':
      return occupantRefusal(command.player);
    default:
      return null;
  }
}

/** Whether a rule refusal is about the moment (not your turn, already done) rather than the move. */
function isAboutTiming(context: TableContext, command: TableEvent): boolean {
  const hand = context.hand;
  switch (command.type) {
    case 'card.played':
      return hand?.turn !== command.seat;
    case 'cards.passed':
      return hand?.passChoices?.[command.seat] != null;
    case 'traitor.accused':
      return hand?.accusations?.[command.seat] != null;
    case 'seat.joined':
      return context.occupants[command.seat] !== null;
    default:
      return false;
  }
}

/**
 * The longest command, as JSON, and the deepest, a table reads: a whole deal
 * is well under both. Refusals quote the parts of a command that are wrong,
 * so a command without bounds (a string of megabytes, an object nested
 * thousands deep, which JSON.stringify cannot even write) would make the
 * refusal itself fail.
 */
const COMMAND_JSON_LIMIT = 4096;
const COMMAND_DEPTH_LIMIT = 8;

function shapeRefusal(event: unknown): string | null {
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return 'a command is a JSON object with a "type"';
  const shape = outsideShapeLimits(event);
  if (shape === 'tooDeep') return `a command is nested at most ${COMMAND_DEPTH_LIMIT} levels deep`;
  if (shape === 'tooBig') return `a command is at most ${COMMAND_JSON_LIMIT} characters as JSON`;
  const size = jsonLength(event);
  if (size === null) return 'a command is plain JSON data';
  if (size > COMMAND_JSON_LIMIT) return `a command is at most ${COMMAND_JSON_LIMIT} characters as JSON, not ${size}`;
  const type = (event as { type?: unknown }).type;
  if (typeof type !== 'string' || !(TABLE_EVENT_TYPES as readonly string[]).includes(type)) {
    return `unknown command type ${JSON.stringify(type)}; a player sends one of ${PLAYER_COMMAND_TYPES.join(', ')}`;
  }
  return null;
}

/**
 * Whether `value` holds objects or arrays more than COMMAND_DEPTH_LIMIT
 * levels deep (a cycle is endlessly deep), or more values than its JSON
 * could hold within COMMAND_JSON_LIMIT characters (one object reused many
 * times over is small in memory but not as JSON). Walked without recursion:
 * no depth can overflow the stack, so the answer never depends on how deep
 * the caller is.
 */
function outsideShapeLimits(value: unknown): 'tooDeep' | 'tooBig' | null {
  // Two stacks side by side, not a pair per value: this runs on every command.
  const waiting: unknown[] = [value];
  const depths: number[] = [1];
  let values = 0;
  while (waiting.length > 0) {
    const next = waiting.pop();
    const depth = depths.pop()!;
    if (++values > COMMAND_JSON_LIMIT) return 'tooBig';
    if (typeof next !== 'object' || next === null) continue;
    if (depth > COMMAND_DEPTH_LIMIT) return 'tooDeep';
    for (const key in next) {
      if (!Object.hasOwn(next, key)) continue;
      waiting.push((next as Record<string, unknown>)[key]);
      depths.push(depth + 1);
    }
  }
  return null;
}

/** The length of a value written as JSON; null when it cannot be written (a BigInt, say). */
function jsonLength(value: unknown): number | null {
  try {
    return JSON.stringify(value).length;
  } catch {
    return null;
  }
}

function notNow(snapshot: TableSnapshot, type: TableEventType): string {
  const { context } = snapshot;
  const phase = phaseOf(snapshot);
  const what = type === 'hand.dealt' ? 'no deal is due' : `no ${ACTION_WORDS[type]} now`;
  return `${what}: ${phaseSentence(phase, context, snapshot)}`;
}

const ACTION_WORDS: Partial<Record<TableEventType, string>> = {
  'seat.joined': 'seat can be taken',
  'seat.left': 'seat can be left',
  'cards.passed': 'passing',
  'card.played': 'card can be played',
  'traitor.accused': 'accusation',
};

/** "seat 3" or "seats 1, 2, 3". */
function seatsPhrase(seats: readonly Seat[]): string {
  return seats.length === 1 ? `seat ${seats[0]}` : `seats ${seats.join(', ')}`;
}

function phaseSentence(phase: Phase, context: TableContext, snapshot: TableSnapshot): string {
  const waitingFor = (action: Action) =>
    seatsPhrase(
      awaitedActions(snapshot)
        .filter((awaited) => awaited.action === action)
        .map((awaited) => awaited.seat),
    );
  switch (phase) {
    case 'seating': {
      const empty = context.occupants.flatMap((occupant, seat) => (occupant === null ? [seat] : []));
      return `the game has not started; ${seatsPhrase(empty)} ${empty.length === 1 ? 'is' : 'are'} empty`;
    }
    case 'dealing':
      return 'the next hand has not been dealt yet';
    case 'passing':
      return `the hand is in passing; waiting for ${waitingFor('pass')} to pass`;
    case 'trickPlay':
      return context.hand?.passChoices == null
        ? `the hand is in trick play; it is seat ${context.hand?.turn}'s turn`
        : `passing is over; it is seat ${context.hand.turn}'s turn to play`;
    case 'accusation':
      return `every card is played; waiting for ${waitingFor('accuse')} to name a teammate`;
    case 'scoring':
      return 'the hand is being scored';
    case 'gameOver':
      return 'the game is over';
  }
}
