/**
 * The fuzzer's second path: the real gateway (built as the gateway's tests
 * build it, drivers/embeddedService.ts) listening on a loopback port. The
 * fuzzer holds every seat with a seat token and sends the commands as HTTP
 * POSTs and WebSocket messages, plus what only a network client can get
 * wrong: tokens, headers, bodies and frames. Every answer must be a
 * refusal with the status docs/api.md gives and a precise message, never a
 * 500 or a dropped connection.
 *
 * The rate limits are lifted (a fuzzer is one very fast client); everything
 * else is the gateway as it runs.
 */
import { Buffer } from 'node:buffer';
import type { Rng } from '../../machines/cards/shuffle.js';
import type { PlayerCommand, TableEvent } from '../../machines/table/events.js';
import { GAMES, type GameName } from '../../machines/table/options.js';
import { explainRefusal } from '../../machines/table/refusal.js';
import type { TableSnapshot } from '../../machines/table/snapshot.js';
import { TableHost, type TableHostOptions } from '../../services/host/tableHost.js';
import { openLocalStorage } from '../../services/storage/storage.js';
import { STATUS_OF } from '../../services/gateway/refusals.js';
import { CommandBody, SocketMessage } from '../../services/gateway/schemas.js';
import type { ErrorKind, SocketReply } from '../../services/gateway/socketProtocol.js';
import { SocketClient } from '../../drivers/socketClient.js';
import { ADMIN, bearer, listen, startService } from '../../drivers/embeddedService.js';
import { standInName } from '../../services/gateway/seating.js';
import { hashToken } from '../../services/tokens/seatTokens.js';
import { liftedRateLimits } from '../../services/gateway/limits.js';
import { compileChecker } from '../../services/gateway/validation.js';
import { FUZZ_SNAPSHOT_EVERY, type Answer, type Expected, type FuzzPath, type FuzzSettings } from './fuzzPath.js';
import { legalMove, type FuzzCommand } from './malformedCommands.js';
import type { SentCommand } from './tableWatch.js';

/** Bodies and socket messages of 16 KiB, the gateway's defaults, given explicitly so the expected answers cannot drift from them. */
const BODY_LIMIT = 16 * 1024;
const COMMAND_CHECKER = compileChecker(CommandBody);
const MESSAGE_CHECKER = compileChecker(SocketMessage);
const NOT_JSON_MESSAGE = 'a message is a JSON text: {"type":"command","id":"<any>","command":{...}}';

interface TableSeats {
  readonly tableId: string;
  readonly tokens: string[];
  readonly sockets: (SocketClient | null)[];
  spectator: SocketClient | null;
}

