/**
 * GET /replay?seat=S: a finished game's replay as one seat saw it, that
 * seat's own view from viewFor; refused during play and for a seat the table
 * has not.
 */
import { describe, expect, it } from 'vitest';
import { viewFor } from '../../machines/view.js';
import { ADMIN } from '../../drivers/embeddedService.js';
import { servicesClosedAfterEach } from '../../test/servicesPerTest.js';
import { createdTable, finishedBotGame } from '../../test/kit/serviceTables.js';

const startService = servicesClosedAfterEach();

describe('a replay as one seat saw it', () => {
  it("answers that seat's own view at the event, from the same view function as live play", async () => {
    const service = startService();
    const tableId = await finishedBotGame(service);
    const events = await service.host.events(tableId);
    // Mid-trick: a seat to play has legal cards, which only its own view shows.
    const at = events.findIndex((event, index) => index > 20 && event.type === 'card.played') + 1;
    const { snapshot } = await service.host.replayAt(tableId, at);
    const turn = snapshot.context.hand!.turn!;
    for (const seat of [turn, (turn + 1) % 4]) {
      const answer = await service.app.inject({ method: 'GET', url: `/api/tables/${tableId}/replay?at=${at}&seat=${seat}` });
      expect(answer.statusCode, answer.body).toBe(200);
      const { view } = answer.json();
      expect(view).toEqual(JSON.parse(JSON.stringify(viewFor(snapshot, seat))));
      expect(view.open).toBeUndefined();
      expect(view.viewer).toBe(seat);
    }
    const own = (await service.app.inject({ method: 'GET', url: `/api/tables/${tableId}/replay?at=${at}&seat=${turn}` })).json().view;
    expect(own.hand.legalCards.length).toBeGreaterThan(0);
  });

  it('is refused while the game is in play (409), and for a seat the table has not (400), changing nothing', async () => {
    const service = startService();
    const playing = await createdTable(service, { game: 'antiCupid', bots: [1, 2, 3, 4] });
    const during = await service.app.inject({ method: 'GET', url: `/api/tables/${playing}/replay?at=1&seat=1` });
    expect(during.statusCode).toBe(409);
    expect(during.json()).toEqual({
      error: 'notNow',
      message: `the game is not over; a replay as seat 1 saw it shows that seat's hand, so it opens when the game at table ${playing} is over (it is in seating); leave out seat for the spectator's replay`,
    });
    const spectator = await service.app.inject({ method: 'GET', url: `/api/tables/${playing}/replay?at=1` });
    expect(spectator.statusCode).toBe(200);

    const tableId = await finishedBotGame(service);
    const version = (await service.host.events(tableId)).length;
    const outOfRange = await service.app.inject({ method: 'GET', url: `/api/tables/${tableId}/replay?at=3&seat=4` });
    expect(outOfRange.statusCode).toBe(400);
    expect(outOfRange.json()).toEqual({
      error: 'badRequest',
      message: 'query.seat must be from 0 to 3 at a table of Seven Suitors, not 4',
    });
    for (const [given, message] of [
      ['1.5', 'query.seat must be a whole number written in decimal digits, with no sign or leading zero (like 3), not "1.5"'],
      ['0x1', 'query.seat must be a whole number written in decimal digits, with no sign or leading zero (like 3), not "0x1"'],
      ['', 'query.seat must be a whole number written in decimal digits, with no sign or leading zero (like 3), not ""'],
    ]) {
      const answer = await service.app.inject({ method: 'GET', url: `/api/tables/${tableId}/replay?at=3&seat=${given}` });
      expect(answer.statusCode, given).toBe(400);
      expect(answer.json(), given).toEqual({ error: 'badRequest', message });
    }
    const negative = await service.app.inject({ method: 'GET', url: `/api/tables/${tableId}/replay?at=3&seat=-1` });
    expect(negative.statusCode).toBe(400);
    expect((await service.host.events(tableId)).length).toBe(version);
    const admin = await service.app.inject({ method: 'GET', url: `/api/tables/${playing}/replay?at=1&seat=1`, headers: ADMIN });
    expect(admin.statusCode).toBe(409);
  });
});
