/**
 * What a worker refuses whoever sends it. NATS's permissions let only
 * gateways send commands and new tables (services/bus/natsPermissions.ts),
 * and a gateway checks what its clients send; these checks hold the line
 * again at the worker, so a gateway with a bug, or a process that got a
 * gateway's credentials, still cannot act for a seat without its token,
 * choose a table's deals, or make a table the gateway's own API would
 * refuse.
 */
import type { CreateTableRequest } from '../host/tableService.js';
import { TableRefusal } from '../host/errors.js';
import { HELD_BY_A_BOT } from '../host/tenure.js';

/** The commands that act as a seat's holder: each must name the holder (its token's hash) the seat is checked against. */
const SEAT_HOLDERS_COMMANDS: readonly string[] = ['cards.passed', 'card.played', 'traitor.accused', 'deal.contributed', 'seat.left'];

/** A seat token's hash, as the gateway sends it (SHA-256, hex). */
const HOLDER = /^[0-9a-f]{64}$/;

export interface WorkerRequestLimits {
  /** The shortest turn clock a new table may have, in seconds (SUITORS_MIN_TURN_SECONDS, as the gateway's). */
  readonly minTurnSeconds: number;
}

/** As large as the gateway's body limit for a new table lets a request be; the rest of NATS's message is not for it. */
const NEW_TABLE_BYTES = 16 * 1024;
/** What a new table's settings hold (services/host/tableSettings.ts); a fork's origin is written by the host itself. */
const NEW_TABLE_SETTINGS: readonly string[] = ['turnSeconds', 'botKinds'];

/** SUITORS_MIN_TURN_SECONDS's default (settings.process.test.ts holds the two together). */
export const DEFAULT_WORKER_LIMITS: WorkerRequestLimits = { minTurnSeconds: 5 };

/**
 * Refuses a command that acts for a seat with no holder, or a move that
 * names the bots' (only the table's owner moves its bots), and a person's
 * seat taken with no holder, which no token could ever act for again. A
 * stand-in bot may be asked to leave its seat (`seat.left` as the bots'),
 * as a gateway does before seating a person there.
 */
export function checkSeatCommand(command: unknown, holder: string | undefined): void {
  const { type, player, holder: joining } = (command ?? {}) as { type?: unknown; player?: { bot?: unknown }; holder?: unknown };
  if (typeof type === 'string' && SEAT_HOLDERS_COMMANDS.includes(type)) {
    const botLeaving = type === 'seat.left' && holder === HELD_BY_A_BOT;
    if (!botLeaving && (holder === undefined || !HOLDER.test(holder))) {
      throw new TableRefusal(
        'notHolder',
        `a ${type} must carry the hash of the seat's token (holder); ${holder === undefined ? 'none was sent' : 'that is not one'}`,
      );
    }
  }
  if (type === 'seat.joined' && player?.bot !== true && (typeof joining !== 'string' || !HOLDER.test(joining))) {
    throw new TableRefusal('notHolder', 'a person takes a seat with the hash of their seat token (holder), and this seat.joined has none');
  }
}

/**
 * Refuses what the gateway's API can never ask for: a fixed seed (every
 * deal would be known to whoever chose it), a test's small deals, a person
 * seated at creation (people take seats with their tokens), a turn clock
 * under the shortest allowed.
 */
export function checkNewTable(request: CreateTableRequest, limits: WorkerRequestLimits): void {
  const given = (request ?? {}) as Partial<CreateTableRequest>;
  const bytes = Buffer.byteLength(JSON.stringify(request ?? null));
  if (bytes > NEW_TABLE_BYTES)
    throw new TableRefusal('malformed', `a new table's request is at most ${NEW_TABLE_BYTES} bytes, not ${bytes}`);
  const unknownSettings = Object.keys(given.settings ?? {}).filter((key) => !NEW_TABLE_SETTINGS.includes(key));
  if (unknownSettings.length > 0) {
    throw new TableRefusal(
      'malformed',
      `a new table's settings are ${NEW_TABLE_SETTINGS.join(' and ')}, not ${unknownSettings.join(', ')}`,
    );
  }
  if (given.seed !== undefined)
    throw new TableRefusal('malformed', 'a new table may not fix its seed: each hand is dealt from a secret of the host');
  if (given.cardsPerSeat !== undefined) throw new TableRefusal('malformed', 'a new table may not choose how many cards a seat is dealt');
  for (const [seat, player] of (Array.isArray(given.players) ? given.players : []).entries()) {
    if (player !== null && (player as { bot?: unknown })?.bot !== true) {
      throw new TableRefusal('malformed', `seat ${seat} is given to a person at creation: people take their seats with their own tokens`);
    }
  }
  const turnSeconds = (given.settings as { turnSeconds?: unknown } | undefined)?.turnSeconds;
  if (turnSeconds !== undefined && !(typeof turnSeconds === 'number' && turnSeconds >= limits.minTurnSeconds)) {
    throw new TableRefusal(
      'malformed',
      `settings.turnSeconds must be at least ${limits.minTurnSeconds} (the shortest turn clock), not ${JSON.stringify(turnSeconds)}`,
    );
  }
}
