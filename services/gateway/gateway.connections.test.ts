/**
 * The cap on connections the gateway holds at once, whoever opened them
 * (limits.connectionsInAll, SUITORS_CONNECTIONS): past it a new connection
 * is closed as it arrives and counted, and once one closes the next is
 * served again. Many addresses, each within its own limits, cannot take
 * every file descriptor of the process.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../drivers/polling.js';
import { listeningServices } from '../../test/servicesPerTest.js';
import type { Gateway } from './gateway.js';
import { DEFAULT_LIMITS } from './limits.js';

const gateways = listeningServices();
const opened: Socket[] = [];
afterEach(async () => {
  for (const socket of opened.splice(0)) socket.destroy();
  await gateways.closeAll();
});

/** A raw connection that asks for the lobby and keeps the connection open; resolves with the answer's first line, or null if closed unanswered. */
function askOverOwnConnection(base: string): Promise<string | null> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    opened.push(socket);
    let answer = '';
    socket.on('connect', () => socket.write(`GET /api/tables HTTP/1.1\r\nHost: ${hostname}\r\nConnection: keep-alive\r\n\r\n`));
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n')) resolve(answer.split('\r\n')[0]);
    });
    socket.on('close', () => resolve(null));
    socket.on('error', () => resolve(null));
  });
}

/** The count /metrics gives, asked without a connection of its own (Fastify's inject). */
async function refusedCount(app: Gateway): Promise<number> {
  const { body } = await app.inject({ method: 'GET', url: '/metrics' });
  const line = body.split('\n').find((each) => each.startsWith('suitors_connections_refused_total '));
  return Number(line?.split(' ')[1] ?? NaN);
}

describe('connections held at once, from all clients', () => {
  it('are 10,000 at most by default', () => {
    expect(DEFAULT_LIMITS.connectionsInAll).toBe(10_000);
  });

  it('past the cap close a new connection as it arrives, count it, and serve again once one has closed', async () => {
    const { base, app } = await gateways.start({ limits: { connectionsInAll: 2 } });
    expect(await askOverOwnConnection(base)).toBe('HTTP/1.1 200 OK');
    expect(await askOverOwnConnection(base)).toBe('HTTP/1.1 200 OK');
    expect(await askOverOwnConnection(base)).toBeNull();
    opened[0].destroy();
    // The metrics are read over a connection too: it is served once one of the two has gone.
    await waitFor(async () => (await askOverOwnConnection(base)) === 'HTTP/1.1 200 OK', 'a connection to be served again');
    expect(await refusedCount(app)).toBeGreaterThanOrEqual(1);
  });
});
