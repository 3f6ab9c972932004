/**
 * The names a table shows for its people (issue 26): what a client may
 * call itself when it takes a seat or forks a game, and the names the
 * bots carry, which no person may take.
 *
 * A name is read in Unicode NFC with the white space and invisible
 * characters around it trimmed, and is refused, naming the rule it broke
 * (the refusal's `rule`), when it
 *
 * - `unpaired`: holds half of a surrogate pair (not text at all);
 * - `control`: holds a control character (NUL, BEL, tab, newlines, DEL,
 *   C1) or a line or paragraph separator, which would break the line a
 *   table, a log or a record shows it on;
 * - `bidi`: holds a bidirectional formatting character (overrides,
 *   embeddings, isolates, marks), which would turn the text shown after it
 *   around ("Ada\u202Eevol" shows as "Adalove");
 * - `invisible`: is nothing but white space and invisible characters
 *   (zero-width spaces and joiners, fillers, variation selectors): a
 *   player nobody can see. Inside a visible name they stay (an emoji
 *   sequence or a Persian name needs its joiners);
 * - `length`: is over PLAYER_NAME_MAX characters (code points) in NFC;
 * - `botName`: reads as a bot's name (whatever its case, width or spacing),
 *   which the table and the web client would show as a bot's seat.
 */
import type { BotKind } from '../bots/botRunner.js';
import { STAND_IN_PREFIX } from '../host/standIns.js';
import { GatewayRefusal } from './refusals.js';

export const PLAYER_NAME_MAX = 40;
/**
 * The longest name a request may send (the schema's bound, 400 past it):
 * room for what trimming and NFC take off, while what a name may cost
 * stays small.
 */
export const PLAYER_NAME_SENT_MAX = 4 * PLAYER_NAME_MAX;

export type NameRule = 'unpaired' | 'control' | 'bidi' | 'invisible' | 'length' | 'botName';

/** With the u flag, a pair is one code point: only half of one matches. */
const UNPAIRED = /\p{Cs}/u;
const CONTROL = /[\p{Cc}\p{Zl}\p{Zp}]/u;
const BIDI = /\p{Bidi_Control}/u;
const INVISIBLE = /[\p{White_Space}\p{Default_Ignorable_Code_Point}]/u;
const INVISIBLE_AROUND = /^[\p{White_Space}\p{Default_Ignorable_Code_Point}]+|[\p{White_Space}\p{Default_Ignorable_Code_Point}]+$/gu;
const TABLE_BOT = /^(?:heuristic|random) bot \d+$/;

/** The name of a bot a table was made with ("Heuristic bot 2", "Random bot 3"). */
export function tableBotName(kind: BotKind, seat: number): string {
  return `${kind === 'random' ? 'Random' : 'Heuristic'} bot ${seat}`;
}

/** Whether `name` reads as a bot's: a table's own bot, or one standing in for a player ("Bot for Ada"). */
export function readsAsBotName(name: string): boolean {
  // NFKC folds the full-width and styled letters ("Ｈeuristic") into the plain ones a reader sees.
  const plain = name.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
  return TABLE_BOT.test(plain) || plain.startsWith(STAND_IN_PREFIX.toLowerCase().trim());
}

/** The name as the table will show it (NFC, trimmed), or the rule it breaks and what would be right. */
export function checkPlayerName(given: string, field: string): { name: string } | { rule: NameRule; message: string } {
  if (UNPAIRED.test(given)) {
    return { rule: 'unpaired', message: `${field} holds half of a surrogate pair, which is not a character; send the name as UTF-16 text` };
  }
  // Checked before trimming: a bidi override or a newline at either end is still sent, and refused, not trimmed away.
  const control = CONTROL.exec(given);
  if (control !== null) {
    return {
      rule: 'control',
      message: `${field} may not hold control characters or line breaks (it holds ${codePoint(control[0])}); a name is one line of text`,
    };
  }
  const bidi = BIDI.exec(given);
  if (bidi !== null) {
    return {
      rule: 'bidi',
      message: `${field} may not hold bidirectional formatting characters (it holds ${codePoint(bidi[0])}), which turn the text shown around them`,
    };
  }
  const name = given.normalize('NFC').replace(INVISIBLE_AROUND, '');
  if (name.replace(new RegExp(INVISIBLE.source, 'gu'), '') === '') {
    return { rule: 'invisible', message: `${field} must hold a character people can see, not only white space or invisible characters` };
  }
  const length = [...name].length;
  if (length > PLAYER_NAME_MAX) {
    return { rule: 'length', message: `${field} may be at most ${PLAYER_NAME_MAX} characters long, not ${length}` };
  }
  if (readsAsBotName(name)) {
    return {
      rule: 'botName',
      message: `${field} may not read as a bot's name ("Heuristic bot 1", "Random bot 2", "Bot for ..."): the table would show a person as a bot`,
    };
  }
  return { name };
}

/** The name as the table will show it; a name that breaks a rule is refused (400), naming the rule. */
export function playerName(given: string, field: string): string {
  const checked = checkPlayerName(given, field);
  if ('name' in checked) return checked.name;
  throw new GatewayRefusal('badRequest', checked.message, { rule: checked.rule });
}

function codePoint(character: string): string {
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
