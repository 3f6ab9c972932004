/**
 * Where a golden log ends, in the game's terms: what the corpus script
 * writes beside each log and the golden test compares with the log replayed
 * by today's code, so a change that alters an old game's course or score is
 * named, field by field.
 */
import type { GameOutcome, HandResult } from '../../machines/table/context.js';
import { awaitedActions, type AwaitedAction } from '../../machines/table/refusal.js';
import { phaseOf, type Phase, type TableSnapshot } from '../../machines/table/snapshot.js';

export interface GoldenOutcome {
  readonly phase: Phase;
  /** The hand under way (0 for the first); null before the first deal. */
  readonly hand: number | null;
  readonly scores: readonly number[];
  readonly handResults: readonly HandResult[];
  readonly outcome: GameOutcome | null;
  readonly awaited: readonly AwaitedAction[];
}

export function outcomeOf(snapshot: TableSnapshot): GoldenOutcome {
  const { context } = snapshot;
  return {
    phase: phaseOf(snapshot),
    hand: context.hand?.index ?? null,
    scores: context.scores,
    handResults: context.handResults,
    outcome: context.outcome,
    awaited: awaitedActions(snapshot),
  };
}

/** The fields where `actual` differs from `expected`, as "path: was X, now Y", at most `limit` of them. */
export function differences(expected: unknown, actual: unknown, path = '', limit = 5): string[] {
  const found: string[] = [];
  const walk = (was: unknown, now: unknown, at: string) => {
    if (found.length >= limit) return;
    if (was !== null && now !== null && typeof was === 'object' && typeof now === 'object' && Array.isArray(was) === Array.isArray(now)) {
      const keys = new Set([...Object.keys(was), ...Object.keys(now)]);
      for (const key of keys)
        walk(
          (was as Record<string, unknown>)[key],
          (now as Record<string, unknown>)[key],
          Array.isArray(was) ? `${at}[${key}]` : `${at}.${key}`,
        );
      return;
    }
    if (JSON.stringify(was) !== JSON.stringify(now))
      found.push(`${at || '(whole)'}: was ${JSON.stringify(was)}, now ${JSON.stringify(now)}`);
  };
  walk(expected, actual, path);
  return found;
}
