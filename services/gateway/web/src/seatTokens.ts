/** The seat a browser holds at each table, kept in localStorage so a reload keeps the seat. */

export interface HeldSeat {
  readonly seat: number;
  readonly token: string;
}

const key = (tableId: string) => `suitors.seat.${tableId}`;

export function heldSeat(tableId: string): HeldSeat | null {
  try {
    const held = JSON.parse(localStorage.getItem(key(tableId)) ?? 'null') as HeldSeat | null;
    return held !== null && typeof held.token === 'string' && typeof held.seat === 'number' ? held : null;
  } catch {
    return null;
  }
}

export function holdSeat(tableId: string, held: HeldSeat): void {
  localStorage.setItem(key(tableId), JSON.stringify(held));
}

export function releaseSeat(tableId: string): void {
  localStorage.removeItem(key(tableId));
}

export function playerName(): string {
  return localStorage.getItem('suitors.name') ?? '';
}

export function rememberPlayerName(name: string): void {
  localStorage.setItem('suitors.name', name);
}

const leftKey = (tableId: string) => `suitors.left.${tableId}`;

/** The seat this browser left at a table, so it can offer to take it back. */
export function leftSeat(tableId: string): number | null {
  const seat = Number(localStorage.getItem(leftKey(tableId)) ?? 'NaN');
  return Number.isInteger(seat) ? seat : null;
}

export function rememberLeftSeat(tableId: string, seat: number | null): void {
  if (seat === null) localStorage.removeItem(leftKey(tableId));
  else localStorage.setItem(leftKey(tableId), String(seat));
}

/** What this browser chose when it opened a table that the API does not show again (the turn clock), for a rematch. */
export interface OpenedTable {
  readonly turnSeconds: number | null;
  readonly rematchOf?: string;
}

const openedKey = 'suitors.opened';

function openedTables(): Record<string, OpenedTable> {
  try {
    return (JSON.parse(localStorage.getItem(openedKey) ?? '{}') as Record<string, OpenedTable>) ?? {};
  } catch {
    return {};
  }
}

export function rememberOpenedTable(tableId: string, opened: OpenedTable): void {
  localStorage.setItem(openedKey, JSON.stringify({ ...openedTables(), [tableId]: opened }));
}

/** Tables this browser opened, sits at or left: the lobby's "my tables". */
export function isMyTable(tableId: string): boolean {
  return heldSeat(tableId) !== null || leftSeat(tableId) !== null || tableId in openedTables();
}
