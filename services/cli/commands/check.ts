import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { verifyRecord } from '../../../machines/record/verify.js';
import { UsageError } from '../args.js';
import type { Command } from '../command.js';

/** Files named on the command line; a directory stands for the .json files in it. */
function recordFiles(paths: readonly string[]): string[] {
  return paths.flatMap((path) =>
    statSync(path, { throwIfNoEntry: false })?.isDirectory()
      ? readdirSync(path)
          .filter((name) => name.endsWith('.json'))
          .sort()
          .map((name) => join(path, name))
      : [path],
  );
}

export const checkCommand: Command = {
  name: 'check',
  flags: [],
  usage: 'suitors check FILE...',
  summary:
    'verify game records against the rules and each deal against its revealed seed and contributions; a line per problem, then "N passed, M failed"',
  async run(args) {
    if (args.positional.length === 0) throw new UsageError('name at least one record file');
    let passed = 0;
    let failed = 0;
    for (const file of recordFiles(args.positional)) {
      const { problems, notes } = checkFile(file);
      if (problems.length === 0) {
        for (const note of notes) console.log(`${file}: ${note}`);
        passed++;
      } else {
        failed++;
        for (const problem of problems) console.log(`${file}: ${problem}`);
      }
    }
    console.log(`${passed} passed, ${failed} failed`);
    return failed > 0 ? 1 : 0;
  },
};

/** The file's problems, and notes for a record that passes: deals that carry no proof to check. */
function checkFile(file: string): { problems: string[]; notes: string[] } {
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return { problems: [`cannot read a JSON record: ${(error as Error).message}`], notes: [] };
  }
  const verification = verifyRecord(document);
  const problems = verification.problems.map((problem) =>
    problem.field === '' ? problem.message : `${problem.field}: ${problem.message}`,
  );
  const notes = [
    ...handsNote('deals unverified (no revealed seed)', verification.unverifiedDeals),
    ...handsNote("deals proven but chosen by the house's secret alone (no seat contributed)", verification.uncontributedDeals),
  ];
  return { problems, notes };
}

function handsNote(what: string, hands: readonly number[]): string[] {
  return hands.length === 0 ? [] : [`${what}: ${hands.length === 1 ? 'hand' : 'hands'} ${hands.join(', ')}`];
}
