/**
 * What changed between two versions of a viewer's view, as a list of
 * `[path, value]` settings: the socket's `changes` messages (docs/api.md,
 * "WebSocket"). Most of a view stays as it was from one move to the next
 * (the tricks of the hand, the score sheet, the options, the other seats),
 * so a client that holds the last version is sent what differs, a few
 * hundred bytes, not the whole view again: less to serialise and write for
 * the gateway, and less to read for every client.
 *
 * The gateway computes the changes (`viewChanges`), the web client and the
 * drivers apply them (`withChanges`); both work on plain JSON values, so
 * what a client rebuilds is exactly the JSON of the later view. Pure: no
 * imports, so the web client bundles it as it is.
 */

/** A JSON value as views hold it. */
export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

/** Where a value is: object keys and array indexes from the top. */
type JsonPath = readonly (string | number)[];

/**
 * Set the value at the path, in order. An index one past an array's end
 * appends; a path that ends at the top (`[]`) replaces the whole value.
 */
export type ViewChange = readonly [path: JsonPath, value: Json];

/**
 * The settings that turn `before` into `after`. Values the two share by
 * identity are skipped without a look (the machine's context keeps what a
 * move does not touch); objects and arrays of equal length are compared
 * key by key; an array that grew is compared over its old length and the
 * rest appended; anything else that differs is set whole.
 */
export function viewChanges(before: unknown, after: unknown): ViewChange[] {
  const changes: ViewChange[] = [];
  collect(before, after, [], changes);
  return changes;
}

function collect(before: unknown, after: unknown, path: (string | number)[], changes: ViewChange[]): void {
  if (before === after) return;
  if (typeof before !== 'object' || before === null || typeof after !== 'object' || after === null) {
    changes.push([[...path], after as Json]);
    return;
  }
  const isArray = Array.isArray(after);
  if (isArray !== Array.isArray(before)) {
    changes.push([[...path], after as Json]);
    return;
  }
  if (isArray) {
    const was = before as readonly unknown[];
    const is = after as readonly unknown[];
    if (is.length < was.length) {
      changes.push([[...path], after as Json]);
      return;
    }
    for (let index = 0; index < is.length; index++) {
      path.push(index);
      if (index < was.length) collect(was[index], is[index], path, changes);
      else changes.push([[...path], is[index] as Json]);
      path.pop();
    }
    return;
  }
  const was = before as JsonObject;
  const is = after as JsonObject;
  if (!sameKeys(was, is)) {
    changes.push([[...path], after as Json]);
    return;
  }
  for (const key in is) {
    path.push(key);
    collect(was[key], is[key], path, changes);
    path.pop();
  }
}

type JsonObject = { readonly [key: string]: unknown };

/** The same keys, none of them undefined (JSON leaves an undefined key out, so it could not be set). */
function sameKeys(before: JsonObject, after: JsonObject): boolean {
  let keys = 0;
  for (const key in before) {
    if (before[key] === undefined) return false;
    keys++;
  }
  for (const key in after) {
    if (after[key] === undefined || !Object.hasOwn(before, key)) return false;
    keys--;
  }
  return keys === 0;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `value` with the changes made, as a new value: what it shares with
 * `value` is not copied, and `value` itself is left as it was, so a client
 * may keep the older version. Each object or array on the changes' paths is
 * copied once for all of them, not once for each (a move's changes mostly
 * land in the same few places: the hand, the trick, the seats).
 */
export function withChanges<T>(value: T, changes: readonly ViewChange[]): T {
  const copies = new Set<unknown>();
  let result: unknown = value;
  for (const [path, setting] of changes) result = setAt(result, path, 0, setting, copies);
  return result as T;
}

/**
 * A socket's `changes` message applied to the message a client holds: the
 * next version's message, as a whole `view` message would have brought it
 * (the paths start at `view`, `turnDeadline` and `activeStates`, so what
 * else the held message carries stays). Null when the changes are not from
 * the version held: they cannot be applied, and the client should connect
 * again from the version it holds.
 */
export function nextVersionOf<T extends { readonly version: number }>(
  held: T,
  message: { readonly from: number; readonly version: number; readonly changes: readonly ViewChange[] },
): T | null {
  if (held.version !== message.from) return null;
  return { ...withChanges(held, message.changes), version: message.version };
}

/** `copies`: the containers this `withChanges` made, which it may change in place; nothing else is written to. */
function setAt(target: unknown, path: JsonPath, depth: number, value: Json, copies: Set<unknown>): unknown {
  if (depth === path.length) return value;
  const key = path[depth];
  if (Array.isArray(target) && typeof key === 'number' && Number.isInteger(key) && key >= 0 && key <= target.length) {
    const copy: unknown[] = copies.has(target) ? target : madeBy(copies, target.slice());
    copy[key] = setAt(target[key], path, depth + 1, value, copies);
    return copy;
  }
  if (isObject(target) && typeof key === 'string' && Object.hasOwn(target, key)) {
    const copy: Record<string, unknown> = copies.has(target) ? (target as Record<string, unknown>) : madeBy(copies, { ...target });
    copy[key] = setAt(target[key], path, depth + 1, value, copies);
    return copy;
  }
  throw new Error(`a change's path ${JSON.stringify(path)} does not fit the view at ${JSON.stringify(path.slice(0, depth + 1))}`);
}

function madeBy<C>(copies: Set<unknown>, copy: C): C {
  copies.add(copy);
  return copy;
}
