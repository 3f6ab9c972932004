/**
 * A fork played on by one of a game's people keeps the other people's
 * seats open for them, as a new table does (issue 33: "after a fork the
 * bots play on at once"): the game waits at such a seat's turn until its
 * person takes it, or a seated person starts bots in it (POST .../start).
 */
import { describe, expect, it } from 'vitest';
import { phaseOf } from '../../machines/table/snapshot.js';
import { bearer, httpBaseOf, listen, type TestService } from '../../drivers/embeddedService.js';
import { waitFor } from '../../drivers/polling.js';
import { playSeat, type SeatPlay } from '../../test/seatPlayer.js';
import { servicesClosedAfterEach } from '../../test/servicesPerTest.js';

const service = servicesClosedAfterEach();

/** A finished one-hand game where Ada (seat 0) and Bob (seat 1) played with two bots. */
async function gameOfTwoPeople(started: TestService): Promise<string> {
  const base = httpBaseOf(await listen(started.app));
  const created = await started.app.inject({
    method: 'POST',
    url: '/api/tables',
    payload: { game: 'sevenSuitors', options: { end: 'hands:1' }, bots: [2, 3] },
  });
  const { tableId } = created.json();
  const seated = await Promise.all(
    ['Ada', 'Bob'].map(async (name, seat) => {
      const joined = await started.app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/${seat}`, payload: { name } });
      expect(joined.statusCode, joined.body).toBe(201);
      return { tableId, seat, token: joined.json().token as string };
    }),
  );
  let over = false;
  const play: SeatPlay = { acknowledged: [], refused: [] };
  const playing = Promise.all(seated.map((seat) => playSeat(base, seat, play, () => over)));
  await waitFor(async () => (await started.host.snapshot(tableId)).snapshot.context.outcome?.finished === true, `${tableId} to finish`);
  over = true;
  await playing;
  return tableId;
}

/** An event of trick play right after which it is Bob's turn (seat 1). */
async function bobToPlayAfter(started: TestService, tableId: string): Promise<number> {
  const events = await started.host.events(tableId);
  for (let at = 20; at < events.length; at++) {
    if (events[at - 1].type !== 'card.played') continue;
    const { snapshot } = await started.host.replayAt(tableId, at);
    if (phaseOf(snapshot) === 'trickPlay' && snapshot.context.hand?.turn === 1) return at;
  }
  throw new Error(`no turn of seat 1 in the trick play of ${tableId}`);
}

async function forkAsAda(started: TestService, tableId: string, at: number): Promise<{ tableId: string; token: string }> {
  const forked = await started.app.inject({ method: 'POST', url: `/api/tables/${tableId}/fork`, payload: { at, seat: 0, name: 'Ada' } });
  expect(forked.statusCode, forked.body).toBe(201);
  return forked.json();
}

/** The table once its bots have nothing more to do: what it awaits, and its version. */
async function settled(started: TestService, tableId: string) {
  await waitFor(async () => {
    const { snapshot } = await started.host.snapshot(tableId);
    const { occupants } = snapshot.context;
    return (
      snapshot.context.hand !== null && !occupants.some((occupant, seat) => occupant?.bot === true && snapshot.context.hand?.turn === seat)
    );
  }, `the bots of ${tableId} to be idle`);
  return started.host.snapshot(tableId);
}

describe('a fork played on by one of its people', () => {
  it("keeps another person's seat open for them, waits at its turn, and plays on once they take it", async () => {
    const started = service();
    const original = await gameOfTwoPeople(started);
    const at = await bobToPlayAfter(started, original);
    const fork = await forkAsAda(started, original, at);

    const { version, snapshot } = await settled(started, fork.tableId);
    expect(snapshot.context.occupants[1]).toBeNull();
    expect(snapshot.context.hand?.turn).toBe(1);
    expect(snapshot.context.occupants[2]).toMatchObject({ bot: true });
    const { tables } = (await started.app.inject({ method: 'GET', url: '/api/tables' })).json();
    expect(tables.find((table: { tableId: string }) => table.tableId === fork.tableId).openSeats).toContain(1);

    const bob = await started.app.inject({ method: 'POST', url: `/api/tables/${fork.tableId}/seats/1`, payload: { name: 'Bob' } });
    expect(bob.statusCode, bob.body).toBe(201);
    const { view } = (
      await started.app.inject({ method: 'GET', url: `/api/tables/${fork.tableId}/view`, headers: bearer(bob.json().token) })
    ).json();
    expect(view.seats[1].occupant).toEqual({ name: 'Bob', bot: false });
    const played = await started.app.inject({
      method: 'POST',
      url: `/api/tables/${fork.tableId}/commands`,
      headers: bearer(bob.json().token),
      payload: { type: 'card.played', card: view.hand.legalCards[0] },
    });
    expect(played.statusCode, played.body).toBe(200);
    expect(played.json().version).toBeGreaterThan(version);
  });

  it('starts bots in the open seats for a seated person, and refuses anyone else', async () => {
    const started = service();
    const original = await gameOfTwoPeople(started);
    const at = await bobToPlayAfter(started, original);
    const fork = await forkAsAda(started, original, at);
    await settled(started, fork.tableId);

    const anyone = await started.app.inject({ method: 'POST', url: `/api/tables/${fork.tableId}/start` });
    expect(anyone.statusCode).toBe(401);
    expect((await started.host.snapshot(fork.tableId)).snapshot.context.occupants[1]).toBeNull();
    const over = await started.app.inject({ method: 'POST', url: `/api/tables/${original}/start`, headers: bearer(fork.token) });
    expect(over.statusCode).toBe(403);

    const start = await started.app.inject({ method: 'POST', url: `/api/tables/${fork.tableId}/start`, headers: bearer(fork.token) });
    expect(start.statusCode, start.body).toBe(200);
    expect(start.json()).toMatchObject({ tableId: fork.tableId, seats: [1] });
    const { snapshot } = await started.host.snapshot(fork.tableId);
    expect(snapshot.context.occupants[1]).toEqual({ name: 'Bot for seat 1', bot: true });
    await waitFor(
      async () => (await started.host.snapshot(fork.tableId)).snapshot.context.hand?.turn !== 1,
      'the bot in seat 1 to play its card',
    );
  });
});
