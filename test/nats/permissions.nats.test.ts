/**
 * The distributed tier's locks, tried against a real secured nats-server:
 * nobody gets in without credentials and TLS, and each identity is refused
 * by the server everything its permissions (services/bus/natsPermissions.ts)
 * do not grant it: a gateway cannot append an event, write a lease, an owner,
 * a snapshot or a worker's status, serve or answer commands, or answer for a worker's life; a
 * worker cannot listen to commands outside the queue group or touch the
 * seat tokens, nor tell or keep a table's notices (chat, the rematch);
 * neither can delete, purge or reconfigure the log.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { nkeys, type NatsConnection } from '@nats-io/nats-core';
import { connectBatched } from '../../services/nats/turnBatchedConnect.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalNats, type LocalNats } from '../../drivers/localNats.js';
import { permissionsSection, withPermissionsSection } from '../../drivers/natsPermissionsDoc.js';
import { natsSecretsCommand } from '../../services/cli/commands/natsSecrets.js';
import { parseArgs } from '../../services/cli/args.js';
import { natsServerProgram } from '../../services/settings.js';
import { bucketNames, deploymentNames } from '../../services/bus/deploymentNames.js';
import { openKvSeatTokens } from '../../services/tokens/kvSeatTokens.js';
import { WORKER_QUEUE } from '../../services/bus/subjects.js';
import type { EventStore } from '../../services/eventstore/eventStore.js';
import { openJetStreamEventStore } from '../../services/eventstore/jetstream/index.js';
import { connectAs } from '../../services/nats/connection.js';
import { isPermissionViolation } from '../../services/nats/natsErrors.js';
import type { NatsRole } from '../../services/nats/security/roles.js';
import { openLeaseBuckets } from '../../services/worker/leaseBuckets.js';
import { openWorkerStatusBucket, workerStatusReads } from '../../services/bus/workerStatus.js';
import { openNatsCheckpoints } from '../../services/projections/natsCheckpoints.js';
import { NOTICES_KEPT_MS } from '../../services/gateway/notices/noticeBoard.js';
import { openNatsNoticeBoard } from '../../services/gateway/notices/natsNotices.js';
import { waitFor } from '../../drivers/polling.js';

const { layout, subjects, buckets, presence } = deploymentNames();
const EVENTS = layout.streamName;
const kvStream = (bucket: string) => `KV_${bucket}`;

/** What the server answers `attempt` with: 'allowed', or the permission it was refused for. */
async function answerTo(attempt: () => Promise<unknown>): Promise<string> {
  try {
    await attempt();
    return 'allowed';
  } catch (error) {
    return isPermissionViolation(error) ? 'refused' : `failed otherwise: ${(error as Error).message}`;
  }
}

/** A subscription the server refuses is closed with the violation: waits for that, or says it stayed open. */
async function subscriptionAnswer(nc: NatsConnection, subject: string, queue?: string): Promise<string> {
  const sub = nc.subscribe(subject, queue === undefined ? {} : { queue });
  await nc.flush();
  const closed = await Promise.race([sub.closed, new Promise((resolve) => setTimeout(() => resolve('open'), 1000))]);
  sub.unsubscribe();
  if (closed === 'open') return 'allowed';
  return isPermissionViolation(closed) ? 'refused' : `closed otherwise: ${String(closed)}`;
}

