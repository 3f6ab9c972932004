/**
 * Plays the bot seats of a table from outside, through the host's command
 * API, exactly as a remote player would: every bot move is validated, logged
 * and announced like anyone else's. For the tests and the host benchmark,
 * which want a table's bots played now and in order, with a seeded random
 * bot; the service plays its own bots with services/bots/botRunner.ts.
 */
import type { Rng } from '../machines/cards/shuffle.js';
import { randomMove } from '../machines/bots/randomBot.js';
import type { TableSnapshot } from '../machines/table/snapshot.js';
import type { PlayerCommand } from '../machines/table/events.js';
import { awaitedBots } from '../services/bots/botRunner.js';
import type { TableHost } from '../services/host/tableHost.js';
import type { Accepted } from '../services/host/tableService.js';

/** The move one of the table's bot seats would make now, or null when no bot is awaited. */
export function nextBotMove(snapshot: TableSnapshot, rng: Rng): PlayerCommand | null {
  const awaited = awaitedBots(snapshot);
  if (awaited.length === 0) return null;
  const { seat, action } = awaited[rng.below(awaited.length)];
  return randomMove(snapshot, seat, action, rng);
}

/**
 * Submits bot moves until no bot seat is awaited (for an all-bot table: until
 * the game is over). Calls `onAccepted` after each acknowledged move.
 */
export async function playBotTurns(
  host: TableHost,
  tableId: string,
  rng: Rng,
  onAccepted?: (accepted: Accepted, move: PlayerCommand) => void,
): Promise<number> {
  let moves = 0;
  for (;;) {
    const { snapshot } = await host.snapshot(tableId);
    const move = nextBotMove(snapshot, rng);
    if (move === null) return moves;
    const accepted = await host.submit(tableId, move);
    moves++;
    onAccepted?.(accepted, move);
  }
}
