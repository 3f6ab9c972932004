/**
 * Folds logs as a process of the next release does (run it with
 * NEXT_RELEASE_ARGS, processes.ts): reads `{ [tableId]: StoredEvent[] }` as
 * JSON on stdin and prints, for each table, the rules it plays by and where
 * it stands, or why its log does not fold.
 */
import { text } from 'node:stream/consumers';
import { phaseOf } from '../../machines/table/snapshot.js';
import type { StoredEvent } from '../../services/eventstore/eventStore.js';
import { foldLog } from '../../services/host/replay.js';
import type { FoldedTable } from './processes.js';

const logs = JSON.parse(await text(process.stdin)) as Record<string, StoredEvent[]>;
const folded: Record<string, FoldedTable> = {};
for (const [tableId, log] of Object.entries(logs)) {
  try {
    const { created, actor } = foldLog(tableId, log);
    const { context } = actor.getSnapshot();
    folded[tableId] = {
      rules: created.rules,
      phase: phaseOf(actor.getSnapshot()),
      scores: [...context.scores],
      finished: context.outcome?.finished === true,
    };
    actor.stop();
  } catch (error) {
    folded[tableId] = { error: (error as Error).message };
  }
}
process.stdout.write(JSON.stringify(folded));
