/**
 * What each identity may do on NATS, as NATS permissions: the one place the
 * server configuration (services/nats/security/serverConfig.ts, written by
 * `suitors nats-secrets` and the local clusters) and docs/distributed.md
 * ("Securing NATS") draw from. Everything not allowed here is refused by the
 * server.
 *
 * - A gateway sends commands and new tables, reads the event log and the
 *   snapshots it shows, keeps the seat tokens and its projections'
 *   checkpoints, and reads a table's owner and each worker's status by key
 *   (the operator's page). Gateways alone tell each other a table's notices
 *   (quick chat, the rematch as it stands) and keep what they share of them.
 *   It may not append to a log, write a lease, an owner, a snapshot or a
 *   worker's status, serve commands (join the
 *   workers' queue group or answer a command), or answer for a worker's life.
 * - A worker serves commands (in the queue group, and those addressed to it),
 *   forwards them to another worker, appends to the logs, and keeps the
 *   snapshots, its life, the tables' owners and its status.
 * - The admin identity is the operator's: everything.
 *
 * JetStream API calls are publishes to `$JS.API.<verb>.<stream>...`, so each
 * role gets the verbs it uses on the streams it uses and no others: no role
 * but admin may delete or purge a stream, delete a message or touch a stream
 * it does not use.
 */
import { NATS_ROLES, inboxPrefixOf, type NatsPermissions, type NatsRole } from '../nats/security/roles.js';
import type { NatsSecrets } from '../nats/security/secrets.js';
import type { NatsUser } from '../nats/security/serverConfig.js';
import { deploymentNames } from './deploymentNames.js';
import { WORKER_QUEUE } from './subjects.js';

type DeploymentSettings = { readonly streamName?: string; readonly prefix?: string };

/** A KV bucket's stream. */
const kvStream = (bucket: string) => `KV_${bucket}`;

/** Reading a stream: its info, direct and leader gets, and the (ordered) consumers reads and watches make. */
function readStream(stream: string): string[] {
  return [
    `$JS.API.STREAM.INFO.${stream}`,
    `$JS.API.DIRECT.GET.${stream}`,
    `$JS.API.DIRECT.GET.${stream}.>`,
    `$JS.API.STREAM.MSG.GET.${stream}`,
    `$JS.API.CONSUMER.CREATE.${stream}`,
    `$JS.API.CONSUMER.CREATE.${stream}.>`,
    `$JS.API.CONSUMER.INFO.${stream}.*`,
    `$JS.API.CONSUMER.DELETE.${stream}.*`,
    `$JS.API.CONSUMER.MSG.NEXT.${stream}.*`,
    `$JS.FC.${stream}.>`,
  ];
}

/** Creating a stream when it is missing, and turning on what a newer release needs (setup.ts). */
function keepStream(stream: string): string[] {
  return [`$JS.API.STREAM.CREATE.${stream}`, `$JS.API.STREAM.UPDATE.${stream}`];
}

/** A bucket its role reads and writes: the stream's API and its keys. */
function keepBucket(bucket: string): string[] {
  return [...keepStream(kvStream(bucket)), ...readStream(kvStream(bucket)), `$KV.${bucket}.>`];
}

/**
 * A bucket read one key at a time, as a gateway reads a table's owner or a
 * worker's status: its info (to open it, and with a subject filter to list
 * the keys) and a message by subject; no consumer (see below) and no write.
 */
function readKeys(bucket: string): string[] {
  const stream = kvStream(bucket);
  return [`$JS.API.STREAM.INFO.${stream}`, `$JS.API.STREAM.MSG.GET.${stream}`];
}

/**
 * A bucket gateways read and write by key: the seat tokens, the projections'
 * checkpoints. No consumer on its stream: a gateway writes what it holds, and
 * a push consumer would deliver it to any subject, permissions or not
 * (nats-server#8274), so the gateway finds a seat's tokens with the stream's
 * subject list instead (tokens/kvSeatTokens.ts).
 */
function keepByKey(bucket: string): string[] {
  const stream = kvStream(bucket);
  return [
    ...keepStream(stream),
    `$JS.API.STREAM.INFO.${stream}`,
    `$JS.API.STREAM.MSG.GET.${stream}`,
    `$JS.API.DIRECT.GET.${stream}`,
    `$JS.API.DIRECT.GET.${stream}.>`,
    `$KV.${bucket}.>`,
  ];
}

/**
 * Where a worker's answers go: the inboxes of those who send it commands
 * (gateways, other workers forwarding, the operator's tools), by their
 * roles' prefixes. Not nats-server's `allow_responses`: with it the server
 * keeps every reply subject the worker is sent for two minutes, the claims
 * and leases its watches deliver included, and once they pass 4,096 it
 * walks them all at each message it delivers; bench:scale's room stalled at
 * about 15,000 tables with the servers' CPU in that walk (pruneReplyPerms).
 */
function answersToRequesters(): string[] {
  return NATS_ROLES.map((role) => `${inboxPrefixOf(role)}.>`);
}

export function permissionsOf(role: NatsRole, settings: DeploymentSettings = {}): NatsPermissions {
  const { layout, subjects, buckets, presence } = deploymentNames(settings);
  const inbox = `${inboxPrefixOf(role)}.>`;
  const { streamName } = layout;
  switch (role) {
    case 'gateway':
      return {
        publish: [
          subjects.command('*'),
          subjects.commandFor('*', '*'),
          subjects.create,
          subjects.anyNotices,
          '$JS.API.INFO',
          ...readStream(streamName),
          ...readStream(kvStream(buckets.snapshots)),
          ...keepByKey(buckets.seatTokens),
          ...keepByKey(buckets.projections),
          ...keepByKey(buckets.tableNotices),
          ...readKeys(buckets.tableOwners),
          ...readKeys(buckets.workerStatus),
        ],
        subscribe: [subjects.anyNotices, inbox],
      };
    case 'worker':
      return {
        publish: [
          layout.filter,
          subjects.commandFor('*', '*'),
          presence('*'),
          '$JS.API.INFO',
          ...keepStream(streamName),
          ...readStream(streamName),
          ...keepBucket(buckets.snapshots),
          ...keepBucket(buckets.workerLives),
          ...keepBucket(buckets.tableOwners),
          ...keepBucket(buckets.workerStatus),
          ...answersToRequesters(),
        ],
        subscribe: [
          // Only in the workers' queue group: a plain subscription here would take every command.
          `${subjects.anyCommand} ${WORKER_QUEUE}`,
          `${subjects.create} ${WORKER_QUEUE}`,
          subjects.commandsFor('*'),
          presence('*'),
          inbox,
        ],
      };
    case 'admin':
      return { publish: ['>'], subscribe: ['>'] };
  }
}

/**
 * The server's users: each identity of `secrets` with its permissions in the
 * deployment named by `settings`; during a rotation, its previous key too.
 */
export function natsUsers(secrets: NatsSecrets, settings: DeploymentSettings = {}): NatsUser[] {
  return NATS_ROLES.flatMap((role) => {
    const { publicKey, previousPublicKey } = secrets.identities[role];
    const permissions = permissionsOf(role, settings);
    const keys = previousPublicKey === undefined ? [publicKey] : [publicKey, previousPublicKey];
    return keys.map((key) => ({ role, publicKey: key, permissions }));
  });
}
