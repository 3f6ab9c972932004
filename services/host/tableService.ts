/**
 * What a gateway needs of the tables, wherever they live: the in-process
 * TableHost (embedded) or a client of table workers over NATS (distributed)
 * offers the same calls. Only an in-process host has moves of its own to
 * report (its tables' bots and clocks); on NATS the workers make them.
 */
import type { TableHost } from './tableHost.js';

export type TableService = Partial<Pick<TableHost, 'onOwnMove'>> &
  Pick<
  TableHost,
  | 'createTable'
  | 'importRecord'
  | 'forkTable'
  | 'submit'
  | 'snapshot'
  | 'view'
  | 'events'
  | 'replayAt'
  | 'exportRecord'
  | 'listTables'
  | 'close'
  | 'residentTables'
  | 'subscribe'
>;
