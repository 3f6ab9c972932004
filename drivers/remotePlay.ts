/**
 * Games played from outside, the way players' clients play them through a
 * gateway: read the table, pick a random legal move for a seat it awaits,
 * submit it, keep every acknowledgement. The seats are people's (bots are
 * the table owner's to play). It carries on through the troubles a
 * distributed service has in normal operation: a table between owners
 * (TableUnavailable), a read model one event behind (a refusal), a conflict
 * with another writer.
 */
import { createRng, type Rng } from '../machines/cards/shuffle.js';
import { GAME_NAMES, GAMES, type GameName } from '../machines/table/options.js';
import { randomMove } from '../machines/bots/randomBot.js';
import { awaitedActions } from '../machines/table/refusal.js';
import type { TableSnapshot } from '../machines/table/snapshot.js';
import type { PlayerCommand } from '../machines/table/events.js';
import type { Accepted } from '../services/host/tableService.js';
import type { TableService } from '../services/host/tableService.js';

/** People in every seat, seated without tokens: the test stands in for all their clients. */
export function remotePlayers(game: GameName) {
  return Array.from({ length: GAMES[game].seats }, (_, seat) => ({ name: `Player ${seat}`, bot: false }));
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
      const accepted = await tables.submit(tableId, move);
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