export async function openGatewayPath(settings: Pick<FuzzSettings, 'snapshotEvery' | 'createHost'>): Promise<FuzzPath> {
  const storage = openLocalStorage({ kind: 'memory' });
  const { store } = storage;
  const options: TableHostOptions = { store, snapshotEvery: settings.snapshotEvery ?? FUZZ_SNAPSHOT_EVERY };
  const host = settings.createHost?.(options) ?? new TableHost(options);
  // Bots only ever stand in for a moment, while a seat changes hands: they must not move in between, so the host
  // has no autopilot (its tables do not drive themselves).
  const service = startService({
    host,
    store,
    limits: liftedRateLimits(),
    bodyLimit: BODY_LIMIT,
    socketMessageLimit: BODY_LIMIT,
  });
  const socketBase = await listen(service.app);
  const httpBase = socketBase.replace(/^ws/, 'http');
  let seats: TableSeats | null = null;

  async function request(method: string, url: string, body: string | undefined, headers: Record<string, string>): Promise<Answer> {
    let status: number;
    let text: string;
    try {
      const response = await fetch(`${httpBase}${url}`, { method, body, headers });
      status = response.status;
      text = await response.text();
    } catch (error) {
      return crashed(`${method} ${url} failed: ${(error as Error).message} (${String((error as { cause?: unknown }).cause)})`);
    }
    let json: { version?: number; error?: string; message?: string };
    try {
      json = JSON.parse(text);
    } catch {
      return crashed(`${method} ${url} answered ${status} with a body that is not JSON: ${text.slice(0, 200)}`);
    }
    if (status >= 500) return crashed(`${method} ${url} answered ${status}: ${text.slice(0, 300)}`);
    if (status === 200) return { acceptedAt: json.version ?? -1, key: 'accepted', status, error: null, message: null, crash: null };
    return {
      acceptedAt: null,
      key: `${status} ${json.error}`,
      status,
      error: json.error ?? null,
      message: json.message ?? null,
      crash: null,
    };
  }

  const postCommand = (tableId: string, body: string | undefined, headers: Record<string, string>) =>
    request('POST', `/api/tables/${tableId}/commands`, body, { 'content-type': 'application/json', ...headers });

  /** A request the fuzzer needs answered as asked (a table, a seat): anything else stops the run. */
  async function created<T>(method: string, url: string, body: unknown, headers: Record<string, string> = {}, status = 201): Promise<T> {
    const response = await fetch(`${httpBase}${url}`, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    });
    if (response.status !== status) throw new Error(`${method} ${url} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  }

  async function seatTable(game: GameName, options: Record<string, string>): Promise<{ tableId: string; tokens: string[] }> {
    const { tableId } = await created<{ tableId: string }>('POST', '/api/tables', { game, options });
    const tokens: string[] = [];
    for (let seat = 0; seat < GAMES[game].seats; seat++) {
      tokens.push((await created<{ token: string }>('POST', `/api/tables/${tableId}/seats/${seat}`, { name: `Fuzzer ${seat}` })).token);
    }
    return { tableId, tokens };
  }

  // A table of its own whose seat token the fuzzer tries at every other table.
  const decoy = await seatTable('sevenSuitors', {});

  const socketUrl = (tableId: string, token?: string) =>
    `${socketBase}/api/tables/${tableId}/socket${token === undefined ? '' : `?token=${token}`}`;

  async function socketOf(table: TableSeats, seat: number): Promise<SocketClient> {
    const open = table.sockets[seat];
    if (open !== null && open.closed === null) return open;
    const socket = await SocketClient.open(socketUrl(table.tableId, table.tokens[seat]), KEEP_NOTHING);
    table.sockets[seat] = socket;
    return socket;
  }

  async function spectatorOf(table: TableSeats): Promise<SocketClient> {
    if (table.spectator === null || table.spectator.closed !== null)
      table.spectator = await SocketClient.open(socketUrl(table.tableId), KEEP_NOTHING);
    return table.spectator;
  }

  function current(tableId: string): TableSeats {
    if (seats?.tableId !== tableId) throw new Error(`the gateway path has no seats at table ${tableId}`);
    return seats;
  }

  let nextId = 1;
  let sends = 0;
  /** Sends a command over the seat's socket; the reply, or how the socket closed. */
  async function overSocket(table: TableSeats, seat: number, payload: string | Buffer, binary = false): Promise<Answer> {
    return answerOver(await socketOf(table, seat), payload, binary);
  }

  async function sendCommand(
    tableId: string,
    sent: FuzzCommand,
    overHttp: boolean,
    before: TableSnapshot | null,
  ): Promise<{ answer: Answer; expected: Expected; seen: unknown }> {
    const table = current(tableId);
    const token = table.tokens[sent.seat];
    const seen = { ...(sent.command as object), seat: sent.seat };
    if (overHttp) {
      const body = jsonText(sent.command);
      const expected = before === null ? null : guessed(() => httpExpected(before, body, sent.seat));
      return { answer: await postCommand(tableId, body, bearer(token)), expected, seen };
    }
    const id = nextId++;
    const message = jsonText({ type: 'command', id, command: sent.command }) ?? '';
    const expected = before === null ? null : guessed(() => socketExpected(before, message, sent.seat));
    return { answer: await overSocket(table, sent.seat, message), expected, seen };
  }

  return {
    via: 'gateway',
    host,
    store,
    async openTable(game, options) {
      if (seats !== null) await closeSockets(seats);
      const { tableId, tokens } = await seatTable(game, options);
      seats = { tableId, tokens, sockets: tokens.map(() => null), spectator: null };
      return tableId;
    },
    async send(tableId, sent, before) {
      // The seat is taken from the token: a command naming its own seat, or none, is the same command.
      return sendCommand(tableId, sent, sends++ % 5 < 3, before);
    },
    async sendTogether(tableId, sent) {
      // On one socket, so the gateway receives them in this order.
      const table = current(tableId);
      const seat = sent[0].seat;
      const socket = await socketOf(table, seat);
      const answers = await Promise.all(
        sent.map((each) =>
          answerOver(socket, jsonText({ type: 'command', id: nextId++, command: { ...(each.command as object), seat } }) ?? ''),
        ),
      );
      return answers.map((answer, i) => ({ answer, seen: { ...(sent[i].command as object), seat } }));
    },
    async sendGarbage(tableId, kind, at, rng) {
      const table = current(tableId);
      const move = legalMove(at, rng);
      const token = table.tokens[move.seat];
      const body = JSON.stringify(move);
      const refusal = (status: number, error: ErrorKind, message: string | null): Expected => ({ accepted: false, status, error, message });
      const ask = async (answer: Promise<Answer>, expected: Expected) => ({ answer: await answer, expected });
      switch (kind) {
        case 'noToken':
          return ask(
            postCommand(tableId, body, {}),
            refusal(401, 'unauthorized', 'this needs the seat token: send it as "Authorization: Bearer <token>"'),
          );
        case 'forgedToken':
          return ask(
            postCommand(tableId, body, bearer(forged(token, rng))),
            refusal(401, 'unauthorized', 'the token is not known: it was never issued or its seat was left; join a seat for a new one'),
          );
        case 'basicAuth':
          return ask(
            postCommand(tableId, body, { authorization: `Basic ${token}` }),
            refusal(401, 'unauthorized', 'send the token as "Authorization: Bearer <token>"'),
          );
        case 'adminToken':
          return ask(
            postCommand(tableId, body, ADMIN),
            refusal(403, 'forbidden', 'the admin token reads logs and records; it does not act for a seat'),
          );
        case 'otherTableToken':
          return ask(
            postCommand(tableId, body, bearer(decoy.tokens[0])),
            refusal(403, 'forbidden', `this token is for table ${decoy.tableId}, not ${tableId}`),
          );
        case 'otherSeatInBody': {
          const other = (move.seat + 1 + rng.below(table.tokens.length - 1)) % table.tokens.length;
          return ask(
            postCommand(tableId, JSON.stringify({ ...move, seat: other }), bearer(token)),
            refusal(403, 'forbidden', `this token holds seat ${move.seat}; it cannot act for seat ${other}`),
          );
        }
        case 'invalidJson':
          return ask(
            postCommand(tableId, body.slice(0, rng.below(body.length - 1) + 1), bearer(token)),
            refusal(400, 'badRequest', 'the body is not valid JSON'),
          );
        case 'emptyBody':
          return ask(postCommand(tableId, '', bearer(token)), refusal(400, 'badRequest', 'the body is empty; send a JSON object'));
        case 'wrongContentType':
          return ask(
            postCommand(tableId, body, { ...bearer(token), 'content-type': 'text/plain' }),
            refusal(400, 'badRequest', 'the body must be JSON, sent with Content-Type: application/json'),
          );
        case 'oversizeBody':
          return ask(
            postCommand(tableId, JSON.stringify({ ...move, pad: 'z'.repeat(BODY_LIMIT + rng.below(BODY_LIMIT)) }), bearer(token)),
            refusal(413, 'tooLarge', 'the body is over the size limit'),
          );
        case 'protoPoison':
          return ask(
            postCommand(tableId, `{"__proto__": {"seat": 0}, ${body.slice(1)}`, bearer(token)),
            refusal(400, 'badRequest', 'the body is not valid JSON'),
          );
        case 'wrongMethod':
          return ask(
            request('PUT', `/api/tables/${tableId}/commands`, body, { ...bearer(token), 'content-type': 'application/json' }),
            refusal(404, 'notFound', `there is no PUT /api/tables/${tableId}/commands; the API is under /api, described at /docs`),
          );
        case 'longTableId':
          return ask(postCommand(`${tableId}-${'x'.repeat(64)}`, body, bearer(token)), refusal(400, 'badRequest', null));
        case 'deepBody': {
          // Nested thousands deep yet under the size limit: what a parser or a message writer may choke on.
          const text = deepJson(move, rng);
          return ask(
            postCommand(tableId, text, bearer(token)),
            guessed(() => httpExpected(at.snapshot, text, move.seat)),
          );
        }
        case 'wsDeep': {
          const text = `{"type":"command","id":${nextId++},"command":${deepJson(move, rng)}}`;
          return ask(
            overSocket(table, move.seat, text),
            guessed(() => socketExpected(at.snapshot, text, move.seat)),
          );
        }
        case 'wsInvalidJson':
          return ask(
            overSocket(table, move.seat, `{"type":"command","id":${nextId++},"command":${body}`.slice(0, -1 - rng.below(10))),
            refusal(400, 'badRequest', NOT_JSON_MESSAGE),
          );
        case 'wsBinary':
          return ask(
            overSocket(table, move.seat, Buffer.from(JSON.stringify({ type: 'command', id: nextId++, command: move })), true),
            refusal(400, 'badRequest', NOT_JSON_MESSAGE),
          );
        case 'wsNotCommand': {
          const message = [{ type: 'hello' }, [1, 2], 'command', 7, null, { type: 'command', command: move, seat: 0 }][rng.below(6)];
          return ask(
            overSocket(table, move.seat, JSON.stringify(message)),
            refusal(400, 'badRequest', MESSAGE_CHECKER.problem(message, 'message')),
          );
        }
        case 'wsBadId': {
          const message = { type: 'command', id: [{ x: 1 }, true, 'i'.repeat(101)][rng.below(3)], command: move };
          return ask(
            overSocket(table, move.seat, JSON.stringify(message)),
            refusal(400, 'badRequest', MESSAGE_CHECKER.problem(message, 'message')),
          );
        }
        case 'wsSpectator': {
          const spectator = await spectatorOf(table);
          return ask(
            answerOver(spectator, JSON.stringify({ type: 'command', id: nextId++, command: move })),
            refusal(401, 'unauthorized', 'a spectator cannot act; connect with a seat token to send commands'),
          );
        }
        case 'wsOversize':
          return ask(
            overSocket(
              table,
              move.seat,
              JSON.stringify({ type: 'command', id: nextId++, command: { ...move, pad: 'z'.repeat(BODY_LIMIT + rng.below(BODY_LIMIT)) } }),
            ),
            { accepted: false, status: 1009, error: 'closed', message: null },
          );
        case 'wsForgedToken':
          return ask(
            upgradeRefusal(socketUrl(tableId, forged(token, rng))),
            refusal(401, 'unauthorized', 'the token is not known: it was never issued or its seat was left; join a seat for a new one'),
          );
        case 'wsOtherTableToken':
          return ask(
            upgradeRefusal(socketUrl(tableId, decoy.tokens[0])),
            refusal(403, 'forbidden', `this token is for table ${decoy.tableId}, not ${tableId}`),
          );
        case 'leftSeatToken': {
          // The seat is left (a bot stands in) and taken again: the token it had is revoked.
          const seat = move.seat;
          const left = await created<{ version: number }>('DELETE', `/api/tables/${tableId}/seats/${seat}`, undefined, bearer(token), 200);
          const name = `Fuzzer ${seat}`;
          const joined = await created<{ version: number; token: string }>('POST', `/api/tables/${tableId}/seats/${seat}`, { name });
          table.tokens[seat] = joined.token;
          const seatChanges: SentCommand[] = [
            { command: { type: 'seat.left', seat }, acceptedAt: left.version },
            { command: { type: 'seat.joined', seat, player: { name: standInName(name), bot: true } }, acceptedAt: left.version },
            { command: { type: 'seat.left', seat }, acceptedAt: joined.version },
            {
              command: { type: 'seat.joined', seat, player: { name, bot: false }, holder: hashToken(joined.token) },
              acceptedAt: joined.version,
            },
          ];
          const answer = await postCommand(tableId, body, bearer(token));
          const expected = refusal(
            401,
            'unauthorized',
            'the token is not known: it was never issued or its seat was left; join a seat for a new one',
          );
          return { answer, expected, seatChanges };
        }
      }
    },
    async close() {
      if (seats !== null) await closeSockets(seats);
      await service.close();
      await storage.close();
    },
  };
}

/** What the gateway must answer a POST of `body` by `seat`'s token, the table being in `before`. */
function httpExpected(before: TableSnapshot, body: string | undefined, seat: number): Expected {
  if (body === undefined) return { accepted: false, status: 400, error: 'badRequest', message: 'the body is empty; send a JSON object' };
  if (Buffer.byteLength(body) > BODY_LIMIT)
    return { accepted: false, status: 413, error: 'tooLarge', message: 'the body is over the size limit' };
  const parsed: unknown = JSON.parse(body);
  // Fastify refuses prototype poisoning while parsing, before any schema sees the body.
  if (poisons(parsed)) return { accepted: false, status: 400, error: 'badRequest', message: 'the body is not valid JSON' };
  return commandExpected(before, parsed, seat, 'body');
}

/** What the gateway must answer a socket message of `seat`. */
function socketExpected(before: TableSnapshot, message: string, seat: number): Expected {
  if (Buffer.byteLength(message) > BODY_LIMIT) return { accepted: false, status: 1009, error: 'closed', message: null };
  const parsed = JSON.parse(message) as { command?: unknown };
  const problem = MESSAGE_CHECKER.problem(parsed, 'message');
  if (problem !== null) return { accepted: false, status: 400, error: 'badRequest', message: problem };
  return commandExpected(before, parsed.command, seat, 'command');
}

/** The gateway's checks in its order: the shape, the seat the token holds, then the rules. */
function commandExpected(before: TableSnapshot, command: unknown, seat: number, root: string): Expected {
  const problem = COMMAND_CHECKER.problem(command, root);
  if (problem !== null) return { accepted: false, status: 400, error: 'badRequest', message: problem };
  const claimed = (command as { seat?: unknown }).seat;
  if (claimed !== undefined && claimed !== seat) {
    return {
      accepted: false,
      status: 403,
      error: 'forbidden',
      message: `this token holds seat ${seat}; it cannot act for seat ${claimed}`,
    };
  }
  const refusal = explainRefusal(before, { ...(command as object), seat } as TableEvent);
  return refusal === null
    ? { accepted: true }
    : { accepted: false, status: STATUS_OF[refusal.kind], error: refusal.kind, message: refusal.message };
}

/** A command with one field replaced by arrays nested 5,000 to 8,000 deep: under 16 KiB as JSON. */
function deepJson(move: PlayerCommand, rng: Rng): string {
  const depth = 5_000 + rng.below(3_000);
  const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const field = ['card', 'passes', 'accused', 'seat', 'type'][rng.below(5)];
  const { [field]: _replaced, ...rest } = move as unknown as Record<string, unknown>;
  const others = JSON.stringify(rest).slice(1, -1);
  return `{${others}${others === '' ? '' : ','}"${field}":${deep}}`;
}

function poisons(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Object.hasOwn(value, '__proto__')) return true;
  const constructorField = (value as { constructor?: unknown }).constructor;
  if (
    Object.hasOwn(value, 'constructor') &&
    typeof constructorField === 'object' &&
    constructorField !== null &&
    Object.hasOwn(constructorField, 'prototype')
  )
    return true;
  return Object.values(value).some(poisons);
}

function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** An expectation that cannot be worked out (a command too deep to write as JSON) is none: only a crash counts then. */
function guessed(expect: () => Expected): Expected {
  try {
    return expect();
  } catch {
    return null;
  }
}

/** A token of the right form that nobody was issued. */
function forged(token: string, rng: Rng): string {
  const at = rng.below(token.length);
  return `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
}

function crashed(what: string): Answer {
  return { acceptedAt: null, key: 'crash', status: null, error: null, message: null, crash: what };
}

async function upgradeRefusal(url: string): Promise<Answer> {
  try {
    const { status, body } = await SocketClient.refusal(url);
    if (status >= 500) return crashed(`the socket upgrade answered ${status}: ${JSON.stringify(body)}`);
    return { acceptedAt: null, key: `${status} ${body.error} (upgrade)`, status, error: body.error, message: body.message, crash: null };
  } catch (error) {
    return crashed(`the socket upgrade failed: ${(error as Error).message}`);
  }
}

async function closeSockets(table: TableSeats): Promise<void> {
  await Promise.all([...table.sockets, table.spectator].map((socket) => socket?.close()));
}

/** The fuzzer's sockets keep no message: views are not checked here, and each reply goes to its `request`. */
const KEEP_NOTHING = { keep: () => false };

/** A socket's answer to a command: its reply, or how the socket closed before one came. */
async function answerOver(socket: SocketClient, payload: string | Buffer, binary = false): Promise<Answer> {
  const reply = await socket.request(payload, { binary });
  if ('closed' in reply) {
    return reply.closed === 1009
      ? {
          acceptedAt: null,
          key: 'ws close 1009',
          status: 1009,
          error: 'closed',
          message: 'the socket was closed: message too big',
          crash: null,
        }
      : crashed(`the socket closed with code ${reply.closed}`);
  }
  return replyAnswer(reply);
}

function replyAnswer(reply: SocketReply): Answer {
  if (reply.type === 'accepted')
    return { acceptedAt: reply.version, key: 'accepted', status: 200, error: null, message: null, crash: null };
  if (reply.error === 'internal') return crashed(`the socket answered internal: ${reply.message}`);
  const status = STATUS_OF[reply.error] ?? null;
  return { acceptedAt: null, key: `${status} ${reply.error} (ws)`, status, error: reply.error, message: reply.message, crash: null };
}
