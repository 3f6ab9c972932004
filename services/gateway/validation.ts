/**
 * Request validation with TypeBox's compiler, and one precise message per
 * refusal ("body.passes[1].to must be an integer, not \"x\""), so a client
 * learns what was wrong and what would be right.
 */
import type { FastifySchemaCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Value } from 'typebox/value';
import { notWholeNumber, parseWholeNumber } from '../wholeNumber.js';

interface SchemaError {
  readonly keyword: string;
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly params: Record<string, unknown>;
  readonly message: string;
}

export interface Checker {
  /** Null when `value` fits the schema; otherwise what is wrong, naming the field under `root`. */
  problem(value: unknown, root: string): string | null;
}

export function compileChecker(schema: TSchema): Checker {
  const check = Compile(schema);
  const branches = discriminatedBranches(schema);
  return {
    problem(value, root) {
      if (check.Check(value)) return null;
      if (branches !== null) return branchProblem(branches, value, root);
      return describe(schema, [...check.Errors(value)] as SchemaError[], value, root);
    },
  };
}

/**
 * Fastify's validator compiler: the body as sent, the other parts (path,
 * query, all text) converted from strings first. Integer fields are read by
 * parseWholeNumber alone: TypeBox's own conversion would read "1.5" as 1 and
 * "0x1" as 1.
 */
export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const checker = compileChecker(schema);
  const root = httpPart === 'body' ? 'body' : httpPart === 'querystring' ? 'query' : (httpPart ?? 'request');
  const integerFields = httpPart === 'body' ? [] : integerFieldsOf(schema);
  return (value: unknown) => {
    if (httpPart === 'body') {
      const problem = checker.problem(value, root);
      return problem === null ? { value } : { error: new Error(problem) };
    }
    const given = { ...(value as Record<string, unknown>) };
    for (const field of integerFields) {
      const text = given[field];
      if (typeof text !== 'string') continue;
      const number = parseWholeNumber(text);
      if (number === null) return { error: new Error(notWholeNumber(`${root}.${field}`, text)) };
      given[field] = number;
    }
    const converted = Value.Convert(schema, given);
    const problem = checker.problem(converted, root);
    return problem === null ? { value: converted } : { error: new Error(problem) };
  };
};

/** The fields of an object schema that hold integers. */
function integerFieldsOf(schema: TSchema): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  return Object.entries(properties).flatMap(([name, property]) => (property.type === 'integer' ? [name] : []));
}

interface Branch {
  readonly type: string;
  readonly checker: Checker;
}

/** A union of objects told apart by a constant `type` (the commands): checked against the branch the value names. */
function discriminatedBranches(schema: TSchema): Branch[] | null {
  const anyOf = (schema as { anyOf?: TSchema[] }).anyOf;
  if (!Array.isArray(anyOf)) return null;
  const branches: Branch[] = [];
  for (const branch of anyOf) {
    const type = (branch as { properties?: { type?: { const?: unknown } } }).properties?.type?.const;
    if (typeof type !== 'string') return null;
    branches.push({ type, checker: compileChecker(branch) });
  }
  return branches;
}

function branchProblem(branches: readonly Branch[], value: unknown, root: string): string {
  const types = branches.map((branch) => JSON.stringify(branch.type)).join(', ');
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `${root} must be an object with a "type" (${types}), not ${shown(value)}`;
  const type = (value as { type?: unknown }).type;
  const branch = branches.find((each) => each.type === type);
  if (branch === undefined) return `${root}.type must be one of ${types}, not ${shown(type)}`;
  return branch.checker.problem(value, root) ?? `${root} does not fit`;
}

const KEYWORD_ORDER = ['required', 'additionalProperties', 'type', 'const', 'enum', 'anyOf'];