describe('NATS with credentials, permissions and TLS', () => {
  let nats: LocalNats;
  const connections: NatsConnection[] = [];
  const stores: EventStore[] = [];
  let tableId: string;

  async function as(role: NatsRole): Promise<NatsConnection> {
    const nc = await nats.connect(role);
    connections.push(nc);
    return nc;
  }

  beforeAll(async () => {
    nats = await startLocalNats(1);
    // What a deployment has once its first worker and gateway are up: the log, the buckets, a table.
    const worker = await as('worker');
    const store = await openJetStreamEventStore({ connection: worker });
    stores.push(store);
    await openLeaseBuckets(worker, { ttlMs: 5000 });
    await openWorkerStatusBucket(worker, { create: true });
    await openKvSeatTokens(await as('gateway'));
    tableId = 't-permissions';
    await store.append(tableId, [{ type: 'table.created', at: new Date().toISOString(), data: { game: 'sevenSuitors' } }], 0);
  });

  afterAll(async () => {
    await Promise.allSettled(stores.map((store) => store.close()));
    await Promise.allSettled(connections.map((nc) => nc.close()));
    await nats?.stop();
  });

  it('lets nobody in without TLS, without credentials, or with a key the server does not know', async () => {
    const servers = nats.urls.split(',');
    const plain = servers.map((url) => url.replace('tls://', 'nats://'));
    const tls = { caFile: nats.secrets!.caFile };
    const refusal = (options: Parameters<typeof connectBatched>[0]) =>
      connectBatched({ ...options, timeout: 3000, maxReconnectAttempts: 0 }).then(
        async (nc) => {
          await nc.close();
          return 'connected';
        },
        (error: Error) => error.message,
      );
    // The server insists on TLS: a plain client cannot even start.
    expect(await refusal({ servers: plain, tls: null })).not.toBe('connected');
    expect(await refusal({ servers, tls })).toMatch(/Authorization Violation/);
    const stranger = nkeys.createUser();
    const { nkeyAuthenticator } = await import('@nats-io/nats-core');
    expect(await refusal({ servers, tls, authenticator: nkeyAuthenticator(stranger.getSeed()) })).toMatch(/Authorization Violation/);
    // A client that does not trust the deployment's CA refuses the server's certificate.
    expect(await refusal({ servers, tls: {}, authenticator: nkeyAuthenticator(stranger.getSeed()) })).toMatch(/certificate/);
  });

  it("says which identity was refused and which setting to check, when a process's credentials are wrong", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'suitors-wrong-creds-'));
    try {
      const wrong = join(dir, 'worker.nk');
      writeFileSync(wrong, `${new TextDecoder().decode(nkeys.createUser().getSeed())}\n`);
      const access = { servers: nats.urls.split(','), credsFile: wrong, caFile: nats.secrets!.caFile };
      await expect(connectAs(access, 'worker')).rejects.toThrow(
        `NATS refused this worker's credentials: Authorization Violation; check NATS_CREDS (${wrong})`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a gateway everything but sending commands, reading what it shows and keeping seat tokens', async () => {
    const gateway = await as('gateway');
    const js = jetstream(gateway);
    const jsm = await jetstreamManager(gateway);
    const kvm = new Kvm(gateway);
    const forged = JSON.stringify({ events: [{ type: 'game.finished', at: new Date().toISOString(), data: {} }] });
    const attempts: Record<string, () => Promise<unknown>> = {
      'append an event': () => js.publish(`${layout.prefix}.${tableId}.events`, forged),
      'write a lease': () => js.publish(`$KV.${buckets.workerLives}.w-fake`, 'life'),
      'write an owner': () => js.publish(`$KV.${buckets.tableOwners}.${tableId}`, '{"worker":"w-fake","incarnation":"x"}'),
      'write a snapshot': () => js.publish(`$KV.${buckets.snapshots}.${tableId}`, '{}'),
      "write a worker's status": () => js.publish(`$KV.${buckets.workerStatus}.w-fake`, '{"worker":"w-fake"}'),
      // It may read an owner by its key (below), not remake or reconfigure the bucket.
      'reconfigure the owners bucket': () => jsm.streams.update(kvStream(buckets.tableOwners), { max_msgs_per_subject: 5 }),
      'delete the log': () => jsm.streams.delete(EVENTS),
      'purge the log': () => jsm.streams.purge(EVENTS),
      'delete an event': () => jsm.streams.deleteMessage(EVENTS, 1),
      'reconfigure the log': () => jsm.streams.update(EVENTS, { subjects: [layout.filter], deny_delete: false }),
      'make a consumer on the seat tokens it writes': () => jsm.consumers.add(kvStream(buckets.seatTokens), { deliver_subject: 'x' }),
      'ask a worker whether it lives': () => gateway.request(presence('w-any'), '', { timeout: 1000 }),
    };
    const answers = Object.fromEntries(
      await Promise.all(Object.entries(attempts).map(async ([what, attempt]) => [what, await answerTo(attempt)])),
    );
    expect(answers).toEqual(Object.fromEntries(Object.keys(attempts).map((what) => [what, 'refused'])));
    expect({
      'serve commands in the workers queue group': await subscriptionAnswer(gateway, subjects.anyCommand, WORKER_QUEUE),
      'listen to every command': await subscriptionAnswer(gateway, subjects.anyCommand),
      'take new tables': await subscriptionAnswer(gateway, subjects.create, WORKER_QUEUE),
      "listen to a worker's commands": await subscriptionAnswer(gateway, subjects.commandsFor('w-any')),
      "answer for a worker's life": await subscriptionAnswer(gateway, presence('w-any')),
      "read a worker's answers": await subscriptionAnswer(gateway, '_INBOX.worker.>'),
      'read everything': await subscriptionAnswer(gateway, '>'),
    }).toEqual({
      'serve commands in the workers queue group': 'refused',
      'listen to every command': 'refused',
      'take new tables': 'refused',
      "listen to a worker's commands": 'refused',
      "answer for a worker's life": 'refused',
      "read a worker's answers": 'refused',
      'read everything': 'refused',
    });
    // Nothing reached the log.
    expect(await stores[0].version(tableId)).toBe(1);
    // What a gateway does is still allowed: read the log, keep a seat token.
    expect(await answerTo(() => jsm.streams.info(EVENTS))).toBe('allowed');
    expect(await answerTo(async () => (await kvm.open(bucketNames(EVENTS).seatTokens)).put('h.probe', '{}'))).toBe('allowed');
    // A table's owner, for the operator's page: read by its key, never written, and no consumer on the bucket.
    const owners = await kvm.open(buckets.tableOwners, { allow_direct: false });
    expect(await answerTo(() => owners.get(tableId))).toBe('allowed');
    expect(await answerTo(() => owners.put(tableId, '{"worker":"w-fake","incarnation":"x"}'))).toBe('refused');
    expect(await answerTo(() => jsm.consumers.add(kvStream(buckets.tableOwners), { deliver_subject: 'x' }))).toBe('refused');
    // The workers' statuses, for the operator's page: read by key, never written, and no consumer on the bucket.
    expect(await answerTo(() => workerStatusReads(gateway)())).toBe('allowed');
    expect(await answerTo(() => jsm.consumers.add(kvStream(buckets.workerStatus), { deliver_subject: 'x' }))).toBe('refused');
    // Its projections' checkpoints: kept by key, no consumer.
    const checkpoints = await openNatsCheckpoints(gateway, { bucket: buckets.projections });
    expect(await answerTo(() => checkpoints.save('probe', { state: {}, positions: { [tableId]: 1 } }))).toBe('allowed');
    expect(await checkpoints.load('probe')).toEqual({ state: {}, positions: { [tableId]: 1 } });
    expect(await answerTo(() => jsm.consumers.add(kvStream(buckets.projections), { deliver_subject: 'x' }))).toBe('refused');
  });

  it("lets gateways alone tell and keep a table's notices: a worker's chat reaches no gateway", async () => {
    const gateway = await as('gateway');
    const worker = await as('worker');
    const subject = subjects.notices(tableId);
    const heard: string[] = [];
    const hearing = gateway.subscribe(subject, { callback: (_, message) => void heard.push(message.string()) });
    await gateway.flush();
    worker.publish(subject, JSON.stringify({ type: 'chat', seat: 0, phrase: 'hello' }));
    // The server has taken the worker's message before the gateway's is sent, so it would be heard first.
    await worker.flush();
    gateway.publish(subject, 'from a gateway');
    await waitFor(() => heard.length > 0, "the gateway's notice");
    hearing.unsubscribe();
    expect(heard).toEqual(['from a gateway']);
    expect(await subscriptionAnswer(worker, subject)).toBe('refused');
    expect(await answerTo(() => jetstream(worker).publish(`$KV.${buckets.tableNotices}.rematch.${tableId}`, '{}'))).toBe('refused');
    const board = await openNatsNoticeBoard(gateway, { bucket: buckets.tableNotices, keepMs: NOTICES_KEPT_MS });
    expect(await answerTo(() => board.write(`rematch.${tableId}`, '{}', null))).toBe('allowed');
    const jsm = await jetstreamManager(gateway);
    expect(await answerTo(() => jsm.consumers.add(kvStream(buckets.tableNotices), { deliver_subject: 'x' }))).toBe('refused');
  });

  it('refuses a worker what is not its part: commands outside the queue group, seat tokens, deleting the log', async () => {
    const worker = await as('worker');
    const jsm = await jetstreamManager(worker);
    const js = jetstream(worker);
    expect({
      'write a seat token': await answerTo(() => js.publish(`$KV.${buckets.seatTokens}.h.forged`, '{}')),
      'delete the log': await answerTo(() => jsm.streams.delete(EVENTS)),
      'purge the log': await answerTo(() => jsm.streams.purge(EVENTS)),
      'delete an event': await answerTo(() => jsm.streams.deleteMessage(EVENTS, 1)),
      'listen to every command': await subscriptionAnswer(worker, subjects.anyCommand),
      'join another queue group': await subscriptionAnswer(worker, subjects.anyCommand, 'rogue-group'),
      "read a gateway's answers": await subscriptionAnswer(worker, '_INBOX.gateway.>'),
    }).toEqual({
      'write a seat token': 'refused',
      'delete the log': 'refused',
      'purge the log': 'refused',
      'delete an event': 'refused',
      'listen to every command': 'refused',
      'join another queue group': 'refused',
      "read a gateway's answers": 'refused',
    });
    expect(await subscriptionAnswer(worker, subjects.anyCommand, WORKER_QUEUE)).toBe('allowed');
  });
});

