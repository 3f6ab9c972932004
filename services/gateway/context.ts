/** What the gateway's routes share: the ways to tables, tokens, sockets and limits. */
import type { Tracer } from '@opentelemetry/api';
import type { TableService } from '../host/tableService.js';
import type { SeatTokens } from '../tokens/seatTokens.js';
import type { Authenticator } from './auth.js';
import type { GatewayMetrics } from './metrics.js';
import type { GatewayLimits } from './limits.js';
import type { Lobby } from './lobby.js';
import type { Seating } from './seating.js';
import type { TableFeed } from './tableFeed.js';
import type { StorageFullNotices } from '../storageFull.js';
import type { StorageBudget } from './storageBudget.js';
import type { TableWatchers } from './tableWatchers.js';

export interface GatewayContext {
  readonly host: TableService;
  readonly feed: TableFeed;
  readonly auth: Authenticator;
  readonly seating: Seating;
  /** Seat tokens: issued here only for a seat taken with a new table (a fork); seating.ts issues the rest. */
  readonly tokens: SeatTokens;
  readonly watchers: TableWatchers;
  readonly metrics: GatewayMetrics;
  readonly limits: GatewayLimits;
  readonly lobby: Lobby;
  /** What each client has added to the store today: new tables, forks and imports are refused past it. */
  readonly storageBudget: StorageBudget;
  /** Writes refused because the storage is full: logged once a minute at most, and counted for the metrics. */
  readonly storageFull: StorageFullNotices;
  /** Makes the span of each player's command (playerCommands.ts). */
  readonly tracer: Tracer;
}
