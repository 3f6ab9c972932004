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
