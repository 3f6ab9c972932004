import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { verifyRecord } from '../../../machines/record/verify.js';
import { UsageError } from '../args.js';
import type { Command } from '../main.js';

/** Files named on the command line; a directory stands for the .json files in it. */
function recordFiles(paths: readonly string[]): string[] {
  return paths.flatMap((path) =>
    statSync(path, { throwIfNoEntry: false })?.isDirectory()
      ? readdirSync(path).filter((name) => name.endsWith('.json')).sort().map((name) => join(path, name))
      : [path],
  );
}

export const checkCommand: Command = {
  name: 'check',
  flags: [],
  usage: 'suitors check FILE...',
  summary: 'verify game records against the rules; a line per problem, then "N passed, M failed"',
  async run(args) {
    if (args.positional.length === 0) throw new UsageError('name at least one record file');
    let passed = 0;
    let failed = 0;
    for (const file of recordFiles(args.positional)) {
      const problems = problemsOf(file);
      if (problems.length === 0) passed++;
      else {
        failed++;
        for (const problem of problems) console.log(`${file}: ${problem}`);
      }
    }
    console.log(`${passed} passed, ${failed} failed`);
    return failed > 0 ? 1 : 0;
  },
};

function problemsOf(file: string): string[] {
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return [`cannot read a JSON record: ${(error as Error).message}`];
  }
  return verifyRecord(document).problems.map((problem) => (problem.field === '' ? problem.message : `${problem.field}: ${problem.message}`));
}
