import type { TableSnapshot } from '../../../machines/table/snapshot.js';

/** A finished game: its log, its record and a replay as any seat saw it are public then, every hand being shown. */
export function isFinished(snapshot: TableSnapshot): boolean {
  return snapshot.context.outcome?.finished === true;
}
