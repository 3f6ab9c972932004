/**
 * Why the host refused something. Each kind maps to one HTTP status at the
 * gateway; the message is for the person who sent the command.
 */
import type { RefusalKind as RuleRefusalKind } from '../../machines/table/refusal.js';
import type { EventStore, RetiredTable } from '../eventstore/eventStore.js';

/**
 * The machine's kinds of refusal, plus the host's own: no such table, a
 * record that does not verify, a token that no longer holds its seat, too
 * much costly work (imports) already under way, a table whose log a newer
 * release wrote (rules or an event schema this release does not know), a
 * table whose log holds an event the machine refuses (quarantine.ts), a
 * repair asked of a table that needs none, and a table retired (its log
 * deleted, its record kept: retirement.ts).
 */
export type RefusalKind =
  | RuleRefusalKind
  | 'unknownTable'
  | 'invalidRecord'
  | 'notHolder'
  | 'busy'
  | 'newerRelease'
  | 'quarantined'
  | 'notQuarantined'
  | 'retired';

export class TableRefusal extends Error {
  constructor(
    readonly kind: RefusalKind,
    message: string,
  ) {
    super(message);
    this.name = 'TableRefusal';
  }
}

export function isTableRefusal(error: unknown): error is TableRefusal {
  return error instanceof TableRefusal;
}

export function unknownTable(tableId: string): TableRefusal {
  return new TableRefusal('unknownTable', `there is no table ${JSON.stringify(tableId)}`);
}

/** The refusal for a table without a log: retired (its record kept), or there never was one. */
export async function missingTable(store: EventStore, tableId: string): Promise<TableRefusal> {
  const retired = await store.retired(tableId);
  return retired === null ? unknownTable(tableId) : retiredTable(retired);
}

function retiredTable({ tableId, retiredAt, lastEventAt }: RetiredTable): TableRefusal {
  return new TableRefusal(
    'retired',
    `table ${tableId} was retired at ${retiredAt}, after its game ended at ${lastEventAt}: its log and snapshots are deleted, ` +
      `so it can no longer be viewed, replayed or forked; its game record is kept at GET /api/tables/${tableId}/record`,
  );
}
