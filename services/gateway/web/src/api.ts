/**
 * The service's HTTP API (docs/api.md), typed for the client. Every refusal
 * comes back as an ApiError carrying the service's own message.
 */
import type { Card, Suit } from '../../../../machines/cards/card.js';
import type { Pass } from '../../../../machines/table/context.js';
import type { GameName } from '../../../../machines/table/options.js';
import type { TableView } from '../../../../machines/view.js';
import type { ChatPhrase, Rematch, VersionedView } from '../../socketProtocol.js';
import type { OperatorReport } from '../../operatorReport.js';
import type { FinishedFleetReport, FleetGameReport, FleetReport } from '../../../projections/fleet/fleetReportTypes.js';
import type { ContributionCommand } from './fairDeals.js';

export type { Rematch, VersionedView };
/** GET /api/fleet (docs/api.md, "Fleet"): counts only; with ?from=&to=, the games that ended in that range of UTC hours. */
export type { FinishedFleetReport, FleetReport };
/** One game and rules version of GET /api/fleet. */
export type FleetGame = FleetGameReport;
/** GET /api/admin/fleet, the operator's page's figures. */
export type { OperatorReport };
export type { OperatorTable, OperatorWorker } from '../../operatorReport.js';

export interface LobbyTable {
  readonly tableId: string;
  readonly game: GameName;
  readonly phase: string;
  readonly openSeats: readonly number[];
  readonly hand: number;
  readonly finished: boolean;
  readonly version: number;
  /** ISO time of the table's last event. */
  readonly lastEventAt: string;
}

export type BotKind = 'heuristic' | 'random';

/** A page of the lobby (GET /api/tables) or of the recent games (GET /api/tables/recent). */
export interface LobbyPage {
  readonly tables: readonly LobbyTable[];
  readonly page: number;
  readonly pages: number;
  readonly total: number;
}

export interface NewTable {
  readonly game: GameName;
  readonly options: Record<string, string>;
  readonly bots: readonly (number | { readonly seat: number; readonly kind: BotKind })[];
  readonly turnSeconds?: number;
}

export interface SeatTaken {
  readonly tableId: string;
  readonly seat: number;
  readonly token: string;
}

/** What each seat saw of its own hand, shown in a replay once the game is over. */
export interface OpenHand {
  readonly seat: number;
  readonly cards: readonly Card[];
  readonly roleCard: Suit | null;
  readonly role: 'traitor' | 'matchmaker' | null;
  readonly passesSent: readonly Pass[];
  readonly passesReceived: readonly Pass[];
  readonly accusation: number | null;
}

/** A replay's view: the spectator's, once the game is over every hand open too, or one seat's own view when asked for. */
export type ReplayView = TableView & { readonly open?: true; readonly openHands?: readonly OpenHand[] };

export interface ReplayStep {
  readonly at: number;
  /** The table's last event: the end of the timeline. */
  readonly version: number;
  readonly phase: string;
  /** The statechart state as XState writes it. */
  readonly state: unknown;
  /** The statechart states the table is in: the ids of the diagram's states to highlight. */
  readonly activeStates: readonly string[];
  readonly view: ReplayView;
}

export interface LoggedEvent {
  readonly seq: number;
  readonly type: string;
  readonly at: string;
  readonly data: Record<string, unknown>;
}

export type PlayerCommand =
  | { readonly type: 'cards.passed'; readonly passes: readonly { readonly to: number; readonly card: Card }[] }
  | { readonly type: 'card.played'; readonly card: Card }
  | { readonly type: 'traitor.accused'; readonly accused: number }
  | ContributionCommand;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly kind: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

async function request<T>(method: string, path: string, options: { body?: unknown; token?: string | null } = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  const json: unknown = text === '' ? null : JSON.parse(text);
  if (!response.ok) {
    const refusal = (json ?? {}) as { error?: string; message?: string };
    throw new ApiError(response.status, refusal.error ?? 'error', refusal.message ?? `${method} ${path} answered ${response.status}`);
  }
  return json as T;
}

const table = (tableId: string) => `/api/tables/${encodeURIComponent(tableId)}`;

