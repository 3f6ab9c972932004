/**
 * The properties the model-based runner checks on every table state, on
 * every driver: those of drivers/tableChecks.ts (shared with the fuzzer and
 * the chaos audit), read from a driver's snapshot.
 */
import type { TableSnapshot } from '../../machines/table/snapshot.js';
import { cardConservation, oneActorWhenExpected, viewsLeakNothing } from '../../drivers/tableChecks.js';
import type { DriverSnapshot } from './driver.js';

/** Views and refusal explanations read only `value` and `context`, which every driver provides. */
export function asTableSnapshot(snapshot: DriverSnapshot): TableSnapshot {
  return snapshot as unknown as TableSnapshot;
}

export function invariantProblems(snapshot: DriverSnapshot): string[] {
  const table = asTableSnapshot(snapshot);
  return [...cardConservation(snapshot.context), ...oneActorWhenExpected(table), ...viewsLeakNothing(table)];
}
