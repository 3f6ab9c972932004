/**
 * The one reading of a whole number written as text — a path part, a query
 * value, an environment setting, a command-line flag: decimal digits in
 * their one canonical spelling, with no sign and no leading zero ("0", "7",
 * "12"), and nothing else. `Number()` and `parseInt()` read far more (" " as
 * 0, "1.5" as 1, "0x10" as 16, "1e3" as 1000), so a client sending any of
 * those would get something it did not write; and with one spelling per
 * number, "seats/01", "seats/-0" and "at=05" are not second names for
 * seat 1, seat 0 and event 5 (issue 26). No caller takes a negative number.
 */

const WHOLE_NUMBER = /^(?:0|[1-9]\d{0,14})$/;

/** The number `text` writes, or null when it is not a whole number in decimal digits. */
export function parseWholeNumber(text: string): number | null {
  return WHOLE_NUMBER.test(text) ? Number(text) : null;
}

/** What to say when `text`, given for `name`, is not a whole number. */
export function notWholeNumber(name: string, text: string): string {
  const shown = text.length > 40 ? `${JSON.stringify(text.slice(0, 37))}...` : JSON.stringify(text);
  return `${name} must be a whole number written in decimal digits, with no sign or leading zero (like 3), not ${shown}`;
}
