/**
 * What every seat-token adapter promises (seatTokens.ts), as one vitest
 * suite, modelled on the event store's (eventstore/eventStore.contract.ts).
 * An adapter's test file calls describeSeatTokensContract with a function
 * that opens the tokens kept at a place (a file, a bucket's namespace):
 * each test asks for places of its own, so it starts empty, and an adapter
 * that persists is opened at the same place again to show it kept them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { hashToken, type SeatTokens } from './seatTokens.js';

interface SeatTokensAdapter {
  /** The tokens kept at `place` (letters, digits and '-'): empty the first time it is named. */
  open(place: string): Promise<SeatTokens>;
  /** Whether tokens outlive a close: opening the same place again finds them. */
  readonly persists: boolean;
  /** After each test, once its stores are closed. */
  readonly cleanup?: () => Promise<void> | void;
}

/** A well-shaped token differing from `token` in its last character. */
function oneOff(token: string): string {
  return `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
}

export function describeSeatTokensContract(name: string, adapter: SeatTokensAdapter): void {
  describe(`${name}: seat tokens contract`, () => {
    const opened: SeatTokens[] = [];
    let places = 0;
    const run = Math.random().toString(36).slice(2, 8);

    /** Tokens at a place no other test uses; `again` opens the place of an earlier call. */
    async function openTokens(again?: string): Promise<{ tokens: SeatTokens; place: string }> {
      const place = again ?? `contract-${run}-${++places}`;
      const tokens = await adapter.open(place);
      opened.push(tokens);
      return { tokens, place };
    }

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((tokens) => tokens.close()));
      await adapter.cleanup?.();
    });

    it('issues unguessable tokens, each bound to one table and seat', async () => {
      const { tokens } = await openTokens();
      const first = await tokens.issue({ tableId: 't-1', seat: 2 });
      const again = await tokens.issue({ tableId: 't-1', seat: 2 });
      const second = await tokens.issue({ tableId: 't-1', seat: 3 });
      expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(new Set([first, again, second]).size).toBe(3);
      expect(await tokens.resolve(first)).toEqual({ tableId: 't-1', seat: 2 });
      expect(await tokens.resolve(again)).toEqual({ tableId: 't-1', seat: 2 });
      expect(await tokens.resolve(second)).toEqual({ tableId: 't-1', seat: 3 });
    });

    it('knows no token it did not issue, and nothing shaped unlike a token', async () => {
      const { tokens } = await openTokens();
      const token = await tokens.issue({ tableId: 't-1', seat: 0 });
      expect(await tokens.resolve(oneOff(token))).toBeNull();
      expect(await tokens.resolve('')).toBeNull();
      expect(await tokens.resolve('x'.repeat(10_000))).toBeNull();
      expect(await tokens.resolve(`${token} `)).toBeNull();
    });

    it('records a token it is given, and recording it again for the seat is harmless', async () => {
      const { tokens } = await openTokens();
      const given = 'G'.repeat(43);
      expect(await tokens.issue({ tableId: 't-1', seat: 1 }, given)).toBe(given);
      expect(await tokens.issue({ tableId: 't-1', seat: 1 }, given)).toBe(given);
      expect(await tokens.resolve(given)).toEqual({ tableId: 't-1', seat: 1 });
      expect(await tokens.revokeSeat({ tableId: 't-1', seat: 1 })).toBe(1);
      expect(await tokens.resolve(given)).toBeNull();
    });

    it('revokes every token of a seat, and only that seat, saying how many there were', async () => {
      const { tokens } = await openTokens();
      const seatTwo = [await tokens.issue({ tableId: 't-1', seat: 2 }), await tokens.issue({ tableId: 't-1', seat: 2 })];
      const seatThree = await tokens.issue({ tableId: 't-1', seat: 3 });
      expect(await tokens.revokeSeat({ tableId: 't-1', seat: 2 })).toBe(2);
      for (const token of seatTwo) expect(await tokens.resolve(token)).toBeNull();
      expect(await tokens.resolve(seatThree)).toEqual({ tableId: 't-1', seat: 3 });
      expect(await tokens.revokeSeat({ tableId: 't-1', seat: 2 })).toBe(0);
      expect(await tokens.revokeSeat({ tableId: 't-unknown', seat: 0 })).toBe(0);
    });

    it('keeps tables apart: revoking a seat leaves the same seat of every other table', async () => {
      const { tokens } = await openTokens();
      // t-1 a prefix of t-10, and ids a subject or key could not hold as they are.
      const tables = ['t-1', 't-10', 't.1', 't 1 ♥', 't-1.2'];
      const issued = await Promise.all(tables.map((tableId) => tokens.issue({ tableId, seat: 2 })));
      expect(await tokens.revokeSeat({ tableId: 't-1', seat: 2 })).toBe(1);
      expect(await tokens.resolve(issued[0])).toBeNull();
      for (const [index, tableId] of tables.entries()) {
        if (index > 0) expect(await tokens.resolve(issued[index])).toEqual({ tableId, seat: 2 });
      }
    });

    it('revokes one token by its hash (the holder), leaving the seat its other tokens', async () => {
      const { tokens } = await openTokens();
      const [kept, revoked] = [await tokens.issue({ tableId: 't-1', seat: 0 }), await tokens.issue({ tableId: 't-1', seat: 0 })];
      await tokens.revoke(hashToken(revoked));
      expect(await tokens.resolve(revoked)).toBeNull();
      expect(await tokens.resolve(kept)).toEqual({ tableId: 't-1', seat: 0 });
      await tokens.revoke(hashToken(revoked));
      await tokens.revoke(hashToken('N'.repeat(43)));
      expect(await tokens.revokeSeat({ tableId: 't-1', seat: 0 })).toBe(1);
    });

    it('moves a token recorded again for another seat: it holds the new seat alone', async () => {
      const { tokens } = await openTokens();
      const token = await tokens.issue({ tableId: 't-1', seat: 0 });
      await tokens.issue({ tableId: 't-2', seat: 3 }, token);
      expect(await tokens.resolve(token)).toEqual({ tableId: 't-2', seat: 3 });
      // Revoking the seat it left does not take it from the seat it holds.
      expect(await tokens.revokeSeat({ tableId: 't-1', seat: 0 })).toBe(0);
      expect(await tokens.resolve(token)).toEqual({ tableId: 't-2', seat: 3 });
      expect(await tokens.revokeSeat({ tableId: 't-2', seat: 3 })).toBe(1);
      expect(await tokens.resolve(token)).toBeNull();
    });

    if (adapter.persists)
      it('keeps tokens and revocations across a close and reopen, and apart from another place', async () => {
        const { tokens, place } = await openTokens();
        const kept = await tokens.issue({ tableId: 't-9', seat: 0 });
        const revoked = await tokens.issue({ tableId: 't-9', seat: 1 });
        await tokens.revokeSeat({ tableId: 't-9', seat: 1 });
        await tokens.close();
        const { tokens: reopened } = await openTokens(place);
        expect(await reopened.resolve(kept)).toEqual({ tableId: 't-9', seat: 0 });
        expect(await reopened.resolve(revoked)).toBeNull();
        const { tokens: elsewhere } = await openTokens();
        expect(await elsewhere.resolve(kept)).toBeNull();
      });
  });
}
