/**
 * A client of a table's socket for the tests, the fuzzer and the abuse run:
 * it opens the socket (from a loopback address of its own when asked: the
 * gateway's limits are per address), keeps what the gateway sends, waits for
 * a message, and sends a command and waits for the reply with its id. The
 * players (players/seatClient.ts) open their sockets with `whenOpen` too.
 */
import { WebSocket } from 'ws';
import { nextVersionOf } from '../machines/viewChanges.js';
import type { ChangesMessage, SocketReply, VersionedView } from '../services/gateway/socketProtocol.js';

/**
 * A message as it came over the wire. The tests read it freely, fields the
 * protocol's types (services/gateway/socketProtocol.ts) say it cannot have
 * included: that is what they check.
 */
// biome-ignore lint/suspicious/noExplicitAny: the tests read the fields of messages whose shape they assert
export type WireMessage = any;

/** The gateway refused the upgrade: its HTTP answer. */
export class UpgradeRefused extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`the socket upgrade was refused: HTTP ${status} ${body.slice(0, 200)}`);
  }
}

export class ClosedBeforeOpen extends Error {
  constructor() {
    super('the socket closed before it opened');
  }
}

/** Resolves once `socket` is open; rejects with UpgradeRefused, ClosedBeforeOpen or the connection's own error. */
export function whenOpen(socket: WebSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('unexpected-response', (request, response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => {
        request.destroy();
        reject(new UpgradeRefused(response.statusCode ?? 0, body));
      });
    });
    socket.once('error', reject);
    socket.once('close', () => reject(new ClosedBeforeOpen()));
  });
}

export interface SocketClientOptions {
  /** The address to connect from (127.0.0.1 by default). */
  readonly localAddress?: string;
  /** Which messages `messages` keeps (all by default; a long run keeps none and takes its replies from `request`). */
  readonly keep?: (message: WireMessage) => boolean;
}

/** What `request` gets when the socket closes before the reply: the close code. */
export interface ClosedBeforeReply {
  readonly closed: number;
}

export class SocketClient {
  readonly messages: WireMessage[] = [];
  closed: { code: number; reason: string } | null = null;
  /** The last view received (or rebuilt from changes): what the next `changes` message applies to. */
  private held: VersionedView | undefined;
  private readonly listeners = new Set<(message: WireMessage) => void>();
  /** Commands sent by `request`, by the id the gateway will echo, in the order sent. */
  private readonly awaitingReply = new Map<string, ((reply: SocketReply | ClosedBeforeReply) => void)[]>();

  private constructor(
    readonly socket: WebSocket,
    private readonly keep: (message: WireMessage) => boolean = () => true,
  ) {
    socket.on('message', (data) => this.receive(JSON.parse(data.toString())));
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      for (const id of [...this.awaitingReply.keys()]) while (this.awaitingReply.has(id)) this.settle(id, { closed: code });
    });
    // An error is followed by the close, which is what a caller sees.
    socket.on('error', () => undefined);
  }

  /** Opens a socket to `url`; rejects as `whenOpen` does. */
  static async open(url: string, options: SocketClientOptions = {}): Promise<SocketClient> {
    const socket = new WebSocket(url, { localAddress: options.localAddress });
    const client = new SocketClient(socket, options.keep);
    await whenOpen(socket);
    return client;
  }

  /** The HTTP status and body (JSON) of an upgrade the gateway refuses; fails if it is accepted. */
  static async refusal(url: string, options: SocketClientOptions = {}): Promise<{ status: number; body: WireMessage }> {
    let accepted: SocketClient;
    try {
      accepted = await SocketClient.open(url, options);
    } catch (error) {
      if (error instanceof UpgradeRefused) return { status: error.status, body: JSON.parse(error.body) };
      throw error;
    }
    accepted.socket.terminate();
    throw new Error(`the socket was accepted: ${url}`);
  }

  get views(): WireMessage[] {
    return this.messages.filter((message) => message.type === 'view');
  }

  get lastView(): WireMessage | undefined {
    return this.views.at(-1);
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Calls `listener` with every message from now on; the returned function stops it. */
  listen(listener: (message: WireMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The first message kept so far, or received from now on, that matches. */
  next(predicate: (message: WireMessage) => boolean, what: string, timeoutMs = 20_000): Promise<WireMessage> {
    const found = this.messages.find(predicate);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        stop();
        reject(new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`));
      }, timeoutMs);
      const stop = this.listen((message) => {
        if (!predicate(message)) return;
        clearTimeout(timer);
        stop();
        resolve(message);
      });
    });
  }

  /**
   * Sends `payload` and resolves with the reply that echoes its id (the
   * gateway answers a message it cannot read with id null, in order), or
   * with the close code should the socket close first.
   */
  request(payload: string | Buffer, { binary = false } = {}): Promise<SocketReply | ClosedBeforeReply> {
    if (this.closed !== null) return Promise.resolve({ closed: this.closed.code });
    const id = echoedId(payload, binary);
    return new Promise((resolve) => {
      const queue = this.awaitingReply.get(id) ?? [];
      queue.push(resolve);
      this.awaitingReply.set(id, queue);
      this.socket.send(payload, { binary });
    });
  }

  async close(): Promise<void> {
    if (this.closed !== null) return;
    const closed = new Promise((resolve) => this.socket.once('close', resolve));
    this.socket.close();
    await closed;
  }

  private receive(received: WireMessage): void {
    const message = received?.type === 'changes' ? this.rebuilt(received) : received;
    if (message?.type === 'view') this.held = message;
    if (this.keep(message)) this.messages.push(message);
    if (message?.type === 'accepted' || message?.type === 'refused') this.settle(String(message.id), message as SocketReply);
    for (const listener of [...this.listeners]) listener(message);
  }

  /**
   * A socket opened with `views=changes`: each `changes` message is applied
   * to the view held, and kept as the view message it makes, with what came
   * over the wire under `sentAs` (so the tests read views alike in both
   * modes, and a leak scan of the message reads the changes too). Changes
   * from a version other than the one held are kept as they came, for a
   * test to fail on.
   */
  private rebuilt(changes: ChangesMessage): WireMessage {
    const next = this.held === undefined ? null : nextVersionOf(this.held, changes);
    return next === null ? changes : { ...next, type: 'view', sentAs: changes };
  }

  private settle(id: string, reply: SocketReply | ClosedBeforeReply): void {
    const queue = this.awaitingReply.get(id);
    const resolve = queue?.shift();
    if (queue?.length === 0) this.awaitingReply.delete(id);
    resolve?.(reply);
  }
}

/** The id the gateway will echo: the message's own when it can read it, otherwise null. */
function echoedId(payload: string | Buffer, binary: boolean): string {
  if (binary) return 'null';
  try {
    const id = (JSON.parse(payload.toString()) as { id?: unknown } | null)?.id;
    return typeof id === 'string' || typeof id === 'number' ? String(id) : 'null';
  } catch {
    return 'null';
  }
}