function describe(schema: TSchema, errors: readonly SchemaError[], value: unknown, root: string): string {
  // A failed union says best what it wants as a whole: its choices, or its description.
  const union = [...errors].reverse().find((error) => error.keyword === 'anyOf');
  if (union !== undefined) {
    const wanted = unionWants(schemaAt(schema, union.schemaPath));
    if (wanted !== null)
      return `${fieldName(root, union.instancePath)} must be ${wanted}, not ${shown(valueAt(value, union.instancePath))}`;
  }
  // The boolean "schema is false" entries repeat what additionalProperties says better.
  const useful = errors.filter((error) => error.keyword !== 'boolean');
  const rank = (error: SchemaError) => {
    const index = KEYWORD_ORDER.indexOf(error.keyword);
    return (index === -1 ? KEYWORD_ORDER.length : index) - error.instancePath.split('/').length * 10;
  };
  const error = [...useful].sort((a, b) => rank(a) - rank(b))[0] ?? errors[0];
  if (error === undefined) return `${root} does not fit`;
  const field = fieldName(root, error.instancePath);
  const actual = isCredential(schemaAt(schema, error.schemaPath)) ? CREDENTIAL : valueAt(value, error.instancePath);
  const params = error.params;
  switch (error.keyword) {
    case 'required':
      return `${field} is missing ${list(params.requiredProperties as string[])}`;
    case 'additionalProperties':
      return `${field} has unknown field ${list(params.additionalProperties as string[])}`;
    case 'type':
      return `${field} must be ${article(String(params.type))}, not ${shown(actual)}`;
    case 'const':
      return `${field} must be ${shown(params.allowedValue)}, not ${shown(actual)}`;
    case 'minimum':
    case 'exclusiveMinimum':
    case 'maximum':
    case 'exclusiveMaximum':
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
    case 'uniqueItems':
    case 'pattern':
    case 'format':
      return `${field} ${error.message}, not ${shown(actual)}`;
    case 'anyOf':
      return `${field} must be one of the allowed forms, not ${shown(actual)}`;
    default:
      return `${field} ${error.message}`;
  }
}

function unionWants(union: unknown): string | null {
  const { anyOf, description } = (union ?? {}) as { anyOf?: { const?: unknown }[]; description?: string };
  if (Array.isArray(anyOf) && anyOf.every((branch) => branch.const !== undefined)) {
    return `one of ${anyOf.map((branch) => JSON.stringify(branch.const)).join(', ')}`;
  }
  return description ?? null;
}

/** The part of a schema a JSON pointer ("#/properties/bots/items") names. */
function schemaAt(schema: TSchema, pointer: string): unknown {
  let current: unknown = schema;
  for (const part of pointer.replace(/^#/, '').split('/').slice(1)) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return current;
}

function fieldName(root: string, instancePath: string): string {
  let name = root;
  for (const part of instancePath.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    name += /^\d+$/.test(key) ? `[${key}]` : `.${key}`;
  }
  return name;
}

function valueAt(value: unknown, instancePath: string): unknown {
  let current = value;
  for (const part of instancePath.split('/').slice(1)) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return current;
}

function list(names: readonly string[] | undefined): string {
  return (names ?? []).map((name) => JSON.stringify(name)).join(', ');
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** What a refusal says in place of a credential's value. */
const CREDENTIAL = Symbol('credential');

/** A field marked `writeOnly` (a token) is a credential: a refusal names the field, never repeats what was sent, which may sit in logs. */
function isCredential(fieldSchema: unknown): boolean {
  return (fieldSchema as { writeOnly?: unknown } | undefined)?.writeOnly === true;
}

function shown(value: unknown): string {
  if (value === CREDENTIAL) return 'what was sent (a token is never repeated back)';
  if (value === undefined) return 'nothing';
  const text = shallowJson(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

const SHOWN_DEPTH = 4;

/**
 * A value as JSON with whatever lies more than a few levels down written as
 * "...": a refusal shows only the start anyway, and a value nested thousands
 * deep (16 KiB of "[") would otherwise overflow the stack while the refusal is
 * written, and be answered as the service's own failure.
 */
function shallowJson(value: unknown): string {
  const depths = new WeakMap<object, number>();
  return JSON.stringify(value, function (this: unknown, _key: string, child: unknown) {
    if (typeof child !== 'object' || child === null) return child;
    const depth = (depths.get(this as object) ?? -1) + 1;
    if (depth > SHOWN_DEPTH) return '...';
    depths.set(child, depth);
    return child;
  });
}
