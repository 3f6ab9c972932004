/**
 * A corpus read from record files. Every record is checked against the
 * rules first (machines/record/verify.ts): a figure from a record the rules
 * would refuse would be a figure of nothing. A file that is not a valid
 * record is named with its first problem and left out; the rest are folded.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { GameRecord } from '../../machines/record/record.js';
import { verifyRecord } from '../../machines/record/verify.js';
import { withGame, type CorpusTally } from './corpus.js';
import { BOTS_NOT_RECORDED } from './gameTally.js';

interface RecordsRead {
  readonly corpus: CorpusTally;
  readonly read: number;
  readonly skipped: { readonly file: string; readonly problem: string }[];
}

/** The .json files in `directory`, in name order, or the one file `directory` names. */
export function recordFilesIn(directory: string): string[] {
  const stat = statSync(directory, { throwIfNoEntry: false });
  if (stat === undefined) throw new RangeError(`${directory} does not exist; name a directory of game records (.json)`);
  if (!stat.isDirectory()) return [directory];
  return readdirSync(directory)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => join(directory, name));
}

/** A record from a file, or why it is not one. */
function readRecordFile(file: string): { record: GameRecord } | { problem: string } {
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return { problem: `not a JSON record: ${(error as Error).message}` };
  }
  const { ok, problems } = verifyRecord(document);
  if (!ok) {
    const [first] = problems;
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problems)` : '';
    return { problem: `${first.field === '' ? '' : `${first.field}: `}${first.message}${more}` };
  }
  return { record: document as GameRecord };
}

export function readRecords(files: readonly string[], onFile: (done: number) => void = () => undefined): RecordsRead {
  let corpus: CorpusTally = new Map();
  const skipped: RecordsRead['skipped'] = [];
  let read = 0;
  files.forEach((file, index) => {
    const outcome = readRecordFile(file);
    if ('problem' in outcome) skipped.push({ file, problem: outcome.problem });
    else {
      corpus = withGame(corpus, outcome.record, BOTS_NOT_RECORDED);
      read++;
    }
    onFile(index + 1);
  });
  return { corpus, read, skipped };
}
