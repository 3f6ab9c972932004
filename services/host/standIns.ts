/**
 * Bots that hold a seat for a person: the bot that takes over from a player
 * who left, and every bot of a table played on from another game's replay.
 * A person may take such a seat; the web client knows them by their name.
 */

const NAME_LIMIT = 40;
export const STAND_IN_PREFIX = 'Bot for ';

/** The name of a bot holding `player`'s seat ("Bot for Ada"); a stand-in's own name is kept, not wrapped again. */
export function standInName(player: string): string {
  return firstCharacters(player.startsWith(STAND_IN_PREFIX) ? player : `${STAND_IN_PREFIX}${player}`, NAME_LIMIT);
}

/** The first `count` characters (code points) of `text`: a cut by UTF-16 units could leave half of a surrogate pair. */
function firstCharacters(text: string, count: number): string {
  return Array.from(text).slice(0, count).join('');
}
