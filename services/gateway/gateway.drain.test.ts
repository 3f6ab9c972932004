/**
 * A gateway that stops (SIGTERM on `npm start` closes the gateway, then the
 * host): commands already sent are answered and durable, and every socket
 * is closed with the reconnect hint, so clients come back at once.
 */
import { describe, expect, it } from 'vitest';
import { startService } from '../../drivers/embeddedService.js';
import { SocketClient } from '../../drivers/socketClient.js';
import { waitFor } from '../../drivers/polling.js';
import { bearer } from '../../drivers/embeddedService.js';
import { GATEWAY_GOING_AWAY } from './socketProtocol.js';
import { openLocalStorage } from '../storage/storage.js';

describe('a gateway stopping', () => {
  it('answers the commands sent before it stopped, keeps them in the log, and closes its sockets with the reconnect hint', async () => {
    const store = openLocalStorage({ kind: 'memory' }).store;
    const service = startService({ store, botDelayMs: 5 });
    const address = await service.app.listen({ port: 0, host: '127.0.0.1' });
    const { tableId } = (
      await service.app.inject({ method: 'POST', url: '/api/tables', payload: { game: 'sevenSuitors', bots: [1, 2, 3] } })
    ).json();
    const { token } = (
      await service.app.inject({ method: 'POST', url: `/api/tables/${tableId}/seats/0`, payload: { name: 'Ann' } })
    ).json();
    const socket = await SocketClient.open(`${address.replace('http', 'ws')}/api/tables/${tableId}/socket`);
    await waitFor(() => socket.messages.some((message) => message.type === 'view'), 'the first view');
    const { view } = (await service.app.inject({ method: 'GET', url: `/api/tables/${tableId}/view`, headers: bearer(token) })).json();
    const pass = { type: 'cards.passed', passes: [1, 2, 3].map((to, i) => ({ to, card: view.hand.cards[i] })) };

    const answer = service.app.inject({ method: 'POST', url: `/api/tables/${tableId}/commands`, payload: pass, headers: bearer(token) });
    const closing = service.close();
    const accepted = await answer;
    await closing;

    expect(accepted.statusCode, accepted.body).toBe(200);
    const log = await store.read(tableId);
    expect(log.length).toBeGreaterThanOrEqual(accepted.json().version);
    expect(log.some((event) => event.type === 'cards.passed' && (event.data as { seat: number }).seat === 0)).toBe(true);
    await waitFor(() => socket.closed, 'the socket to close');
    expect(socket.closed?.code).toBe(GATEWAY_GOING_AWAY);
    await store.close();
  });
});
