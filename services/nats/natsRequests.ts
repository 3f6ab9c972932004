/**
 * Requests over one reply subscription, each answer found by its token.
 *
 * nats.js's own `request()` builds an Error with its stack trace for every
 * request it answers (RequestOne.cancel rejects its settled promise with a
 * new RequestError("cancelled")), even with noAsyncTraces: in the NATS
 * benchmark that was a tenth of the gateway's CPU, with as much again in
 * garbage collection. Here an Error is made only for a request that fails,
 * and failures are the same error classes nats.js uses (TimeoutError, a
 * RequestError caused by NoRespondersError, ClosedConnectionError), so
 * callers tell them apart the same way.
 */
import {
  ClosedConnectionError,
  createInbox,
  NoRespondersError,
  RequestError,
  TimeoutError,
  type Msg,
  type MsgHdrs,
  type NatsConnection,
  type Subscription,
} from '@nats-io/nats-core';

interface Waiting {
  readonly subject: string;
  readonly resolve: (answer: Msg) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

export interface RequestOptions {
  readonly timeoutMs: number;
  readonly headers?: MsgHdrs;
}

/**
 * The inbox prefix the connection was opened with (connection.ts gives each
 * identity its own, which its permissions allow it alone); nats.js keeps it
 * in the options of its connection, which the interface does not show.
 */
function inboxPrefixOf(nc: NatsConnection): string | undefined {
  return (nc as { options?: { inboxPrefix?: string } }).options?.inboxPrefix;
}

export class NatsRequests {
  private readonly inbox: string;
  private readonly waiting = new Map<string, Waiting>();
  private readonly replies: Subscription;
  private lastToken = 0;

  constructor(private readonly nc: NatsConnection) {
    this.inbox = `${createInbox(inboxPrefixOf(nc))}.`;
    this.replies = nc.subscribe(`${this.inbox}*`, { callback: (_, answer) => this.answered(answer) });
    void nc.closed().then(() => this.failAll(() => new ClosedConnectionError()));
  }

  /** Publishes `payload` to `subject` and resolves with the first answer. */
  request(subject: string, payload: Uint8Array | string, options: RequestOptions): Promise<Msg> {
    if (this.nc.isClosed()) return Promise.reject(new ClosedConnectionError());
    const token = (++this.lastToken).toString(36);
    return new Promise<Msg>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(token);
        reject(new TimeoutError());
      }, options.timeoutMs);
      this.waiting.set(token, { subject, resolve, reject, timer });
      try {
        this.nc.publish(subject, payload, {
          reply: this.inbox + token,
          ...(options.headers === undefined ? {} : { headers: options.headers }),
        });
      } catch (error) {
        clearTimeout(timer);
        this.waiting.delete(token);
        reject(error as Error);
      }
    });
  }

  /** Fails what is still waiting and stops listening for answers. */
  close(): void {
    this.replies.unsubscribe();
    this.failAll(() => new RequestError('the requests were closed'));
  }

  private answered(answer: Msg): void {
    const token = answer.subject.slice(this.inbox.length);
    const waiting = this.waiting.get(token);
    if (waiting === undefined) return; // timed out already
    this.waiting.delete(token);
    clearTimeout(waiting.timer);
    // The server's answer when nobody subscribes to the subject: an empty message with status 503.
    if (answer.data.length === 0 && answer.headers?.code === 503) {
      waiting.reject(new RequestError(`no responders: ${waiting.subject}`, { cause: new NoRespondersError(waiting.subject) }));
    } else {
      waiting.resolve(answer);
    }
  }

  private failAll(error: () => Error): void {
    for (const [token, waiting] of this.waiting) {
      this.waiting.delete(token);
      clearTimeout(waiting.timer);
      waiting.reject(error());
    }
  }
}
