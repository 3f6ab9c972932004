/**
 * Why a table refuses an event, in words for the person who sent it, and
 * which seats the table is waiting for. The guards of the machines call the
 * same refusal functions, so a refusal here is exactly a refusal there.
 */
import { PLAYER_COMMAND_TYPES, TABLE_EVENT_TYPES, type TableEvent, type TableEventType } from './events.js';
import { phaseOf, type Phase, type TableSnapshot } from './snapshot.js';
import type { TableContext } from './context.js';
import type { Seat } from '../rules/trick.js';
import { seatJoinRefusal, seatLeaveRefusal } from '../fragments/seating.js';
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
 * Null when the table accepts `event` now; otherwise what is wrong with it
 * and, where it helps, what would be right.
 */
export function refusalOf(snapshot: TableSnapshot, event: unknown): string | null {
  const shape = shapeRefusal(event);
  if (shape !== null) return shape;
  const command = event as TableEvent;
  const { context } = snapshot;
  if (command.type === 'traitor.accused' && context.game !== 'traitorOfLove') {
    return 'only A Traitor of Love has accusations';
  }
  if (command.type === 'cards.passed' && !tablePasses(context)) {
    return 'this table does not pass cards (its passing option is none)';
  }
  const expected = PHASE_OF_EVENT[command.type];
  if (expected !== undefined && phaseOf(snapshot) !== expected) return notNow(snapshot, command.type);
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

function shapeRefusal(event: unknown): string | null {
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return 'a command is a JSON object with a "type"';
  const type = (event as { type?: unknown }).type;
  if (typeof type !== 'string' || !(TABLE_EVENT_TYPES as readonly string[]).includes(type)) {
    return `unknown command type ${JSON.stringify(type)}; a player sends one of ${PLAYER_COMMAND_TYPES.join(', ')}`;
  }
  return null;
}

function notNow(snapshot: TableSnapshot, type: TableEventType): string {
  const { context } = snapshot;
  const phase = phaseOf(snapshot);
  const what = type === 'hand.dealt' ? 'no deal is due' : `no ${ACTION_WORDS[type]} now`;
  return `${what}: ${phaseSentence(phase, context, snapshot)}`;
}

const ACTION_WORDS: Partial<Record<TableEventType, string>> = {
  'cards.passed': 'passing',
  'card.played': 'card can be played',
  'traitor.accused': 'accusation',
};

function phaseSentence(phase: Phase, context: TableContext, snapshot: TableSnapshot): string {
  const waitingFor = (action: Action) =>
    awaitedActions(snapshot)
      .filter((awaited) => awaited.action === action)
      .map((awaited) => awaited.seat)
      .join(', ');
  switch (phase) {
    case 'seating': {
      const empty = context.occupants.flatMap((occupant, seat) => (occupant === null ? [seat] : []));
      return `the game has not started; seats ${empty.join(', ')} are empty`;
    }
    case 'dealing':
      return 'the next hand has not been dealt yet';
    case 'passing':
      return `the hand is in passing; waiting for seats ${waitingFor('pass')} to pass`;
    case 'trickPlay':
      return context.hand?.passChoices == null
        ? `the hand is in trick play; it is seat ${context.hand?.turn}'s turn`
        : `passing is over; it is seat ${context.hand.turn}'s turn to play`;
    case 'accusation':
      return `every card is played; waiting for seats ${waitingFor('accuse')} to name a teammate`;
    case 'scoring':
      return 'the hand is being scored';
    case 'gameOver':
      return 'the game is over';
  }
}
