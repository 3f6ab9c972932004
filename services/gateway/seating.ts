/**
 * Seats changing hands. A person takes an open seat, or a seat whose bot
 * stands in for a player who left (the bot leaves first). A player who
 * leaves a game under way is replaced by a standing-in bot at once; before
 * the game starts the seat just opens again. A person's seat is taken in one
 * event that carries the hash of their token (the seat's tenure); the token
 * store indexes it. Leaving revokes the seat's tokens and closes the
 * leaver's sockets, since from then on that seat's view is someone else's.
 */
import { GAMES } from '../../machines/table/options.js';
import { phaseOf } from '../../machines/table/snapshot.js';
import { holdersOf, seatHeldBy } from '../../machines/table/context.js';
import type { Seat } from '../../machines/rules/trick.js';
import { hashToken, newToken, type SeatHold, type SeatTokens } from '../tokens/seatTokens.js';
import { standInName } from '../host/standIns.js';
import { GatewayRefusal } from './refusals.js';
import { SEAT_CHANGED_HANDS } from './socketProtocol.js';
import { isTableRefusal } from '../host/errors.js';
import { HELD_BY_A_BOT } from '../host/tenure.js';
import type { TableFeed } from './tableFeed.js';
import type { TableWatchers } from './tableWatchers.js';

export { standInName };

export interface Seating {
  /** With `token` (made by the client), a join sent again after its answer was lost finds the seat already its own. */
  join(tableId: string, seat: Seat, name: string, token?: string): Promise<{ version: number; token: string }>;
  /**
   * Seats a person by the hash of a token made and kept elsewhere (a rematch's, where each person sent theirs
   * through their own gateway): the token index learns it from the log at the token's first use (auth.ts).
   */
  joinAs(tableId: string, seat: Seat, name: string, holder: string): Promise<{ version: number }>;
  leave(hold: SeatHold): Promise<{ version: number }>;
}

export function createSeating(feed: TableFeed, tokens: SeatTokens, watchers: TableWatchers): Seating {
  /** Seats the person whose token is `given` (a new one when neither it nor its hash is given). */
  const take = (tableId: string, seat: Seat, name: string, given: { token?: string; holder?: string }) =>
    feed.withTable(tableId, 'player', async (table) => {
      const { snapshot, facts } = table.current;
      const { context } = snapshot;
      if (seat >= context.seatCount) {
        const { title } = GAMES[context.game];
        throw new GatewayRefusal('malformed', `seat must be from 0 to ${context.seatCount - 1} at a table of ${title}, not ${seat}`);
      }
      // The same join again (its answer was lost, or its gateway died after the seat event): the seat is this token's already.
      const givenHolder = given.holder ?? (given.token === undefined ? undefined : hashToken(given.token));
      if (givenHolder !== undefined && seatHeldBy(context, seat, givenHolder) && holdersOf(context)[seat] !== null) {
        if (given.token !== undefined) await tokens.issue({ tableId, seat }, given.token).catch(() => undefined);
        return { version: table.current.version, token: given.token };
      }
      if (phaseOf(snapshot) === 'gameOver')
        throw new GatewayRefusal('notNow', `the game at table ${tableId} is over; its seats can no longer be taken`);
      const occupant = context.occupants[seat];
      if (occupant !== null && !occupant.bot) throw new GatewayRefusal('notNow', `seat ${seat} is taken by ${occupant.name}`);
      if (occupant !== null && !facts.standIns.has(seat)) {
        const open = context.occupants.flatMap((each, other) => (each === null || facts.standIns.has(other) ? [other] : []));
        const choices = open.length === 0 ? 'no seat at this table is free' : `seats free to take: ${open.join(', ')}`;
        throw new GatewayRefusal('notNow', `seat ${seat} is played by a bot the table was made with; ${choices}`);
      }
      if (occupant !== null) {
        // Only if the bot still holds it: through another gateway someone may have taken the seat meanwhile.
        await table.submit({ type: 'seat.left', seat }, { holder: HELD_BY_A_BOT }).catch((error: unknown) => {
          throw isTableRefusal(error) && error.kind === 'notHolder'
            ? new GatewayRefusal('notNow', `seat ${seat} was taken by someone else just now`)
            : error;
        });
        watchers.dismissSeat(tableId, seat, SEAT_CHANGED_HANDS, `seat ${seat} changed hands`);
      }
      // The seat and its tenure (the token's hash) are one event; the token store only indexes it, and a token it
      // does not know is looked up in the table itself (auth.ts). So the index is written first and need not be:
      // should the seat event then fail it holds a token that no tenure names, which acts for no one.
      const token = given.holder === undefined ? (given.token ?? newToken()) : undefined;
      const holder = givenHolder ?? hashToken(token!);
      if (token !== undefined) await tokens.issue({ tableId, seat }, token).catch(() => undefined);
      try {
        await table.submit({ type: 'seat.joined', seat, player: { name, bot: false }, holder });
      } catch (error) {
        await tokens.revoke(holder).catch(() => undefined);
        throw error;
      }
      return { version: table.current.version, token };
    });

  return {
    async join(tableId, seat, name, givenToken) {
      const { version, token } = await take(tableId, seat, name, givenToken === undefined ? {} : { token: givenToken });
      return { version, token: token! };
    },

    async joinAs(tableId, seat, name, holder) {
      return { version: (await take(tableId, seat, name, { holder })).version };
    },

    leave(hold) {
      const { tableId, seat, holder } = hold;
      return feed.withTable(tableId, 'player', async (table) => {
        const { snapshot } = table.current;
        const occupant = snapshot.context.occupants[seat];
        // A token whose tenure is over (the seat was left, or is someone else's now) is given up and changes nothing else.
        if (occupant === null || !seatHeldBy(snapshot.context, seat, holder)) {
          await tokens.revoke(holder);
          throw new GatewayRefusal('forbidden', `seat ${seat} at table ${tableId} is no longer held by this token's player`);
        }
        // The leaver's own token goes first: from here on it resolves to nothing, even if what follows fails. Only its
        // own: on NATS another gateway may seat someone the moment the seat is free, whose token must stay.
        await tokens.revoke(holder);
        const phase = phaseOf(snapshot);
        // A finished game keeps its players on record; leaving it only gives the token up.
        if (phase !== 'gameOver') {
          // The table checks the tenure again in its own queue: another gateway may have seated someone since.
          await table.submit({ type: 'seat.left', seat }, { holder });
          if (phase !== 'seating') {
            await table.submit({ type: 'seat.joined', seat, player: { name: standInName(occupant.name), bot: true } });
          }
        }
        watchers.dismissSeat(tableId, seat, SEAT_CHANGED_HANDS, `seat ${seat} was left`);
        return { version: table.current.version };
      });
    },
  };
}
