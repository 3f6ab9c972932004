/**
 * Seat tokens in a JetStream KV bucket, for the distributed service: a seat
 * taken through one gateway is recognised by every other. Like the SQLite
 * store, only each token's SHA-256 is kept.
 *
 * Keys: `h.<hash>` holds the grant `{tableId, seat}` (what `resolve` reads);
 * `s.<table>.<seat>.<hash>` marks the seat's tokens, so `revokeSeat` finds
 * them without reading the whole bucket. It finds them in the bucket's
 * stream's subject list, not with a consumer (`kv.keys()`): a gateway may
 * make no consumer on a stream it writes (natsPermissions.ts says why).
 */
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/nats-core';
import { tableToken } from '../eventstore/jetstream/index.js';
import { isTransient } from '../nats/natsErrors.js';
import { retryWhileTransient } from '../nats/transientTrouble.js';
import { TableUnavailable } from '../nats/unavailable.js';
import { hashToken, looksLikeToken, newToken, type SeatGrant, type SeatTokens } from './seatTokens.js';

export interface KvSeatTokensOptions {
  readonly replicas?: number;
  /** How long a read or write is asked again while NATS is in trouble (a node restarting), in ms (default 5000). */
  readonly retryForMs?: number;
  /** The bucket is `<namespace>-seat-tokens`: the event stream's name, so deployments stay apart. */
  readonly namespace?: string;
  /**
   * Whether opening creates the bucket when it is missing (default true; an existing bucket keeps its own settings).
   * False binds to it without asking: the CLI, which reads only logs, changes nothing on NATS by opening.
   */
  readonly createMissing?: boolean;
}

/** The bucket of the deployment whose event stream is `namespace` (bus/deploymentNames.ts lists it with the others). */
export function seatTokensBucket(namespace: string): string {
  return `${namespace}-seat-tokens`;
}

export async function openKvSeatTokens(nc: NatsConnection, options: KvSeatTokensOptions = {}): Promise<SeatTokens> {
  const bucket = seatTokensBucket(options.namespace ?? 'TABLE_EVENTS');
  const jsm = await jetstreamManager(nc);
  // Reads go to the leader: a token issued a moment ago resolves at once.
  const kv: KV =
    options.createMissing === false
      ? await new Kvm(nc).open(bucket, { allow_direct: false })
      : await new Kvm(nc).create(bucket, { history: 1, replicas: options.replicas ?? 1, allow_direct: false });
  const seatPrefix = ({ tableId, seat }: SeatGrant) => `s.${tableToken(tableId)}.${seat}`;
  const retryForMs = options.retryForMs ?? 5000;
  /** NATS trouble outlasting the retries is the service being unavailable (503), not failing (500). */
  const surely = async <T>(what: string, request: () => Promise<T>): Promise<T> => {
    try {
      return await retryWhileTransient(request, retryForMs, () => nc.isClosed());
    } catch (error) {
      // Not the error's own text: it names the token's key in the bucket.
      if (isTransient(error)) throw new TableUnavailable(`seat tokens cannot be ${what} now: NATS JetStream is not answering`);
      throw error;
    }
  };
  return {
    async issue(grant, token = newToken()) {
      const hash = hashToken(token);
      await surely('written', () => kv.put(`h.${hash}`, JSON.stringify({ tableId: grant.tableId, seat: grant.seat })));
      await surely('written', () => kv.put(`${seatPrefix(grant)}.${hash}`, ''));
      return token;
    },
    async resolve(token) {
      if (!looksLikeToken(token)) return null;
      const entry = await surely('read', () => kv.get(`h.${hashToken(token)}`));
      return entry === null || entry.operation !== 'PUT' ? null : entry.json<SeatGrant>();
    },
    async revokeSeat(grant) {
      const prefix = seatPrefix(grant);
      const marks = await surely('read', () => keysUnder(jsm, bucket, prefix));
      let revoked = 0;
      for (const mark of marks) {
        if ((await surely('read', () => kv.get(mark)))?.operation !== 'PUT') continue;
        const hash = mark.slice(prefix.length + 1);
        const entry = await surely('read', () => kv.get(`h.${hash}`));
        // A token recorded again for another seat keeps its mark here, but holds that seat now: it is not this seat's.
        if (entry !== null && entry.operation === 'PUT' && holdsSeat(entry.json<SeatGrant>(), grant)) {
          await surely('revoked', () => kv.purge(`h.${hash}`));
          revoked++;
        }
        await surely('revoked', () => kv.purge(mark));
      }
      return revoked;
    },
    async revoke(holder) {
      const entry = await surely('read', () => kv.get(`h.${holder}`));
      if (entry === null || entry.operation !== 'PUT') return;
      await surely('revoked', () => kv.purge(`h.${holder}`));
      await surely('revoked', () => kv.purge(`${seatPrefix(entry.json<SeatGrant>())}.${holder}`));
    },
    async close() {
      // The connection is the caller's.
    },
  };
}

function holdsSeat(held: SeatGrant, seat: SeatGrant): boolean {
  return held.tableId === seat.tableId && held.seat === seat.seat;
}

/** The keys under `prefix` that have a message in the bucket (their latest may be a deletion). */
async function keysUnder(jsm: JetStreamManager, bucket: string, prefix: string): Promise<string[]> {
  const subjectPrefix = `$KV.${bucket}.`;
  const info = await jsm.streams.info(`KV_${bucket}`, { subjects_filter: `${subjectPrefix}${prefix}.*` });
  return Object.keys(info.state.subjects ?? {}).map((subject) => subject.slice(subjectPrefix.length));
}
