/**
 * NatsRequests against a real nats-server (started here; without one the
 * tests fail, they are never skipped).
 */
import { ClosedConnectionError, RequestError, TimeoutError, type NatsConnection } from '@nats-io/nats-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalNats, type LocalNats } from '../../drivers/localNats.js';
import { waitFor } from '../../drivers/polling.js';
import { NatsRequests } from './natsRequests.js';

let nats: LocalNats;
let nc: NatsConnection;
/** How many requests the slow responder answered. */
let asked = 0;

beforeAll(async () => {
  nats = await startLocalNats(1);
  nc = await nats.connect('admin');
  nc.subscribe('echo', {
    callback: (_, message) => void message.respond(`echo ${message.string()} ${message.headers?.get('Who') ?? ''}`.trim()),
  });
  // Answers the first request late, the rest at once.
  nc.subscribe('slow', { callback: (_, message) => void setTimeout(() => message.respond(`answer ${++asked}`), asked === 0 ? 300 : 0) });
  nc.subscribe('silent', { callback: () => undefined });
  await nc.flush();
});

afterAll(async () => {
  await nc?.close();
  await nats?.stop();
});

describe('NatsRequests', () => {
  it('matches each of many requests in flight with its own answer, headers included', async () => {
    const requests = new NatsRequests(nc);
    const headers = (await import('@nats-io/nats-core')).headers();
    headers.set('Who', 'me');
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => requests.request('echo', String(i), { timeoutMs: 5000 })));
    expect(answers.map((answer) => answer.string())).toEqual(Array.from({ length: 200 }, (_, i) => `echo ${i}`));
    expect((await requests.request('echo', 'x', { timeoutMs: 5000, headers })).string()).toBe('echo x me');
    requests.close();
  });

  it('fails with a no-responders RequestError when nobody listens, as nc.request does', async () => {
    const requests = new NatsRequests(nc);
    const failure = await requests.request('nobody.listens.here', 'hello', { timeoutMs: 5000 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RequestError);
    expect((failure as RequestError).isNoResponders()).toBe(true);
    requests.close();
  });

  it('times out with a TimeoutError, and a late answer is dropped without disturbing the next request', async () => {
    const requests = new NatsRequests(nc);
    await expect(requests.request('slow', '', { timeoutMs: 50 })).rejects.toBeInstanceOf(TimeoutError);
    await waitFor(() => asked === 1, 'the late answer to be sent');
    expect((await requests.request('slow', '', { timeoutMs: 5000 })).string()).toBe('answer 2');
    requests.close();
  });

  it('fails what is waiting when it is closed, and refuses requests on a closed connection', async () => {
    const own = await nats.connect('admin');
    const requests = new NatsRequests(own);
    const waiting = requests.request('silent', '', { timeoutMs: 60_000 }).catch((error: unknown) => error);
    const other = new NatsRequests(own);
    const waitingOnOther = other.request('silent', '', { timeoutMs: 60_000 }).catch((error: unknown) => error);
    requests.close();
    expect(await waiting).toBeInstanceOf(RequestError);
    await own.close();
    expect(await waitingOnOther).toBeInstanceOf(ClosedConnectionError);
    await expect(other.request('echo', '', { timeoutMs: 1000 })).rejects.toBeInstanceOf(ClosedConnectionError);
  });
});
