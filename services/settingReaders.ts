/**
 * How a setting is read from the environment (settings.ts names them all):
 * an unset or empty variable takes its default, a whole number is read by
 * the one whole-number reading, a text may be checked, and a value that will
 * not do is a SettingError naming the variable and what would do.
 */
import { accessSync, constants } from 'node:fs';
import { parseWholeNumber } from './wholeNumber.js';

/** The environment a process was started with (process.env, or a test's own). */
export type Environment = Readonly<Record<string, string | undefined>>;

/** A variable set to a value that will not do: the process stops, saying which and what would do. */
export class SettingError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(message);
    this.name = 'SettingError';
  }
}

/** One environment variable: what the catalogue (and docs) show of it. */
export interface Variable {
  readonly name: string;
  /** Its default, as a person would write it. */
  readonly default: string;
  readonly meaning: string;
}

export interface WholeNumberVariable extends Variable {
  read(env: Environment, fallback?: number): number;
}

export interface TextVariable<T extends string | undefined> extends Variable {
  read(env: Environment): T;
}

/** The value of `name`, or undefined when it is unset or empty (as docker-compose writes a blank). */
export function given(env: Environment, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

export function wholeNumber(
  name: string,
  fallback: number,
  meaning: string,
  { min = 0, max = Number.MAX_SAFE_INTEGER, shown = String(fallback) } = {},
): WholeNumberVariable {
  return {
    name,
    default: shown,
    meaning,
    read(env, otherFallback = fallback) {
      const text = given(env, name);
      if (text === undefined) return otherFallback;
      const value = parseWholeNumber(text);
      if (value === null || value < min || value > max) {
        const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
        throw new SettingError(name, `${name} must be a whole number ${range} in decimal digits, not ${JSON.stringify(text)}`);
      }
      return value;
    },
  };
}

export function text(name: string, fallback: string, meaning: string, check?: (value: string) => string | null): TextVariable<string> {
  return { name, default: fallback, meaning, read: (env) => checked(name, given(env, name) ?? fallback, check) };
}

export function optionalText(
  name: string,
  shownDefault: string,
  meaning: string,
  check?: (value: string) => string | null,
): TextVariable<string | undefined> {
  return {
    name,
    default: shownDefault,
    meaning,
    read: (env) => {
      const value = given(env, name);
      return value === undefined ? undefined : checked(name, value, check);
    },
  };
}

/** What is wrong with a file a setting names, or null when this process can read it. */
export function readableFileComplaint(path: string): string | null {
  try {
    accessSync(path, constants.R_OK);
    return null;
  } catch (error) {
    return `names ${JSON.stringify(path)}, which this process cannot read (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`;
  }
}

/** `value`, or a SettingError with what `check` says is wrong with it (what follows the variable's name). */
function checked(name: string, value: string, check?: (value: string) => string | null): string {
  const wrong = check?.(value) ?? null;
  if (wrong !== null) throw new SettingError(name, `${name} ${wrong}`);
  return value;
}
