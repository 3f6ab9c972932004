/**
 * Games played from outside, the way players' clients play them through a
 * gateway: read the table, pick a random legal move for a seat it awaits,
 * submit it as the seat's holder, keep every acknowledgement. The seats are
 * people's (bots are the table owner's to play), each taken with a seat
 * token's hash as a gateway takes it, since a worker refuses a seat's
 * command that carries none. It carries on through the troubles a
 * distributed service has in normal operation: a table between owners
 * (TableUnavailable), a read model one event behind (a refusal), a conflict
 * with another writer.
 */
import { createHash } from 'node:crypto';
import { createRng, type Rng } from '../machines/cards/shuffle.js';
import { GAME_NAMES, GAMES, type GameName } from '../machines/table/options.js';
import { randomMove } from '../machines/bots/randomBot.js';
import { awaitedActions } from '../machines/table/refusal.js';
import type { TableSnapshot } from '../machines/table/snapshot.js';
import type { PlayerCommand } from '../machines/table/events.js';
import type { Accepted, CreateTableRequest, TableService } from '../services/host/tableService.js';

/** The seat token hash the player at `seat` holds it with: the caller stands in for every player's client. */
export function remoteHolder(tableId: string, seat: number): string {
  return createHash('sha256').update(`remote player of ${tableId} at seat ${seat}`).digest('hex');
}

/** A new table with a person in every seat, each seated with its holder, as people join through a gateway. */
export async function createRemoteTable(
  tables: TableService,
  request: Omit<CreateTableRequest, 'game' | 'players'> & { readonly game: GameName },
  onAccepted: (accepted: Accepted) => void = () => undefined,
): Promise<Accepted> {
  let accepted = await tables.createTable(request);
  onAccepted(accepted);
  const { tableId } = accepted;
  for (let seat = 0; seat < GAMES[request.game].seats; seat++) {
    const player = { name: `Player ${seat}`, bot: false };
    accepted = await tables.submit(tableId, { type: 'seat.joined', seat, player, holder: remoteHolder(tableId, seat) });
    onAccepted(accepted);
  }
  return accepted;
}

/** `move`, sent as its seat's holder. */
export function submitRemoteMove(tables: TableService, tableId: string, move: PlayerCommand): Promise<Accepted> {
  return tables.submit(tableId, move, { holder: remoteHolder(tableId, move.seat) });
}

/** A random legal move for one of the seats the table awaits, or null when it awaits none (the game is over). */
export function nextRemoteMove(snapshot: TableSnapshot, rng: Rng): PlayerCommand | null {
  const awaited = awaitedActions(snapshot);
  if (awaited.length === 0) return null;
  const { seat, action } = awaited[rng.below(awaited.length)];
  return randomMove(snapshot, seat, action, rng);
}

export function gameOf(index: number): GameName {
  return GAME_NAMES[index % GAME_NAMES.length];
}

export interface BotPlayOptions {
  readonly rng?: Rng;
  /** Called after each acknowledged command. */
  readonly onAccepted?: (accepted: Accepted, latencyMs: number) => void;
  /** Called for each command that was not acknowledged; the game goes on. */
  readonly onTrouble?: (error: Error) => void;
  /** Stop when this returns true (checked before each move). */
  readonly stop?: () => boolean;
  /** Give up (throw) after this many commands in a row fail. */
  readonly patience?: number;
}

/** Plays the table's seats until none is awaited (the game is over) or `stop` says so; returns the moves acknowledged. */
export async function playRemotely(tables: TableService, tableId: string, options: BotPlayOptions = {}): Promise<number> {
  const rng = options.rng ?? createRng(tableId);
  const patience = options.patience ?? 200;
  let acknowledged = 0;
  let failures = 0;
  while (!(options.stop?.() ?? false)) {
    let snapshot;
    try {
      ({ snapshot } = await tables.snapshot(tableId));
    } catch (error) {
      failures = await troubled(error as Error, ++failures, patience, options);
      continue;
    }
    const move = nextRemoteMove(snapshot, rng);
    if (move === null) return acknowledged;
    const started = performance.now();
    try {
      const accepted = await submitRemoteMove(tables, tableId, move);
      acknowledged++;
      failures = 0;
      options.onAccepted?.(accepted, performance.now() - started);
    } catch (error) {
      failures = await troubled(error as Error, ++failures, patience, options);
    }
  }
  return acknowledged;
}

async function troubled(error: Error, failures: number, patience: number, options: BotPlayOptions): Promise<number> {
  options.onTrouble?.(error);
  if (failures >= patience) throw new Error(`${failures} commands in a row failed; the last: ${error.message}`, { cause: error });
  await new Promise((resolve) => setTimeout(resolve, Math.min(20 * failures, 250)));
  return failures;
}
