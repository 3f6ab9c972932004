/**
 * Tables made through the embedded service's HTTP API, as a client makes
 * them, for the gateway's tests: a new table that must be made, and a game
 * of bots alone played to its end by the service's own bots.
 */
import { expect } from 'vitest';
import type { TestService } from '../../drivers/embeddedService.js';
import { waitFor } from '../../drivers/polling.js';

/** Where the request comes from, for the limits a client has of its own (the inject default otherwise). */
interface From {
  readonly remoteAddress?: string;
}

/** POST /api/tables with `body` as a client sends it; anything but 201 fails. Gives the new table's id. */
export async function createdTable(started: Pick<TestService, 'app'>, body: object, { remoteAddress }: From = {}): Promise<string> {
  const response = await started.app.inject({ method: 'POST', url: '/api/tables', payload: body, remoteAddress });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().tableId;
}

/** A one-hand game of Seven Suitors, four bots at it, waited on until it is over. Gives its id. */
export async function finishedBotGame(started: TestService, from: From = {}): Promise<string> {
  const tableId = await createdTable(started, { game: 'sevenSuitors', options: { end: 'hands:1' }, bots: [0, 1, 2, 3] }, from);
  await waitFor(
    async () => (await started.host.snapshot(tableId)).snapshot.context.outcome?.finished === true,
    `table ${tableId} to finish`,
  );
  return tableId;
}
