/**
 * The classifier against the errors a real nats-server makes nats.js throw
 * (started here; without one the tests fail, they are never skipped). The
 * one error a single healthy server cannot be made to give, JetStream's
 * "temporarily unavailable" of a cluster without a leader, is built from
 * the server's own answer with the library's class.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JetStreamApiError, jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { headers, type NatsConnection } from '@nats-io/nats-core';
import { createUser } from '@nats-io/nkeys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalNats, type LocalNats } from '../../drivers/localNats.js';
import { connectAs } from './connection.js';
import {
  isAuthorizationRefused,
  isCertificateRefused,
  isConnectionClosed,
  isJetStreamNotReady,
  isNoResponders,
  isPermissionViolation,
  isRequestTrouble,
  isStreamNameInUse,
  isStreamNotFound,
  isTimeout,
  isTransient,
  isWrongLastSequence,
} from './natsErrors.js';
import { NatsRequests } from './natsRequests.js';

let nats: LocalNats;
let nc: NatsConnection;
let jsm: JetStreamManager;

beforeAll(async () => {
  nats = await startLocalNats(1);
  nc = await nats.connect('admin');
  jsm = await jetstreamManager(nc);
  nc.subscribe('silent', { callback: () => undefined });
  await nc.flush();
});

afterAll(async () => {
  await nc?.close();
  await nats?.stop();
});

const failureOf = (work: () => Promise<unknown>): Promise<unknown> =>
  work().then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );

/** Every check's verdict on `error`, so each test says what an error is and also what it is not. */
function verdicts(error: unknown): Record<string, boolean> {
  return {
    noResponders: isNoResponders(error),
    timeout: isTimeout(error),
    closed: isConnectionClosed(error),
    requestTrouble: isRequestTrouble(error),
    wrongLastSequence: isWrongLastSequence(error),
    streamNotFound: isStreamNotFound(error),
    streamNameInUse: isStreamNameInUse(error),
    jetStreamNotReady: isJetStreamNotReady(error),
    transient: isTransient(error),
  };
}

const NONE = verdicts(new Error('anything else'));

