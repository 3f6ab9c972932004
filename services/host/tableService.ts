/**
 * What the gateway, bots and clocks need of the tables, wherever they live:
 * the in-process TableHost (embedded) or a client of table workers over NATS
 * (distributed) offers the same calls.
 */
import type { TableHost } from './tableHost.js';

export type TableService = Pick<
  TableHost,
  | 'createTable'
  | 'importRecord'
  | 'forkTable'
  | 'submit'
  | 'timeOut'
  | 'snapshot'
  | 'view'
  | 'events'
  | 'replayAt'
  | 'exportRecord'
  | 'listTables'
  | 'close'
  | 'residentTables'
>;
