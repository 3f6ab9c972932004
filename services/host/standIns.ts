/**
 * Bots that hold a seat for a person: the bot that takes over from a player
 * who left, and every bot of a table played on from another game's replay.
 * A person may take such a seat; the web client knows them by their name.
 */

const NAME_LIMIT = 40;
const STAND_IN_PREFIX = 'Bot for ';

/** The name of a bot holding `player`'s seat ("Bot for Ada"); a stand-in's own name is kept, not wrapped again. */
export function standInName(player: string): string {
  return player.startsWith(STAND_IN_PREFIX) ? player.slice(0, NAME_LIMIT) : `${STAND_IN_PREFIX}${player}`.slice(0, NAME_LIMIT);
}
