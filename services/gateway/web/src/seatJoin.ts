/**
 * Taking a seat with a token this browser made itself (docs/api.md, POST
 * /api/tables/:id/seats/:seat `{ name, token }`), so that a join whose
 * answer was lost can be sent again and gets the same seat instead of
 * "seat taken". The token is kept as pending before the first send, so even
 * a reload in between sends the same one; once seated it is kept where every
 * held seat is (seatTokens.ts).
 */
import { ApiError, api } from './api.js';
import { holdSeat, type HeldSeat } from './seatTokens.js';

/** Waits before each resend: the service may be restarting or shedding load (503). */
const RESEND_AFTER_MS = [250, 500, 1_000, 2_000];

const pendingKey = (tableId: string, seat: number) => `suitors.joining.${tableId}.${seat}`;

/** 32 random bytes, base64url without padding: the 43 characters the API asks of a client's own token. */
export function newSeatToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

function pendingToken(tableId: string, seat: number): string {
  const kept = localStorage.getItem(pendingKey(tableId, seat));
  if (kept !== null && /^[A-Za-z0-9_-]{43}$/.test(kept)) return kept;
  const token = newSeatToken();
  localStorage.setItem(pendingKey(tableId, seat), token);
  return token;
}

/** A join whose outcome is unknown: no answer, or the service's own trouble. A refusal (4xx) is an answer. */
function outcomeUnknown(error: unknown): boolean {
  return !(error instanceof ApiError) || error.status >= 500;
}

/** Takes `seat` at `tableId` as `name`, sending the join again while its outcome is unknown; keeps and returns the seat held. */
export async function joinSeat(tableId: string, seat: number, name: string): Promise<HeldSeat> {
  const token = pendingToken(tableId, seat);
  for (let attempt = 0; ; attempt++) {
    try {
      const taken = await api.takeSeat(tableId, seat, name, token);
      const held = { seat: taken.seat, token: taken.token };
      holdSeat(tableId, held);
      localStorage.removeItem(pendingKey(tableId, seat));
      return held;
    } catch (error) {
      if (!outcomeUnknown(error)) localStorage.removeItem(pendingKey(tableId, seat));
      if (!outcomeUnknown(error) || attempt >= RESEND_AFTER_MS.length) throw error;
      await new Promise((resolve) => setTimeout(resolve, RESEND_AFTER_MS[attempt]));
    }
  }
}
