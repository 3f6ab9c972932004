/**
 * What subscribers hear: an ordered consumer on the whole stream (one
 * filter subject, as 2.9 requires), so listeners hear what any process
 * appended, once stored, in stream order; replaced by a new one when its
 * node is lost. Started by the first subscribe.
 */
import type { ConsumerMessages, JetStreamClient, JsMsg } from '@nats-io/jetstream';
import type { EventListener } from '../eventStore.js';
import { createSubscribers, type ListenerErrorHandler, type Subscribers } from '../subscribers.js';
import type { TableHeads } from './heads.js';
import { tableIdOfSubject, type JetStreamLayout } from './layout.js';
import { decodeAppend, type DecodedAppend } from './wireFormat.js';

export type BackgroundErrorHandler = (error: unknown, what: string) => void;

/**
 * A consumer that has heard nothing, not even a heartbeat (every 2 s), for
 * this long is replaced: when its node is gone, 2.9 keeps it assigned to
 * the dead node and the ordered consumer asks after it forever, and after a
 * reconnect nats.js does not even count missed heartbeats.
 */
const SILENCE_BEFORE_REPLACING_MS = 8000;

export class SubscriptionFeed {
  private readonly subscribers: Subscribers;
  /** The stream sequence of the message being delivered, for each listener's starting point. */
  private deliveringSeq = 0;
  private consumer: { stop(): Promise<void> } | undefined;

  constructor(
    private readonly js: JetStreamClient,
    private readonly layout: JetStreamLayout,
    private readonly heads: TableHeads,
    private readonly storeIsOpen: () => boolean,
    private readonly reportBackground: BackgroundErrorHandler,
    onListenerError: ListenerErrorHandler | undefined,
  ) {
    this.subscribers = createSubscribers(onListenerError);
  }

  /** A listener hears events at stream sequences after what this store had seen when it subscribed. */
  subscribe(listener: EventListener): () => void {
    const from = this.heads.highestSeq;
    const unsubscribe = this.subscribers.add((tableId, event) => {
      if (this.deliveringSeq > from) listener(tableId, event);
    });
    if (this.consumer === undefined && this.storeIsOpen()) {
      this.consumer = consumeInOrder(this.js, this.layout, from, (message) => this.deliver(message), this.reportBackground);
    }
    return unsubscribe;
  }

  async stop(): Promise<void> {
    await this.consumer?.stop();
  }

  private deliver(message: JsMsg): void {
    this.heads.sawSeq(message.seq);
    if (this.subscribers.size === 0) return;
    let decoded: DecodedAppend;
    let tableId: string;
    try {
      tableId = tableIdOfSubject(this.layout, message.subject);
      decoded = decodeAppend(message.subject, message.seq, message.headers, message.data);
    } catch (error) {
      this.reportBackground(error, `decoding stream message ${message.seq} for subscribers`);
      return;
    }
    this.deliveringSeq = message.seq;
    decoded.events.forEach((event, index) => {
      this.subscribers.publish(tableId, { seq: decoded.first + index, type: event.type, at: event.at, data: event.data });
    });
  }
}

/** Hands `deliver` every message of the stream after `fromSeq`, in order, until stopped, through lost nodes. */
function consumeInOrder(
  js: JetStreamClient,
  layout: JetStreamLayout,
  fromSeq: number,
  deliver: (message: JsMsg) => void,
  reportBackground: BackgroundErrorHandler,
): { stop(): Promise<void> } {
  let position = fromSeq; // the last stream sequence delivered (or skipped)
  let stopped = false;
  let messages: ConsumerMessages | undefined;
  const run = async () => {
    let failures = 0;
    while (!stopped) {
      try {
        // An ordered consumer: in stream order, without gaps or repeats; it recreates itself on a hiccup.
        const consumer = await js.consumers.get(layout.streamName, { filter_subjects: layout.filter, opt_start_seq: position + 1 });
        if (stopped) return;
        // Short pulls: a consumer lost with its node is noticed (two missed heartbeats, 4 s) quickly.
        const current = await consumer.consume({ max_messages: 1000, expires: 4000 });
        messages = current;
        if (stopped) {
          await current.close();
          return;
        }
        let heardAt = Date.now();
        const watchdog = setInterval(() => {
          if (Date.now() - heardAt > SILENCE_BEFORE_REPLACING_MS) void current.stop();
        }, 2000).unref();
        void (async () => {
          for await (const status of current.status()) {
            if (status.type === 'heartbeat') heardAt = Date.now();
            if (status.type === 'heartbeats_missed' && status.count >= 2) void current.stop();
          }
        })().catch(() => undefined);
        try {
          for await (const message of current) {
            heardAt = Date.now();
            failures = 0;
            position = message.seq;
            deliver(message);
          }
        } finally {
          clearInterval(watchdog);
        }
        if (!stopped) await new Promise((resolve) => setTimeout(resolve, 250));
      } catch (error) {
        if (stopped) return;
        // An election takes a few seconds: only a feed that stays down is worth a report.
        if (++failures % 10 === 3) reportBackground(error, `the subscription feed (${failures} failed starts; retrying)`);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  };
  const running = run();
  return {
    async stop() {
      stopped = true;
      await messages?.close().catch(() => undefined);
      await running;
    },
  };
}
