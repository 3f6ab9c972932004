/**
 * What a table's socket carries (docs/api.md, "WebSocket"), declared once:
 * the gateway sends these, and the web client, the drivers (drivers/) and
 * the tests read them. Types and plain constants, importing no code, so the
 * web client can import it without bundling any of the service
 * (test/browser/webBuild.test.ts checks that).
 *
 * The client's one message, `{ type: "command", id, command }`, is checked
 * at the gateway by the `SocketMessage` schema (schemas.ts).
 */
import type { Card } from '../../machines/cards/card.js';
import type { ViewChange } from '../../machines/viewChanges.js';
import type { TableView } from '../../machines/view.js';

/** The close code a seat's sockets get when the seat is left or changes hands (its token no longer holds it). */
export const SEAT_CHANGED_HANDS = 4001;

/**
 * The close code every socket of a gateway gets when the gateway stops
 * (WebSocket's "service restart"): nothing is wrong with the table; connect
 * again at once, to this address or any other gateway, resuming from the
 * last version seen (`?after=`).
 */
export const GATEWAY_GOING_AWAY = 1012;

/** The kind of every refusal, over HTTP (`{ error, message }`, with its status) and on a socket. */
export type ErrorKind =
  | 'badRequest'
  | 'unauthorized'
  | 'forbidden'
  | 'unknownTable'
  | 'notFound'
  | 'notNow'
  | 'tooLarge'
  | 'malformed'
  | 'illegal'
  | 'invalidRecord'
  | 'rateLimited'
  | 'unavailable'
  | 'quarantined'
  | 'notQuarantined'
  /** The table was retired: its log and snapshots are deleted, its game record kept (410). */
  | 'gone'
  /** The service's storage is full: nothing was written (507). */
  | 'storageFull'
  | 'internal';

/** A viewer's view of the table as of `version`: a socket's view message, and the answer of GET .../view. */
export interface VersionedView {
  readonly version: number;
  readonly view: TableView;
  /** When the turn clock runs out for the seats awaited (ISO time); null without a clock. */
  readonly turnDeadline: string | null;
  /** The statechart states the table is in (ids of the diagram's states), from the same snapshot as the view. */
  readonly activeStates: readonly string[];
}

/** Sent at once and after every change (to a socket that asked for changes: at once, and when it lacks the version before). */
interface ViewMessage extends VersionedView {
  readonly type: 'view';
}

/**
 * To a socket opened with `views=changes` that holds version `from`, the
 * next version as what differs from it: each `[path, value]` sets a value of
 * the VersionedView it holds (machines/viewChanges.ts's withChanges), and
 * the result is exactly the `view` message it would have been sent.
 */
export interface ChangesMessage {
  readonly type: 'changes';
  readonly from: number;
  readonly version: number;
  readonly changes: readonly ViewChange[];
}

/** What a socket's views come as: each version whole (the default), or what changed since the version before. */
export type ViewsSent = 'whole' | 'changes';

/** The id the client gave its command, echoed in the reply; null when the message could not be read. */
export type CommandId = string | number | null;

interface AcceptedReply {
  readonly type: 'accepted';
  readonly id: CommandId;
  /** The version of the change the command made (its last event). */
  readonly version: number;
}

interface RefusedReply {
  readonly type: 'refused';
  readonly id: CommandId;
  readonly error: ErrorKind;
  readonly message: string;
}

/** The answer to a client's command. */
export type SocketReply = AcceptedReply | RefusedReply;

/** A person's answer to a rematch: the proposer's is `proposed`; `waiting` until they answer. */
export type RematchAnswer = 'proposed' | 'waiting' | 'accepted' | 'declined';

/**
 * A rematch of a finished table (POST /api/tables/:id/rematch), as it
 * stands: open until every person at the table has answered or it expires;
 * then `started` (the new table seats those who accepted, in the same seats,
 * bots for the rest), or `declined` / `expired` when nobody but the proposer
 * accepted.
 */
export interface Rematch {
  readonly tableId: string;
  /** One more than the last proposal at this table while that is remembered (two minutes), so a client tells a new proposal from the last one. */
  readonly round: number;
  readonly proposer: number;
  /** The people at the finished table, seat order, and each one's answer. */
  readonly seats: readonly { readonly seat: number; readonly name: string; readonly answer: RematchAnswer }[];
  readonly status: 'open' | 'started' | 'declined' | 'expired';
  /** When an open proposal expires (ISO time). */
  readonly expiresAt: string;
  /** The new table, once started. */
  readonly rematchTableId: string | null;
}

/** Sent to every socket of the table when a rematch is proposed or answered, and to a socket opened while one stands. */
interface RematchMessage {
  readonly type: 'rematch';
  readonly rematch: Rematch;
}

/**
 * A seat's turn clock ran out and a bot moved for it: to every socket of the
 * table, so everyone knows the move was not the player's. The card of a play
 * is public (it is on the table); what was passed, or whom an accusation
 * named, is not said.
 */
export interface TimedOutMessage {
  readonly type: 'timedOut';
  readonly seat: number;
  readonly action: 'play' | 'pass' | 'accuse';
  /** The card played for the seat; null for a pass or an accusation. */
  readonly card: Card | null;
}

/**
 * Quick chat: the preset phrases and emotes a seat may send its table
 * (POST /api/tables/:id/chat). No free text, so nothing to moderate; the
 * client words each one itself.
 */
export const CHAT_PHRASES = ['hello', 'goodLuck', 'wellPlayed', 'oops', 'thanks', 'goodGame', 'thinking', 'laugh', 'wow', 'cheer'] as const;
export type ChatPhrase = (typeof CHAT_PHRASES)[number];

/** A seat said something: to every socket of the table (seats and spectators), never to anyone else, never logged. */
export interface ChatMessage {
  readonly type: 'chat';
  readonly seat: number;
  readonly phrase: ChatPhrase;
}

/** What a table's sockets are told beside its views (tableNotices.ts): never a game event, never in the log. */
export type NoticeMessage = RematchMessage | TimedOutMessage | ChatMessage;

/** Every message the gateway sends on a table's socket. */
export type ServerMessage = ViewMessage | ChangesMessage | SocketReply | NoticeMessage;
