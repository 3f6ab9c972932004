/**
 * A game's table options as data (docs/rules.md, "Table options"): each
 * option's values, default, label and what its absence means, and the one
 * parser every game's options go through. A game's rules object holds its
 * catalogue; a rulebook holds the catalogues of its rules version, so a
 * record is checked against the options of the rules it was played under.
 */

interface OptionBasics {
  /** What the lobby's form calls it. */
  readonly label: string;
  /**
   * The values it takes, for clients to offer: "hands:K" stands for K
   * hands and "marriages:M" for M marriages, K and M from 1 to 999.
   */
  readonly values: readonly string[];
  readonly default: string;
  /** What the lobby's form offers, the default first, each in the players' words. */
  readonly choices: readonly { readonly value: string; readonly label: string }[];
  /** Short forms a client may send, and the value each stands for ("hands" is "hands:7"). */
  readonly shorthands?: Readonly<Record<string, string>>;
  /** Values another game takes but this one cannot, and why: the refusal's words. */
  readonly impossible?: Readonly<Record<string, string>>;
}

/**
 * An option every rules version has had (`since` absent: rules 1), which
 * every record writes, so a record without it is malformed; or one added in
 * rules `since`, which must say what a record of those rules that does not
 * name it means (`whenAbsent`). The options of rules N are those whose
 * `since` is at most N (`catalogueAt`), so a record is checked against the
 * options of the rules it was played under, and adding an option leaves
 * every earlier record verifying.
 */
type OptionSpec = OptionBasics &
  ({ readonly since?: undefined; readonly whenAbsent?: undefined } | { readonly since: number; readonly whenAbsent: string });

export type OptionCatalogue = Readonly<Record<string, OptionSpec>>;

/** The options of rules version `rules`: those it had from its start or gained by then. */
export function catalogueAt(catalogue: OptionCatalogue, rules: number): OptionCatalogue {
  return Object.fromEntries(Object.entries(catalogue).filter(([, spec]) => (spec.since ?? 1) <= rules));
}

/**
 * The options a record or table of rules `rules` names, each absent one
 * read as its `whenAbsent`; `missing` lists those absent with no meaning
 * declared (a record writes every option of its rules). Keys that are no
 * option of those rules are left out.
 */
export function optionsNamed(
  catalogue: OptionCatalogue,
  rules: number,
  given: Readonly<Record<string, unknown>>,
): { options: Record<string, unknown>; missing: string[] } {
  const options: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const [key, spec] of Object.entries(catalogueAt(catalogue, rules))) {
    if (Object.hasOwn(given, key)) options[key] = given[key];
    else if (spec.whenAbsent !== undefined) options[key] = spec.whenAbsent;
    else missing.push(key);
  }
  return { options, missing };
}

export type OptionsResult<Options> = { ok: true; options: Options } | { ok: false; errors: string[] };

export function defaultsOf(catalogue: OptionCatalogue): Record<string, string> {
  return Object.fromEntries(Object.entries(catalogue).map(([key, spec]) => [key, spec.default]));
}

export function valuesOf(catalogue: OptionCatalogue): Record<string, readonly string[]> {
  return Object.fromEntries(Object.entries(catalogue).map(([key, spec]) => [key, [...spec.values]]));
}

/**
 * Every option of the catalogue, defaults filled in and shorthands expanded.
 * Keys that are not options of the game are refused, so a typo never
 * silently falls back to a default.
 */
export function parseByCatalogue<Options>(
  game: string,
  catalogue: OptionCatalogue,
  given: Record<string, unknown>,
): OptionsResult<Options> {
  const errors: string[] = [];
  const options = defaultsOf(catalogue);
  for (const [key, value] of Object.entries(given)) {
    const spec = Object.hasOwn(catalogue, key) ? catalogue[key] : undefined;
    if (spec === undefined) {
      errors.push(`unknown option "${key}" for ${game}: its options are ${Object.keys(catalogue).join(', ')}`);
      continue;
    }
    const normalised = typeof value === 'string' && spec.shorthands !== undefined ? (spec.shorthands[value] ?? value) : value;
    if (typeof normalised !== 'string' || !spec.values.some((pattern) => matches(normalised, pattern))) {
      const why = typeof value === 'string' && spec.impossible !== undefined ? spec.impossible[value] : undefined;
      errors.push(why ?? `option ${key} of ${game} must be one of ${spec.values.join(', ')}, not ${JSON.stringify(value)}`);
      continue;
    }
    options[key] = normalised;
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, options: options as Options };
}

function matches(value: string, pattern: string): boolean {
  if (pattern === 'hands:K') return /^hands:([1-9]\d{0,2})$/.test(value);
  if (pattern === 'marriages:M') return /^marriages:([1-9]\d{0,2})$/.test(value);
  return pattern === value;
}
