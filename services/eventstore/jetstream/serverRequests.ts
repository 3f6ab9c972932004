/**
 * The store's requests to the server, waiting out what a leader election or
 * a reconnect causes (timeouts, no responders, "temporarily unavailable")
 * for `retryForMs` instead of failing on it.
 *
 * Publishes carry an expectation (`Nats-Expected-Last-Subject-Sequence`), so
 * the server, not this process, decides whether a write comes too late; and
 * a retried append keeps its `Nats-Msg-Id`, so the server's duplicate window
 * stores it once.
 */
import { JetStreamApiError } from '@nats-io/jetstream';
import { headers as natsHeaders, type MsgHdrs, type NatsConnection } from '@nats-io/nats-core';
import { NatsRequests } from '../../nats/natsRequests.js';
import { retryWhileTransient } from '../../nats/transientTrouble.js';

export interface Expectation {
  /** The stream sequence of the subject's last message; 0 for a subject without one. */
  readonly lastSubjectSequence: number;
  readonly msgID?: string;
}

export class ServerRequests {
  // Our own requests: nats.js's request() builds an Error, with its stack trace, per answer.
  private readonly requests: NatsRequests;

  constructor(
    private readonly nc: NatsConnection,
    private readonly requestTimeoutMs: number,
    private readonly retryForMs: number,
  ) {
    this.requests = new NatsRequests(nc);
  }

  /** Runs `request` until it is answered, retrying transient trouble for `retryForMs`. */
  persist<T>(request: () => Promise<T>): Promise<T> {
    return retryWhileTransient(request, this.retryForMs, () => this.nc.isClosed());
  }

  /** Publishes with an expectation until the stream acknowledges or refuses it. */
  publishForAck(
    subject: string,
    payload: string | Uint8Array,
    expected: Expectation,
    headers?: MsgHdrs,
  ): Promise<{ seq: number; duplicate: boolean }> {
    return this.persist(() => this.publishOnce(subject, payload, expected, headers));
  }

  /**
   * Puts a KV value only if the key is still at `revision` (0: absent), as
   * KV.put({previousSeq}) does, but retried like an append. No message id is
   * needed: a retry of a put that was stored meets a newer revision, and the
   * caller then reads the key and finds its value (or a newer one) there.
   */
  async putIfAt(bucket: string, key: string, value: string | Uint8Array, revision: number): Promise<number> {
    return (await this.publishForAck(`$KV.${bucket}.${key}`, value, { lastSubjectSequence: revision })).seq;
  }

  close(): void {
    this.requests.close();
  }

  private async publishOnce(
    subject: string,
    payload: string | Uint8Array,
    expected: Expectation,
    headers: MsgHdrs = natsHeaders(),
  ): Promise<{ seq: number; duplicate: boolean }> {
    headers.set('Nats-Expected-Last-Subject-Sequence', String(expected.lastSubjectSequence));
    if (expected.msgID !== undefined) headers.set('Nats-Msg-Id', expected.msgID);
    const answer = await this.requests.request(subject, payload, { timeoutMs: this.requestTimeoutMs, headers });
    const ack = answer.json<{
      stream?: string;
      seq?: number;
      duplicate?: boolean;
      error?: { code: number; err_code: number; description: string };
    }>();
    if (ack.error !== undefined) throw new JetStreamApiError(ack.error);
    if (typeof ack.stream !== 'string' || ack.stream === '' || !Number.isSafeInteger(ack.seq)) {
      throw new Error(`publishing to ${subject} was answered with ${answer.string().slice(0, 200)}, not a stream's ack`);
    }
    return { seq: ack.seq!, duplicate: ack.duplicate === true };
  }
}
