/** What each sub-command of `suitors` (commands/) is, for main.ts to list and run it. */
import type { ParsedArgs } from './args.js';

export interface Command {
  readonly name: string;
  readonly usage: string;
  /** Every --flag the command takes; any other is a usage error, so a typo never falls back to a default. */
  readonly flags: readonly string[];
  readonly summary: string;
  /** Resolves to the process exit status. */
  run(args: ParsedArgs): Promise<number>;
}
