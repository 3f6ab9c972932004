/**
 * A rematch whose table is made but a seat of it cannot be taken (the
 * store refused that append): the table stands, its rematch is `started`
 * and names it, and the seat stays open for its player, rather than a
 * rematch told `expired` while its table waits for players nobody knows of.
 */
import { describe, expect, it } from 'vitest';
import { bearer, httpBaseOf, listen } from '../../drivers/embeddedService.js';
import { waitFor } from '../../drivers/polling.js';
import { playSeat, type SeatPlay } from '../../test/seatPlayer.js';
import { servicesClosedAfterEach } from '../../test/servicesPerTest.js';
import { openLocalStorage } from '../storage/storage.js';
import { newToken } from '../tokens/seatTokens.js';

const service = servicesClosedAfterEach();

describe('a rematch', () => {
  it('keeps a seat it could not give its player open at the new table, and says the rematch started', async () => {
    const { store } = openLocalStorage({ kind: 'memory' });
    let peopleRefused = false;
    const append = store.append.bind(store);
    store.append = (tableId, events, expectedVersion, status) => {
      const seatsPerson = events.some(
        (event) => event.type === 'seat.joined' && (event.data as { player?: { bot?: boolean } }).player?.bot === false,
      );
      return peopleRefused && seatsPerson
        ? Promise.reject(new Error('the store is full'))
        : append(tableId, events, expectedVersion, status);
    };
    const started = service({ store });
    const base = httpBaseOf(await listen(started.app));
    const created = await started.app.inject({
      method: 'POST',
      url: '/api/tables',
      payload: { game: 'sevenSuitors', options: { end: 'hands:1' }, bots: [1, 2, 3] },
    });
    const { tableId } = created.json();
    const joined = await started.app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/0`, payload: { name: 'Ada' } });
    expect(joined.statusCode, joined.body).toBe(201);
    const { token } = joined.json();
    const finished = async () => (await started.host.snapshot(tableId)).snapshot.context.outcome?.finished === true;
    let over = false;
    const play: SeatPlay = { acknowledged: [], refused: [] };
    const playing = playSeat(base, { tableId, seat: 0, token }, play, () => over);
    await waitFor(finished, `table ${tableId} to finish`);
    over = true;
    await playing;

    peopleRefused = true;
    const proposed = await started.app.inject({
      method: 'POST',
      url: `/api/tables/${tableId}/rematch`,
      headers: bearer(token),
      payload: { token: newToken() },
    });
    expect(proposed.statusCode, proposed.body).toBe(201);
    const { rematch } = proposed.json();
    expect(rematch.status).toBe('started');
    const { snapshot } = await started.host.snapshot(rematch.rematchTableId);
    expect(snapshot.context.occupants[0]).toBeNull();
    expect(snapshot.context.occupants.slice(1).every((occupant) => occupant?.bot === true)).toBe(true);
  });
});
