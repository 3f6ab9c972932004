/** Seat tokens in memory, for tests and throwaway services: forgotten on restart. */
import { hashToken, looksLikeToken, newToken, type SeatGrant, type SeatTokens } from './seatTokens.js';

export function createMemorySeatTokens(): SeatTokens {
  const grants = new Map<string, SeatGrant>();
  return {
    async issue(grant, token = newToken()) {
      grants.set(hashToken(token), { tableId: grant.tableId, seat: grant.seat });
      return token;
    },
    async resolve(token) {
      if (!looksLikeToken(token)) return null;
      return grants.get(hashToken(token)) ?? null;
    },
    async revokeSeat({ tableId, seat }) {
      let revoked = 0;
      for (const [hash, grant] of grants) {
        if (grant.tableId === tableId && grant.seat === seat) {
          grants.delete(hash);
          revoked++;
        }
      }
      return revoked;
    },
    async revoke(holder) {
      grants.delete(holder);
    },
    async close() {
      grants.clear();
    },
  };
}
