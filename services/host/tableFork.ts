/**
 * Playing on from any event of a finished game: a new table whose log
 * starts with the game as it stood right after that event. Its
 * `table.created` names where it was forked from; every seat is held by a
 * stand-in bot (a person may take it), or by the person who asked, with
 * their token's tenure (and then the seats of the original's other people
 * are left open for them); then the original's machine events up to the fork
 * point follow, deals with their fairness proofs as they were. Seat changes
 * of the original are not copied: the new table has its own players. The
 * original's fixed seed, if it had one, is not copied either: the hands the
 * new table deals are fresh, so knowing the original game tells nothing of them.
 */
import { newDealSecret } from './dealer.js';
import type { Seat } from '../../machines/rules/trick.js';
import type { SeatJoined, SeatLeft, TableEvent } from '../../machines/table/events.js';
import { seatJoinRefusal } from '../../machines/fragments/seating.js';
import { GAMES } from '../../machines/table/options.js';
import { phaseOf, type TableSnapshot } from '../../machines/table/snapshot.js';
import type { NewEvent, StoredEvent } from '../eventstore/eventStore.js';
import { foldNewTable } from './newTableFold.js';
import { foldLog } from './replay.js';
import { TableRefusal } from './errors.js';
import { MAX_IMPORT_HANDS } from './recordImport/prepareImport.js';
import { standInFor } from './standIns.js';
import { machineEventsOf, rulesOfNewTable, tableCreatedOf, toTableEvent, type TableCreated } from './tableLog.js';

export interface ForkRequest {
  /** The event of the original's log the new table starts right after (1 = created). */
  readonly at: number;
  /** A person who takes a seat of the new table at once; `holder` is their token's SHA-256 (SeatJoined.holder). */
  readonly taker?: { readonly seat: number; readonly name: string; readonly holder: string };
}

/** Where a forked table comes from: kept in its `table.created` settings. */
export interface ForkedFrom {
  readonly tableId: string;
  readonly at: number;
}

interface ForkPlan {
  readonly created: TableCreated;
  /** The new table's events after `table.created`: its seats, then the original's game up to the fork point. */
  readonly events: readonly TableEvent[];
}

const SEAT_EVENTS: readonly string[] = ['seat.joined', 'seat.left'];

/** A fork folded off the event loop (foldFork): the new table as XState persists it, and what to log after its creation. */
export interface FoldedFork {
  readonly created: TableCreated;
  readonly logged: readonly NewEvent[];
  readonly persisted: unknown;
}

/**
 * The whole fork of a table whose fork point checkForkPoint has passed:
 * the original folded up to `request.at`, the plan, and the new table
 * folded through it, with its events stamped `at`. Pure and costly (a long
 * game is folded twice), so the host runs it on the fold worker
 * (recordImport/), off the event loop.
 */
export function foldFork(tableId: string, log: readonly StoredEvent[], request: ForkRequest, at: string): FoldedFork {
  const { actor: original } = foldLog(tableId, log, { upTo: request.at });
  const atFork = original.getSnapshot();
  original.stop();
  const plan = planFork(tableId, request, log, atFork);
  const { actor, logged } = foldNewTable(plan.created, plan.events, at);
  const persisted = actor.getPersistedSnapshot();
  actor.stop();
  return { created: plan.created, logged, persisted };
}

/**
 * Plans the new table of a fork whose point checkForkPoint has passed. `log`
 * is the original's log from its start; `atFork` the original right after
 * event `at`.
 */
function planFork(tableId: string, request: ForkRequest, log: readonly StoredEvent[], atFork: TableSnapshot): ForkPlan {
  if (atFork.context.outcome?.finished === true) {
    throw new TableRefusal(
      'notNow',
      `the game of table ${tableId} is already over right after event ${request.at}; play on from an earlier event`,
    );
  }
  const { context } = atFork;
  const { taker } = request;
  if (taker !== undefined) checkSeat(context.game, context.seatCount, taker.seat);
  const source = tableCreatedOf(log[0], tableId);
  const created: TableCreated = {
    game: source.game,
    options: source.options,
    // The fork replays the original's moves, which were made under the original's rules.
    ...rulesOfNewTable(source.game, source.rules),
    ...(source.cardsPerSeat === undefined ? {} : { cardsPerSeat: source.cardsPerSeat }),
    // A secret of its own: its hands after the first new one take contributions (the original's commitments are not its).
    dealSecret: newDealSecret(),
    settings: { forkedFrom: { tableId, at: request.at } satisfies ForkedFrom },
  };
  const seats = Array.from({ length: context.seatCount }, (_, seat): SeatJoined => {
    if (taker?.seat === seat) return { type: 'seat.joined', seat, player: { name: taker.name, bot: false }, holder: taker.holder };
    return { type: 'seat.joined', seat, player: { name: standInFor(context.occupants[seat], seat), bot: true } };
  });
  if (taker !== undefined) {
    const refusal = seatJoinRefusal({ ...context, occupants: context.occupants.map(() => null) }, seats[taker.seat]);
    if (refusal !== null) throw new TableRefusal('malformed', refusal);
  }
  const game = machineEventsOf(log)
    .filter((event) => event.seq <= request.at && !SEAT_EVENTS.includes(event.type))
    .map(toTableEvent);
  return { created, events: [...seats, ...game, ...heldForPeople(context.occupants, taker?.seat)] };
}

/**
 * With a person playing on, the seats the original's other people held are left open for them, as a new table's
 * are: the game waits at an open seat's turn until someone takes it, or a seated person starts the bots
 * (POST .../start). Without one, nobody would sit at the new table, so stand-ins play every seat.
 */
function heldForPeople(occupants: readonly ({ readonly bot: boolean } | null)[], takerSeat: number | undefined): SeatLeft[] {
  if (takerSeat === undefined) return [];
  return occupants.flatMap((occupant, seat): SeatLeft[] =>
    occupant?.bot === false && seat !== takerSeat ? [{ type: 'seat.left', seat }] : [],
  );
}

/**
 * What every fork needs of the original and the fork point, checked before
 * anything is folded: a finished game (every hand is public only then), and
 * an event its log has.
 */
export function checkForkPoint(tableId: string, original: { version: number; snapshot: TableSnapshot }, at: number): void {
  if (original.snapshot.context.outcome?.finished !== true) {
    throw new TableRefusal(
      'notNow',
      `the game is not over; table ${tableId} can be played on from any event once its game is over (it is in ${phaseOf(original.snapshot)})`,
    );
  }
  // A fork copies the log up to its point: bounded as an import is.
  const hands = original.snapshot.context.handResults.length;
  if (hands > MAX_IMPORT_HANDS) {
    throw new TableRefusal(
      'malformed',
      `table ${tableId} played ${hands} hands; only games of at most ${MAX_IMPORT_HANDS} hands can be played on from`,
    );
  }
  if (!Number.isInteger(at) || at < 1)
    throw new TableRefusal('malformed', `at must be a whole number from 1 (the event to play on from), not ${JSON.stringify(at)}`);
  if (at > original.version) {
    throw new TableRefusal(
      'notNow',
      `table ${tableId} has ${original.version} events; play on from event 1 to ${original.version}, not ${at}`,
    );
  }
}

function checkSeat(game: keyof typeof GAMES, seatCount: number, seat: Seat): void {
  if (!Number.isInteger(seat) || seat < 0 || seat >= seatCount) {
    throw new TableRefusal(
      'malformed',
      `seat must be from 0 to ${seatCount - 1} at a table of ${GAMES[game].title}, not ${JSON.stringify(seat)}`,
    );
  }
}
