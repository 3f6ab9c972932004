/**
 * The load-generating players meet every message a table's socket sends:
 * the notices beside the views (a chat phrase here) are taken as what they
 * are, not counted as the gateway's errors, which would fail a soak or a
 * benchmark that met a person's chat.
 */
import { describe, expect, it } from 'vitest';
import { bearer, listen } from '../embeddedService.js';
import { waitFor } from '../polling.js';
import { servicesClosedAfterEach } from '../../test/servicesPerTest.js';
import { PlayerPool } from './playerPool.js';

const service = servicesClosedAfterEach();

describe('a pool seat', () => {
  it('takes a table notice (a chat phrase) as one, and counts no error for it', async () => {
    const started = service();
    const port = Number(new URL(await listen(started.app)).port);
    const pool = new PlayerPool({ game: 'sevenSuitors', tables: 1, clientAddresses: 1, thinkMs: 60_000, gatewayFor: () => port });
    try {
      await pool.setUp({ concurrency: 1, deadline: performance.now() + 20_000, progressMs: 60_000, onProgress: () => undefined });
      const seats = [...pool.seats];
      expect(seats).toHaveLength(4);
      const said = await started.app.inject({
        method: 'POST',
        url: `/api/tables/${seats[0].tableId}/chat`,
        headers: bearer(seats[0].token),
        payload: { phrase: 'goodLuck' },
      });
      expect(said.statusCode, said.body).toBe(204);
      await waitFor(
        async () => pool.counters.noticesReceived === seats.length || pool.counters.errorCount() > 0,
        'every seat to hear the phrase',
      );
      expect(pool.counters.errorLines()).toEqual([]);
      expect(pool.counters.noticesReceived).toBe(seats.length);
    } finally {
      pool.stopping = true;
      await pool.close();
    }
  });
});
