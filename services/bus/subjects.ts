/**
 * The NATS subjects of the table protocol between gateways and table
 * workers, under the deployment's subject prefix (`tables` by default; see
 * NATS_PREFIX). A table's commands go to its own subject; one worker owns a
 * table at a time (services/worker/README.md). A table's events are the
 * JetStream event store's messages on `<prefix>.<id>.events`: the store's
 * stream captures those subjects, so nothing else is ever published there.
 */

const DEFAULT_PREFIX = 'tables';

/** The queue group every table worker joins, so each undirected request reaches exactly one of them. */
export const WORKER_QUEUE = 'table-workers';

/** Table and worker ids become subject tokens and KV keys, so they are kept to letters, digits, `-` and `_`. */
const TOKEN = /^[A-Za-z0-9_-]{1,100}$/;

export function isRoutableTableId(tableId: unknown): tableId is string {
  return typeof tableId === 'string' && TOKEN.test(tableId);
}

export interface TableSubjects {
  /** A command for a table whose owner the sender does not know: any worker takes it (queue group). */
  command(tableId: string): string;
  /** A command addressed to the worker the sender believes owns the table. */
  commandFor(tableId: string, workerId: string): string;
  /** What every worker listens to in the queue group. */
  readonly anyCommand: string;
  /** What one worker listens to for commands addressed to it. */
  commandsFor(workerId: string): string;
  /** New tables (created or imported): made by any one worker. */
  readonly create: string;
  /** A table's notices (quick chat, the rematch as it stands), from gateway to gateways: never a game event, never stored. */
  notices(tableId: string): string;
  /** Every table's notices: what the gateways' permissions name. */
  readonly anyNotices: string;
  /** The table id a command subject is about. */
  tableIdOf(subject: string): string;
}

export function tableSubjects(prefix = DEFAULT_PREFIX): TableSubjects {
  const depth = prefix.split('.').length;
  return {
    command: (tableId) => `${prefix}.${tableId}.cmd`,
    commandFor: (tableId, workerId) => `${prefix}.${tableId}.cmd.${workerId}`,
    anyCommand: `${prefix}.*.cmd`,
    commandsFor: (workerId) => `${prefix}.*.cmd.${workerId}`,
    create: `${prefix}.create`,
    notices: (tableId) => `${prefix}.${tableId}.notices`,
    anyNotices: `${prefix}.*.notices`,
    tableIdOf: (subject) => subject.split('.')[depth] ?? '',
  };
}
