/**
 * The costly half of importing a record, pure and synchronous: verify it
 * against the rules and fold its events through the machine. It runs on the
 * import worker's thread (importWorker.ts), so a large record never holds
 * up play; the host then appends what it returns.
 */
import { RECORD_FORMAT_1, eventsFromRecord, type GameRecord } from '../../../machines/record/record.js';
import { verifyRecord } from '../../../machines/record/verify.js';
import { FIRST_RULES } from '../../../machines/games/index.js';
import type { TableEvent } from '../../../machines/table/events.js';
import { optionsOfRules, parseOptions, rulesOptionsIn, type GameName, type TableOptions } from '../../../machines/table/options.js';
import { offer, startTable } from '../../../machines/table/snapshot.js';

/**
 * The most hands a record may hold to be imported: a real game rarely goes
 * past 30; the cap bounds the work (and the log) one import can cost.
 */
export const MAX_IMPORT_HANDS = 100;

/**
 * The most entries (deals, passes, plays, accusations) a record may hold to
 * be imported, counted before it is verified: the hands cap alone would let
 * one hand hold a megabyte of plays for the checker to walk. A hand of any
 * game holds fewer than 100 (60 plays at most), so no record within the
 * hands cap is refused by it.
 */
export const MAX_IMPORT_ENTRIES = 100 * MAX_IMPORT_HANDS;

export type ImportPlan =
  | {
      readonly ok: true;
      readonly game: GameName;
      readonly options: TableOptions;
      /** The rules the game was played under: the imported table keeps them, as any table does. */
      readonly rules: number;
      readonly events: readonly TableEvent[];
      /** The table after every event, as XState persists it: the host resumes it rather than folding the events again. */
      readonly persisted: unknown;
    }
  | { readonly ok: false; readonly message: string };

export function prepareImport(document: unknown): ImportPlan {
  try {
    return prepare(document);
  } catch (error) {
    // A record shaped in a way no check foresaw is still only a record that cannot be imported.
    return { ok: false, message: `the record cannot be read: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function prepare(document: unknown): ImportPlan {
  const hands = (document as { hands?: unknown } | null)?.hands;
  if (Array.isArray(hands) && hands.length > MAX_IMPORT_HANDS) {
    return { ok: false, message: `the record holds ${hands.length} hands; at most ${MAX_IMPORT_HANDS} can be imported` };
  }
  const entries = Array.isArray(hands) ? hands.reduce((sum: number, hand: unknown) => sum + entriesOf(hand), 0) : 0;
  if (entries > MAX_IMPORT_ENTRIES) {
    return {
      ok: false,
      message: `the record holds ${entries} deals, passes, plays and accusations; at most ${MAX_IMPORT_ENTRIES} can be imported`,
    };
  }
  const verification = verifyRecord(document);
  if (!verification.ok) {
    const problems = verification.problems.map((problem) => `${problem.field}: ${problem.message}`);
    return { ok: false, message: `the record does not verify: ${problems.join('; ')}` };
  }
  const record = document as GameRecord;
  if (!record.result.finished) {
    // Its seats would hold players nobody can act for: a record is imported to be read and replayed, not resumed.
    return { ok: false, message: 'the record is of an unfinished game: only finished games can be imported (nobody could take its seats)' };
  }
  const rules = record.rules ?? FIRST_RULES;
  const { options: rulesOptions } = rulesOptionsIn(record.game, rules, record.options);
  const parsed = parseOptions(record.game, rulesOptions, optionsOfRules(record.game, rules));
  if (!parsed.ok) return { ok: false, message: parsed.errors.join('; ') };
  // Format 1 has no proofs: a fairness field in it is no part of the record.
  const events = eventsFromRecord(
    record.format === RECORD_FORMAT_1 ? { ...record, hands: record.hands.map(({ fairness: _, ...hand }) => hand) } : record,
  );
  const table = startTable({ game: record.game, options: parsed.options, rules });
  for (const event of events) {
    if (!offer(table, event)) return { ok: false, message: `the record's ${event.type} is refused on replay: ${JSON.stringify(event)}` };
  }
  const persisted = table.getPersistedSnapshot();
  table.stop();
  return { ok: true, game: record.game, options: parsed.options, rules, events, persisted };
}

/** A hand's deal and the passes, plays and accusations listed in it, whatever their shape. */
function entriesOf(hand: unknown): number {
  const { passes, plays, accusations } = (hand ?? {}) as { passes?: unknown; plays?: unknown; accusations?: unknown };
  const length = (list: unknown) => (Array.isArray(list) ? list.length : 0);
  return 1 + length(passes) + length(plays) + length(accusations);
}