describe('the NATS error classifier', () => {
  it('calls nothing what is not a NATS error', () => {
    expect(Object.values(NONE).every((verdict) => !verdict)).toBe(true);
    expect(isTransient(undefined)).toBe(false);
    expect(isTransient('no responders')).toBe(false);
  });

  it('knows "no responders", from nats.js request() and from our own requests, as transient request trouble', async () => {
    const expected = { ...NONE, noResponders: true, requestTrouble: true, transient: true };
    expect(verdicts(await failureOf(() => nc.request('nobody.listens', 'x', { timeout: 2000 })))).toEqual(expected);
    const requests = new NatsRequests(nc);
    expect(verdicts(await failureOf(() => requests.request('nobody.listens', 'x', { timeoutMs: 2000 })))).toEqual(expected);
    requests.close();
  });

  it('knows a request nobody answered in time as a transient timeout', async () => {
    const expected = { ...NONE, timeout: true, requestTrouble: true, transient: true };
    expect(verdicts(await failureOf(() => nc.request('silent', 'x', { timeout: 50 })))).toEqual(expected);
    const requests = new NatsRequests(nc);
    expect(verdicts(await failureOf(() => requests.request('silent', 'x', { timeoutMs: 50 })))).toEqual(expected);
    requests.close();
  });

  it('knows a closed connection, which asking again cannot cure', async () => {
    const own = await nats.connect('admin');
    const requests = new NatsRequests(own);
    await own.close();
    const expected = { ...NONE, closed: true, requestTrouble: true };
    expect(verdicts(await failureOf(() => own.request('silent', 'x', { timeout: 1000 })))).toEqual(expected);
    expect(verdicts(await failureOf(() => requests.request('silent', 'x', { timeoutMs: 1000 })))).toEqual(expected);
  });

  it('knows a missing stream and a stream made meanwhile with another configuration', async () => {
    expect(verdicts(await failureOf(() => jsm.streams.info('NO_SUCH_STREAM')))).toEqual({ ...NONE, streamNotFound: true });
    await jsm.streams.add({ name: 'CLASSIFIED', subjects: ['classified.>'] });
    expect(verdicts(await failureOf(() => jsm.streams.add({ name: 'CLASSIFIED', subjects: ['other.>'] })))).toEqual({
      ...NONE,
      streamNameInUse: true,
    });
  });

  it('knows a write refused for a stale expectation, on a subject and on a KV key', async () => {
    const js = jetstream(nc);
    await js.publish('classified.a', 'first');
    const expectation = headers();
    expectation.set('Nats-Expected-Last-Subject-Sequence', '0');
    expect(verdicts(await failureOf(() => js.publish('classified.a', 'second', { headers: expectation })))).toEqual({
      ...NONE,
      wrongLastSequence: true,
    });
    const kv = await new Kvm(nc).create('classified-kv');
    const revision = await kv.create('key', 'one');
    await kv.update('key', 'two', revision);
    expect(verdicts(await failureOf(() => kv.update('key', 'three', revision)))).toEqual({ ...NONE, wrongLastSequence: true });
    expect(verdicts(await failureOf(() => kv.create('key', 'again')))).toEqual({ ...NONE, wrongLastSequence: true });
  });

  it("knows JetStream's answer while it has no leader as transient", () => {
    // nats-server's answer (server/errors.json, JSClusterNotAvailErr) while a cluster elects its leader.
    const noLeader = new JetStreamApiError({ code: 503, err_code: 10008, description: 'JetStream system temporarily unavailable' });
    expect(verdicts(noLeader)).toEqual({ ...NONE, jetStreamNotReady: true, transient: true });
    expect(verdicts(new Error('reading failed', { cause: noLeader }))).toEqual({ ...NONE, jetStreamNotReady: true, transient: true });
    // What a server answers an account without JetStream (as nats.js wraps it), while a node is starting.
    const notEnabled = new JetStreamApiError({ code: 503, err_code: 10039, description: 'jetstream not enabled for account' });
    expect(verdicts(new Error('jetstream not enabled', { cause: notEnabled }))).toEqual({
      ...NONE,
      jetStreamNotReady: true,
      transient: true,
    });
  });

  it('knows refused credentials, a refused certificate and a permission violation', async () => {
    const { servers } = nats.connectOptions('worker');
    const anonymous = await failureOf(() => nats.connect('worker', { authenticator: undefined, waitOnFirstConnect: false }));
    expect([isAuthorizationRefused(anonymous), isCertificateRefused(anonymous)]).toEqual([true, false]);
    const untrusting = await failureOf(() => nats.connect('worker', { servers, tls: {}, waitOnFirstConnect: false }));
    expect([isAuthorizationRefused(untrusting), isCertificateRefused(untrusting)]).toEqual([false, true]);

    // A gateway may not read the owners' bucket (services/bus/natsPermissions.ts): the subscription ends with the refusal.
    const gateway = await nats.connect('gateway');
    try {
      const ended = await gateway.subscribe('not.for.gateways').closed;
      expect([isPermissionViolation(ended), isAuthorizationRefused(ended)]).toEqual([true, false]);
    } finally {
      await gateway.close();
    }
  });

  it('lets connectAs name the setting to check: NATS_CREDS for refused credentials, NATS_CA for a refused certificate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'suitors-classifier-'));
    try {
      const wrongCreds = join(dir, 'worker.nk');
      writeFileSync(wrongCreds, `${new TextDecoder().decode(createUser().getSeed())}\n`);
      const access = nats.access('worker');
      await expect(connectAs({ ...access, credsFile: wrongCreds }, 'worker', { waitForServers: false })).rejects.toThrow(
        /check NATS_CREDS/,
      );
      const { caFile: _ca, ...untrusting } = access;
      await expect(connectAs(untrusting, 'worker', { waitForServers: false })).rejects.toThrow(/check NATS_CA/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