describe('the secured configuration an operator runs', () => {
  it('is the one docs/distributed.md shows: its permissions table is rendered from the permissions the servers get', () => {
    const doc = readFileSync(new URL('../../docs/distributed.md', import.meta.url), 'utf8');
    expect(doc).toContain(permissionsSection());
    expect(withPermissionsSection(doc)).toBe(doc);
  });

  it("makes docker compose's NATS configuration whole: each node's file, with the secrets nats-secrets writes, is valid", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'suitors-compose-nats-'));
    try {
      cpSync(new URL('../../infra/nats', import.meta.url), dir, { recursive: true });
      const secrets = join(dir, 'secrets');
      const log = console.log;
      console.log = () => undefined;
      try {
        expect(await natsSecretsCommand.run(parseArgs(['--out', secrets, '--hosts', 'n1,n2,n3']))).toBe(0);
      } finally {
        console.log = log;
      }
      expect(usersIn(join(secrets, 'auth.conf'))).toBe(3);
      for (const node of ['n1', 'n2', 'n3']) {
        const answer = execFileSync(natsServerProgram(), ['-t', '-c', join(dir, `${node}.conf`)], { encoding: 'utf8', stdio: 'pipe' });
        expect(`${answer}`).toBe('');
      }
      // A rotation lets both the old and the new key in, until the old one's file goes.
      const before = readFileSync(join(secrets, 'worker.nk'), 'utf8');
      console.log = () => undefined;
      try {
        expect(await natsSecretsCommand.run(parseArgs(['--out', secrets, '--rotate', 'worker']))).toBe(0);
      } finally {
        console.log = log;
      }
      expect(readFileSync(join(secrets, 'worker.previous.nk'), 'utf8')).toBe(before);
      expect(usersIn(join(secrets, 'auth.conf'))).toBe(4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** How many keys an auth.conf lets in. */
function usersIn(file: string): number {
  return readFileSync(file, 'utf8').match(/^\s*nkey: /gm)?.length ?? 0;
}
