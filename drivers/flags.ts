/**
 * The settings of the commands that drive the service (bench/, hardening/,
 * scripts/), read one way: each is a flag (`--tables 10` or `--tables=10`,
 * by node:util's parseArgs) and may also be an environment variable
 * (`BENCH_TABLES=10`); a flag wins over its variable, which wins over the
 * default. A number is decimal digits (services/wholeNumber.ts: no "1e3",
 * no " "), and every mistake is refused with what was wrong and what would
 * do: an unknown flag, a flag without its value, a stray argument, a value
 * out of its range or not among its choices.
 */
import { parseArgs } from 'node:util';
import { parseWholeNumber } from '../services/wholeNumber.js';

/** A mistake on the command line: the command prints it with its usage and exits with status 2. */
export class UsageError extends Error {}

interface Common {
  /** The environment variable that sets it too (a flag given wins). */
  readonly env?: string;
  /** Required: no default, and refused when neither the flag nor the variable gives it. */
  readonly required?: boolean;
}

export interface NumberSetting extends Common {
  readonly kind: 'number';
  readonly default?: number;
  /** A whole number (decimal digits), not one with a fraction. */
  readonly whole?: boolean;
  /** 0 will do; without this a number must be above 0. */
  readonly zero?: boolean;
}

export interface TextSetting extends Common {
  readonly kind: 'text';
  readonly default?: string;
  /** The values that will do; any text without. */
  readonly choices?: readonly string[];
}

/** A flag given any number of times (`--option a=1 --option b=2`); no variable. */
export interface ListSetting {
  readonly kind: 'list';
}

export type Setting = NumberSetting | TextSetting | ListSetting;

type Given<S extends Setting> = S extends NumberSetting
  ? number
  : S extends ListSetting
    ? string[]
    : S extends { readonly choices: readonly (infer C extends string)[] }
      ? C
      : string;
/** The value of each setting: present when it has a default, is required, or is a list; otherwise maybe undefined. */
export type Settings<T extends Record<string, Setting>> = {
  readonly [K in keyof T]: T[K] extends ListSetting | { readonly default: unknown } | { readonly required: true }
    ? Given<T[K]>
    : Given<T[K]> | undefined;
};

export function wholeNumber<O extends Omit<NumberSetting, 'kind' | 'whole'>>(options: O): O & { kind: 'number'; whole: true } {
  return { ...options, kind: 'number', whole: true };
}

export function number<O extends Omit<NumberSetting, 'kind'>>(options: O): O & { kind: 'number' } {
  return { ...options, kind: 'number' };
}

/** A text setting; with `choices`, its value is one of them (and typed so). */
export function text<const O extends Omit<TextSetting, 'kind'>>(options: O): O & { kind: 'text' } {
  return { ...options, kind: 'text' };
}

export function list(): ListSetting {
  return { kind: 'list' };
}

/**
 * The settings `argv` and `env` give (each key is its flag's name, `think-ms`
 * for `--think-ms`); throws UsageError on any mistake.
 */
export function parseFlags<T extends Record<string, Setting>>(
  settings: T,
  { argv, env = process.env }: { argv: readonly string[]; env?: NodeJS.ProcessEnv },
): Settings<T> {
  const names = Object.keys(settings);
  const takes = names.length === 0 ? 'no flags' : names.map((name) => `--${name}`).join(', ');
  const options = Object.fromEntries(names.map((name) => [name, { type: 'string' as const, multiple: settings[name].kind === 'list' }]));
  const { tokens } = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  const given = new Map<string, string[]>();
  for (const token of tokens) {
    if (token.kind === 'positional') throw new UsageError(`this command takes flags only (${takes}), not ${JSON.stringify(token.value)}`);
    if (token.kind !== 'option') continue;
    if (!(token.name in settings)) throw new UsageError(`unknown flag ${token.rawName}; this command takes ${takes}`);
    // Without strict mode parseArgs takes the next flag as the value: `--tables --minutes 2` has no tables.
    if (token.value === undefined || (!token.inlineValue && token.value.startsWith('--')))
      throw new UsageError(`${token.rawName} needs a value (${token.rawName} <value> or ${token.rawName}=<value>)`);
    given.set(token.name, [...(given.get(token.name) ?? []), token.value]);
  }
  const values: Record<string, unknown> = {};
  for (const [name, setting] of Object.entries(settings)) {
    if (setting.kind === 'list') {
      values[name] = given.get(name) ?? [];
      continue;
    }
    const fromFlag = given.get(name)?.at(-1);
    const fromEnv = setting.env === undefined || env[setting.env] === '' ? undefined : env[setting.env];
    const raw = fromFlag ?? fromEnv;
    const shownAs = fromFlag !== undefined || setting.env === undefined ? `--${name}` : setting.env;
    if (raw === undefined) {
      if (setting.required) throw new UsageError(`--${name} is required${setting.env === undefined ? '' : ` (or ${setting.env})`}`);
      values[name] = setting.default;
    } else values[name] = setting.kind === 'number' ? numberOf(shownAs, raw, setting) : choiceOf(shownAs, raw, setting);
  }
  return values as Settings<T>;
}

/**
 * `parseFlags` of this process's arguments and environment; on a mistake
 * it prints what was wrong and `usage`, and exits with status 2.
 */
export function readFlags<T extends Record<string, Setting>>(settings: T, usage: string): Settings<T> {
  try {
    return parseFlags(settings, { argv: process.argv.slice(2) });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const variables = Object.entries(settings).flatMap(([name, setting]) =>
      setting.kind !== 'list' && setting.env !== undefined ? [`${setting.env} (--${name})`] : [],
    );
    process.stderr.write(
      `${error.message}\nusage: ${usage}\n${variables.length === 0 ? '' : `or in the environment: ${variables.join(', ')}\n`}`,
    );
    process.exit(2);
  }
}

/** Settings from the environment alone: a test's knobs (vitest owns the command line). */
export function settingsFromEnv<T extends Record<string, Setting>>(settings: T): Settings<T> {
  return parseFlags(settings, { argv: [] });
}

const DECIMAL = /^\d{1,15}(\.\d{1,15})?$/;

/** The number `given` writes for `name`, or a UsageError saying what would do. */
export function positiveFlag(name: string, given: string | undefined, { whole = false, zero = false } = {}): number {
  const shown = name.startsWith('--') || /^[A-Z_]+$/.test(name) ? name : `--${name}`;
  const value = given === undefined ? null : whole ? parseWholeNumber(given) : DECIMAL.test(given) ? Number(given) : null;
  if (value === null || !(value > 0 || (zero && value === 0))) {
    throw new UsageError(`${shown} must be a ${whole ? 'whole ' : ''}number ${zero ? 'from 0' : 'above 0'}, not ${JSON.stringify(given)}`);
  }
  return value;
}

function numberOf(shownAs: string, raw: string, setting: NumberSetting): number {
  return positiveFlag(shownAs, raw, { whole: setting.whole, zero: setting.zero });
}

function choiceOf(shownAs: string, raw: string, setting: TextSetting): string {
  if (setting.choices !== undefined && !setting.choices.includes(raw)) {
    throw new UsageError(`${shownAs} must be ${setting.choices.join(', ').replace(/, ([^,]*)$/, ' or $1')}, not ${JSON.stringify(raw)}`);
  }
  return raw;
}
