/**
 * A table's socket: a seat (by token) or a spectator receives its own view
 * at once and after every change, and a seat may send commands. A client
 * that reconnects with `after` = the last version it saw is sent only later
 * versions. Each socket has its own rate limit; a flood closes it.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import { WebSocket, type RawData } from 'ws';
import type { Viewer } from '../../../machines/view.js';
import type { SeatHold } from '../../tokens/seatTokens.js';
import { heldSeatOf, seatOf } from '../auth.js';
import type { GatewayContext } from '../context.js';
import { submitForSeat } from '../playerCommands.js';
import { TokenBucket } from '../rateLimit.js';
import { GatewayRefusal, refusalOf } from '../refusals.js';
import { clientOf } from '../clientIdentity.js';
import { SocketSlots } from '../socketSlots.js';
import type { TableNotices } from '../tableNotices.js';
import type { CommandId, SocketReply } from '../socketProtocol.js';
import { CommandBody, ErrorBody, SocketMessage, SocketQuery, TableParams, type CommandBody as Command } from '../schemas.js';
import { compileChecker } from '../validation.js';

/** Close codes (RFC 6455 policy violation): a flood of messages; a client not reading what it is sent. */
const CLOSE_FLOOD = 1008;
const CLOSE_NOT_READING = 1008;
const HEARTBEAT_MS = 30_000;

const SOCKET_SCHEMA = {
  summary: "A table's WebSocket: views on every change; a seat may send commands",
  description:
    'Server messages: {type:"view",version,view,turnDeadline,activeStates}, with views=changes {type:"changes",from,version,changes:[[path,value],...]}, ' +
    '{type:"accepted",id,version}, {type:"refused",id,error,message}; notices beside the views: {type:"rematch",rematch}, {type:"timedOut",seat,action,card}, {type:"chat",seat,phrase}. ' +
    'Client messages: {type:"command",id,command}.',
  tags: ['sockets'],
  params: TableParams,
  querystring: SocketQuery,
  response: { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody },
};

const messageChecker = compileChecker(SocketMessage);
const commandChecker = compileChecker(CommandBody);

export function socketRoute(context: GatewayContext, notices: TableNotices): FastifyPluginAsyncTypebox {
  const { feed, auth, watchers, metrics } = context;
  const socketRateLimit = context.limits.socketMessages;
  const unsentCap = context.limits.socketUnsentBytes;
  // Who a socket is, decided before the upgrade so refusals are plain HTTP answers.
  const callers = new WeakMap<FastifyRequest, SeatHold | null>();
  const slots = new SocketSlots(context.limits.socketsPerClient);

  return async (app) => {
    app.route({
      method: 'GET',
      url: '/api/tables/:tableId/socket',
      config: { cost: 'openSocket' },
      // A plain GET (no Upgrade) is answered, so the route shows in the OpenAPI document with what it wants.
      handler: async () => {
        throw new GatewayRefusal('badRequest', 'this is a WebSocket: connect with "Connection: Upgrade" and "Upgrade: websocket"');
      },
      schema: SOCKET_SCHEMA,
      preHandler: async (request) => {
        const { tableId } = request.params as { tableId: string };
        const { token } = request.query as { token?: string };
        const caller = await auth.fromToken(token, tableId);
        if (caller.kind === 'seat') seatOf(caller, tableId);
        const { snapshot } = await feed.current(tableId);
        const grant = caller.kind === 'seat' ? heldSeatOf(caller, tableId, snapshot.context) : null;
        if (request.headers.upgrade !== undefined) {
          // Given back when the connection closes: the socket's, or the answer's if the upgrade goes no further.
          const giveBack = slots.take(clientOf(request.ip, context.limits.ipv6ClientPrefix));
          request.raw.socket.once('close', giveBack);
        }
        callers.set(request, grant);
      },
      wsHandler: (socket, request) => {
        const { tableId } = request.params;
        const { after, views } = request.query;
        const grant = callers.get(request) ?? null;
        const viewer: Viewer = grant === null ? 'spectator' : grant.seat;
        const role = grant === null ? 'spectator' : 'seat';
        const send = corkedSender(socket, { wire: request.raw.socket, tableId, log: request.log }, unsentCap);
        const watcher = {
          viewer,
          ...(grant === null ? {} : { holder: grant.holder }),
          lastVersion: after ?? 0,
          views: views ?? 'whole',
          send,
          close: (code: number, reason: string) => socket.close(code, reason),
        };
        const unwatch = watchers.watch(tableId, watcher);
        const stopNotices = notices.listen(tableId, { send }, (error) =>
          request.log.error({ err: error, tableId }, 'reading what stands at the table (its rematch) for a new socket failed'),
        );
        metrics.socketOpened(role);
        const heartbeat = keepAlive(socket);
        socket.on('close', () => {
          clearInterval(heartbeat);
          unwatch();
          stopNotices();
          metrics.socketClosed(role);
        });
        socket.on('error', (error) => request.log.debug({ err: error }, 'socket error'));

        void feed.current(tableId).then(
          (change) => {
            // A client ahead of the table (a version from another service) starts over from the table as it is.
            if (after !== undefined && after > change.version && watcher.lastVersion === after) watcher.lastVersion = 0;
            watchers.deliver(change, watcher);
          },
          (error: unknown) => {
            request.log.error({ err: error }, 'reading the table for a new socket failed');
            socket.close(1011, 'the table could not be read');
          },
        );

        const answer = answerer(context, grant, request.log);
        socket.on(
          'message',
          floodGuard(
            socket,
            socketRateLimit,
            send,
            (data, isBinary) => void answer(data, isBinary).then((reply) => send(JSON.stringify(reply))),
          ),
        );
      },
    });
  };
}