export const api = {
  listTables: (page = 1) => request<LobbyPage>('GET', `/api/tables?page=${page}`),
  recentTables: (page = 1) => request<LobbyPage>('GET', `/api/tables/recent?page=${page}`),
  createTable: (body: NewTable) => request<{ tableId: string; version: number }>('POST', '/api/tables', { body }),
  /** `token`: one the client made (32 random bytes, base64url), so the same join may be sent again (seatJoin.ts). */
  takeSeat: (tableId: string, seat: number, name: string, token: string) =>
    request<SeatTaken>('POST', `${table(tableId)}/seats/${seat}`, { body: { name, token } }),
  leaveSeat: (tableId: string, seat: number, token: string) => request<unknown>('DELETE', `${table(tableId)}/seats/${seat}`, { token }),
  view: (tableId: string, token: string | null) => request<VersionedView>('GET', `${table(tableId)}/view`, { token }),
  send: (tableId: string, token: string, command: PlayerCommand) =>
    request<{ version: number }>('POST', `${table(tableId)}/commands`, { body: command, token }),
  log: (tableId: string) => request<{ events: LoggedEvent[] }>('GET', `${table(tableId)}/log`).then((answer) => answer.events),
  /** A new table that plays on from event `at` of a finished game, with the caller in `seat`. */
  fork: (tableId: string, at: number, seat: number, name: string) =>
    request<SeatTaken & { version: number }>('POST', `${table(tableId)}/fork`, { body: { at, seat, name } }),
  /** Stand-in bots take the open seats of a game under way (a fork's seats kept for its people), so it plays on. */
  startBots: (tableId: string, token: string) =>
    request<{ version: number; seats: number[] }>('POST', `${table(tableId)}/start`, { token }),
  /** Proposes a rematch of a finished game; `newToken` (made here) holds this person's seat at the new table. */
  proposeRematch: (tableId: string, token: string, newToken: string) =>
    request<{ rematch: Rematch }>('POST', `${table(tableId)}/rematch`, { body: { token: newToken }, token }).then(
      (answer) => answer.rematch,
    ),
  answerRematch: (tableId: string, token: string, accept: boolean, newToken: string | null) =>
    request<{ rematch: Rematch }>('POST', `${table(tableId)}/rematch/answer`, {
      body: newToken === null ? { accept } : { accept, token: newToken },
      token,
    }).then((answer) => answer.rematch),
  /** Says a preset phrase at the table (quickChat.ts). */
  chat: (tableId: string, token: string, phrase: ChatPhrase) =>
    request<null>('POST', `${table(tableId)}/chat`, { body: { phrase }, token }),
  /** The table right after event `at`; with `seat` (a finished game), as that seat saw it. */
  replay: (tableId: string, at: number, seat: number | null = null) =>
    request<ReplayStep>('GET', `${table(tableId)}/replay?at=${at}${seat === null ? '' : `&seat=${seat}`}`),
};

/** A table's socket, sending each version as what changed since the one before (docs/api.md, `views=changes`). */
export function socketUrl(tableId: string, token: string | null, after: number | null): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const query = new URLSearchParams();
  if (token) query.set('token', token);
  if (after !== null) query.set('after', String(after));
  query.set('views', 'changes');
  const search = query.toString();
  return `${scheme}://${location.host}${table(tableId)}/socket${search === '' ? '' : `?${search}`}`;
}

/** The fleet (public counts) and its overlay drawn on a game's diagram. */
export const fleetApi = {
  fleet: () => request<FleetReport>('GET', '/api/fleet'),
  /** `from` and `to`: UTC hours, as 2026-12-01T13:00:00Z. */
  finished: (from: string, to: string) =>
    request<FinishedFleetReport>('GET', `/api/fleet?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`),
  /**
   * The diagram with the overlay, and its ETag, so a page redraws only what changed: the tables in play, or
   * with `range` (UTC hours, as `finished`) the games that ended in it.
   */
  async overlay(
    game: GameName,
    range?: { readonly from: string; readonly to: string },
  ): Promise<{ readonly etag: string | null; readonly svg: string }> {
    const within = range === undefined ? '' : `&from=${encodeURIComponent(range.from)}&to=${encodeURIComponent(range.to)}`;
    const path = `/machines/${encodeURIComponent(game)}.svg?fleet=1${within}`;
    const response = await fetch(path, { cache: 'no-cache' });
    if (!response.ok) throw new ApiError(response.status, 'error', `GET ${path} answered ${response.status}`);
    return { etag: response.headers.get('etag'), svg: await response.text() };
  },
};

/** The operator's page's figures, with the admin token. */
export const operatorApi = {
  fleet: (adminToken: string) => request<OperatorReport>('GET', '/api/admin/fleet', { token: adminToken }),
};
