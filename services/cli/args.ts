/** A small flag parser: `--name value`, `--flag`, and positional arguments. */
import { parseWholeNumber } from '../wholeNumber.js';

export interface ParsedArgs {
  readonly flags: Map<string, string | true>;
  readonly positional: string[];
}

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const flags = new Map<string, string | true>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split('=', 2);
    const next = argv[i + 1];
    if (inline !== undefined) flags.set(name, inline);
    else if (next !== undefined && !next.startsWith('--')) {
      flags.set(name, next);
      i++;
    } else flags.set(name, true);
  }
  return { flags, positional };
}

/** Thrown for a usage mistake: the CLI prints the message and exits with status 2. */
export class UsageError extends Error {}

export function stringFlag(args: ParsedArgs, name: string, fallback?: string): string {
  const value = args.flags.get(name);
  if (value === undefined) {
    if (fallback !== undefined) return fallback;
    throw new UsageError(`--${name} is required`);
  }
  if (value === true) throw new UsageError(`--${name} needs a value`);
  return value;
}

export function optionalStringFlag(args: ParsedArgs, name: string): string | undefined {
  return args.flags.has(name) ? stringFlag(args, name) : undefined;
}

export function integerFlag(args: ParsedArgs, name: string, fallback?: number): number {
  const raw = stringFlag(args, name, fallback === undefined ? undefined : String(fallback));
  const value = parseWholeNumber(raw);
  if (value === null || value < 0) throw new UsageError(`--${name} must be a whole number, not "${raw}"`);
  return value;
}