/**
 * What a socket is sent in one run of callbacks (a move's view, then its 'accepted') leaves in one write once they
 * are done: at one system call per message, writes took a fifth of a saturated gateway's main thread. A client not
 * reading what it is sent is closed once more than `unsentCap` bytes wait for it.
 */
function corkedSender(
  socket: WebSocket,
  { wire, tableId, log }: { readonly wire: Socket; readonly tableId: string; readonly log: FastifyBaseLogger },
  unsentCap: number,
): (text: string) => void {
  let corked = false;
  return (text) => {
    if (socket.readyState !== WebSocket.OPEN) return;
    // Once closing, nothing more is queued: what waits stays under the cap and one message.
    if (socket.bufferedAmount > unsentCap) {
      log.info({ tableId, unsentBytes: socket.bufferedAmount }, 'a socket was closed: its client was not reading');
      socket.close(CLOSE_NOT_READING, `not reading: over ${unsentCap} bytes waited to be sent; reconnect with after=<last version>`);
      return;
    }
    if (!corked) {
      corked = true;
      wire.cork();
      process.nextTick(() => {
        corked = false;
        wire.uncork();
      });
    }
    socket.send(text);
  };
}

/** A client that stops answering pings (a dropped connection) is let go; the returned timer is cleared on close. */
function keepAlive(socket: WebSocket): NodeJS.Timeout {
  let alive = true;
  socket.on('pong', () => (alive = true));
  const heartbeat = setInterval(() => {
    if (!alive) {
      socket.terminate();
      return;
    }
    alive = false;
    socket.ping();
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return heartbeat;
}

/** Each socket's own token bucket: a message beyond it is refused, and a socket that keeps flooding is closed. */
function floodGuard(
  socket: WebSocket,
  rateLimit: GatewayContext['limits']['socketMessages'],
  send: (text: string) => void,
  take: (data: RawData, isBinary: boolean) => void,
): (data: RawData, isBinary: boolean) => void {
  const bucket = new TokenBucket(rateLimit);
  let floodCount = 0;
  return (data, isBinary) => {
    if (!bucket.take()) {
      floodCount++;
      if (floodCount > rateLimit.burst) {
        socket.close(CLOSE_FLOOD, 'too many messages');
        return;
      }
      const slowDown = new GatewayRefusal(
        'rateLimited',
        `at most ${rateLimit.perSecond} messages a second (bursts of ${rateLimit.burst}); slow down`,
      );
      send(JSON.stringify(refused(null, slowDown)));
      return;
    }
    floodCount = 0;
    take(data, isBinary);
  };
}

/** The answer to one message of a socket: its command submitted for the socket's seat, or why not. */
function answerer(
  context: GatewayContext,
  grant: SeatHold | null,
  log: FastifyBaseLogger,
): (data: RawData, isBinary: boolean) => Promise<SocketReply> {
  return async (data, isBinary) => {
    let message: unknown;
    try {
      if (isBinary) throw new Error('binary');
      message = JSON.parse(rawText(data));
    } catch {
      return refused(null, new GatewayRefusal('badRequest', 'a message is a JSON text: {"type":"command","id":"<any>","command":{...}}'));
    }
    const id = idOf(message);
    try {
      const problem = messageChecker.problem(message, 'message');
      if (problem !== null) throw new GatewayRefusal('badRequest', problem);
      if (grant === null) throw new GatewayRefusal('unauthorized', 'a spectator cannot act; connect with a seat token to send commands');
      const command = (message as SocketMessage).command;
      const commandProblem = commandChecker.problem(command, 'command');
      if (commandProblem !== null) throw new GatewayRefusal('badRequest', commandProblem);
      const accepted = await submitForSeat(context, grant, command as Command, { via: 'socket' });
      return { type: 'accepted', id, version: accepted.version };
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal === null) log.error({ err: error }, 'a socket command failed');
      else if (refusal.error === 'storageFull') context.storageFull.refusedWrite('a socket command');
      return refused(id, error);
    }
  };
}

function refused(id: CommandId, error: unknown): SocketReply {
  const refusal = refusalOf(error) ?? { error: 'internal' as const, message: 'the service failed; the operator can find it in the log' };
  return { type: 'refused', id, error: refusal.error, message: refusal.message };
}

function idOf(message: unknown): CommandId {
  const id = (message as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function rawText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}
