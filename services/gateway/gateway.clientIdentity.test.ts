/**
 * An address family cannot multiply a client (issue 26, item 2): every
 * address of one IPv6 /64 is one client for the per-client limits, each /64
 * apart; with the prefix set to 128, each address is its own client. The
 * addresses come from a trusted proxy's X-Forwarded-For, as behind a
 * reverse proxy.
 */
import { describe, expect, it } from 'vitest';
import { servicesClosedAfterEach } from '../../test/servicesPerTest.js';
import { liftedRateLimits } from './limits.js';

const service = servicesClosedAfterEach();

function creator(started: ReturnType<typeof service>) {
  return (address: string) =>
    started.app.inject({
      method: 'POST',
      url: '/api/tables',
      headers: { 'x-forwarded-for': address },
      payload: { game: 'sevenSuitors', bots: [0, 1, 2, 3] },
    });
}

describe('an IPv6 client', () => {
  it('is its /64: ten new tables from ten of its addresses use up its limit, and another /64 has its own', async () => {
    const started = service({ trustProxy: true });
    const create = creator(started);
    for (let host = 1; host <= 10; host++) expect((await create(`2001:db8:5:6::${host.toString(16)}`)).statusCode).toBe(201);
    const refused = await create('2001:db8:5:6:ffff:ffff:ffff:ffff');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^too many requests from 2001:db8:5:6::\/64 to POST \/api\/tables/);
    expect((await create('2001:db8:5:7::1')).statusCode).toBe(201);
    // An IPv4 client is its address, as before.
    expect((await create('192.0.2.1')).statusCode).toBe(201);
  });

  it('is its /64 for the tables waiting for players it may have', async () => {
    const started = service({ trustProxy: true, limits: liftedRateLimits() });
    const wait = (address: string) =>
      started.app.inject({
        method: 'POST',
        url: '/api/tables',
        headers: { 'x-forwarded-for': address },
        payload: { game: 'sevenSuitors' },
      });
    for (let host = 1; host <= 10; host++) expect((await wait(`2001:db8:5:6::${host.toString(16)}`)).statusCode).toBe(201);
    const refused = await wait('2001:db8:5:6::abc');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^2001:db8:5:6::\/64 has 10 tables waiting for players/);
  });

  it('is each address with the prefix set to 128', async () => {
    const started = service({ trustProxy: true, limits: { ipv6ClientPrefix: 128 } });
    const create = creator(started);
    for (let host = 1; host <= 11; host++) expect((await create(`2001:db8:5:6::${host.toString(16)}`)).statusCode).toBe(201);
  });
});
