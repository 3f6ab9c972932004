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

/**
 * The name of a bot taking over `seat` from its `occupant`: a person's stand-in is named for them; a bot (a table's
 * own, or already a stand-in) is not a person to name, so its stand-in keeps a stand-in's name without stacking
 * ("Bot for Heuristic bot 1" read as a bot holding a bot's place).
 */
export function standInFor(occupant: { readonly name: string; readonly bot: boolean } | null, seat: number): string {
  if (occupant?.name.startsWith(STAND_IN_PREFIX) === true) return standInName(occupant.name);
  return standInName(occupant === null || occupant.bot ? `seat ${seat}` : occupant.name);
}

/** The first `count` characters (code points) of `text`: a cut by UTF-16 units could leave half of a surrogate pair. */
function firstCharacters(text: string, count: number): string {
  return Array.from(text).slice(0, count).join('');
}
