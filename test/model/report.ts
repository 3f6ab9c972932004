/**
 * The coverage report. Each test file (one per machine, the broken machine
 * checks, and the paths replayed through the table host) writes its section as JSON under
 * test-artifacts/model-coverage/; whichever finishes last in a run has every
 * section, and each writer renders the combined report from the sections of
 * its own run to test-artifacts/model-coverage.txt (and, with
 * UPDATE_COVERAGE_DOC=1, to docs/model-coverage.md).
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { coverageOf, transitionLabel, type CoverageCounts, type MachineDefinition } from './coverage.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const ARTIFACTS = join(ROOT, 'test-artifacts');
const SECTIONS = join(ARTIFACTS, 'model-coverage');
export const REPORT_FILE = join(ARTIFACTS, 'model-coverage.txt');
const DOC_FILE = join(ROOT, 'docs', 'model-coverage.md');

/** Files of one vitest run share the parent process (the forks pool) or the process itself (threads). */
export const RUN_ID = `${process.env.VITEST_POOL_ID === undefined ? process.pid : process.ppid}`;

interface GroupSummary {
  readonly name: string;
  readonly source: string;
  readonly description: string;
  readonly paths: number;
  readonly keys?: number;
  readonly modelTransitions?: number;
}

export interface MachineSection {
  readonly kind: 'machine';
  readonly machine: string;
  readonly title: string;
  readonly runId: string;
  readonly writtenAt: string;
  readonly groups: readonly GroupSummary[];
  readonly testsRun: number;
  readonly testsFailed: number;
  readonly steps: number;
  readonly refusalsTried: number;
  readonly generationMs: number;
  readonly runMs: number;
  readonly definition: MachineDefinition;
  readonly counts: CoverageCounts;
  readonly bySource: Record<string, CoverageCounts>;
  readonly onlyTargeted: Record<string, string>;
}

export interface MutantResult {
  readonly name: string;
  readonly how: string;
  readonly failingPaths: number;
  readonly totalPaths: number;
  readonly firstFailure: string;
  readonly coverageMissing: readonly string[];
}

interface MutantSection {
  readonly kind: 'mutants';
  readonly machine: 'mutants';
  readonly runId: string;
  readonly writtenAt: string;
  readonly control: { readonly failingPaths: number; readonly totalPaths: number };
  readonly mutants: readonly MutantResult[];
}

/** One game's paths replayed through the table host (hostDriver.test.ts). */
export interface HostGameSummary {
  readonly game: string;
  readonly machine: string;
  readonly title: string;
  readonly paths: number;
  /** Paths by kind: generated, simple, targeted. */
  readonly bySource: Record<string, number>;
  readonly testsRun: number;
  readonly testsFailed: number;
  readonly steps: number;
  readonly refusalsTried: number;
  readonly generationMs: number;
  readonly runMs: number;
  readonly stats: {
    readonly tables: number;
    readonly accepted: number;
    readonly refused: number;
    readonly eventsLogged: number;
    readonly refusalKinds: Record<string, number>;
    readonly rebuilt: number;
    readonly rebuiltFromSnapshot: number;
  };
  /** Coverage of the host's actor: the tables' logs replayed through an instrumented machine. */
  readonly definition: MachineDefinition;
  readonly counts: CoverageCounts;
}

/** A deliberately broken host (or store) and the first check of the host driver it fails. */
export interface BrokenHostResult {
  readonly name: string;
  readonly how: string;
  readonly firstFailure: string;
}

export interface HostSection {
  readonly kind: 'host';
  readonly machine: 'host';
  readonly runId: string;
  readonly writtenAt: string;
  readonly games: readonly HostGameSummary[];
  /** The production host on the paths the broken hosts run: with the default snapshots, then resuming from snapshots. */
  readonly control: { readonly paths: number; readonly failingPaths: number; readonly rebuiltFromSnapshot: number } | null;
  readonly broken: readonly BrokenHostResult[];
}

export type Section = MachineSection | MutantSection | HostSection;

const ORDER = ['sevenSuitors', 'antiCupid', 'traitorOfLove', 'host', 'mutants'];

function percent(done: number, total: number): string {
  return `${done}/${total} (${total === 0 ? 100 : Math.floor((1000 * done) / total) / 10}%)`;
}

function covered(counts: Record<string, number>, items: readonly string[]): number {
  return items.filter((item) => (counts[item] ?? 0) > 0).length;
}

/** Items reached by targeted paths and by no generated or simple path. */
export function onlyByTargeted(section: Pick<MachineSection, 'definition' | 'bySource'>): string[] {
  const other = (kind: keyof CoverageCounts, item: string) =>
    Object.entries(section.bySource).some(([source, counts]) => source !== 'targeted' && (counts[kind][item] ?? 0) > 0);
  const targeted = section.bySource.targeted ?? { states: {}, transitions: {}, guardOutcomes: {}, entryActions: {}, refusals: {} };
  const { states, transitions, guardOutcomes } = section.definition;
  return [
    ...states.filter((s) => targeted.states[s] && !other('states', s)),
    ...transitions.map((t) => t.id).filter((id) => targeted.transitions[id] && !other('transitions', id)),
    ...guardOutcomes.filter((g) => targeted.guardOutcomes[g] && !other('guardOutcomes', g)),
  ];
}

/**
 * What a rendering shows: `withTimes`, how long each part took (the report
 * file; the committed doc leaves them out, so it changes only with the
 * coverage); `summaryOnly`, only the part a test file prints.
 */
interface Rendering {
  readonly withTimes: boolean;
  readonly summaryOnly?: boolean;
}

function renderMachine(section: MachineSection, { withTimes, summaryOnly = false }: Rendering): string[] {
  const { definition, counts } = section;
  const coverage = coverageOf(definition, counts);
  const lines: string[] = [];
  lines.push(`## ${section.title} (${section.machine})`, '');
  lines.push(`- state nodes: ${percent(covered(counts.states, definition.states), definition.states.length)}`);
  lines.push(
    `- transitions: ${percent(
      covered(
        counts.transitions,
        definition.transitions.map((t) => t.id),
      ),
      definition.transitions.length,
    )} (event, eventless, onDone and initial transitions)`,
  );
  lines.push(
    `- guard outcomes: ${percent(covered(counts.guardOutcomes, definition.guardOutcomes), definition.guardOutcomes.length)} (true and false for each of ${definition.guardOutcomes.length / 2} guarded transitions)`,
  );
  lines.push(`- entry actions run: ${percent(covered(counts.entryActions, definition.entryActions), definition.entryActions.length)}`);
  lines.push(
    `- tests: ${section.testsRun} paths run (${section.testsFailed} failed), ${section.steps} events sent, ${section.refusalsTried} refused commands tried`,
  );
  if (withTimes)
    lines.push(
      `- time: ${(section.generationMs / 1000).toFixed(1)} s to traverse the models, ${(section.runMs / 1000).toFixed(1)} s to run the paths`,
    );
  lines.push('', 'Paths:', '');
  lines.push('| group | kind | paths | abstract states | model transitions | what it explores |', '|---|---|---|---|---|---|');
  for (const group of section.groups) {
    lines.push(
      `| ${group.name} | ${group.source} | ${group.paths} | ${group.keys ?? '-'} | ${group.modelTransitions ?? '-'} | ${group.description} |`,
    );
  }
  const missing = [
    ...coverage.missing.states,
    ...coverage.missing.transitions,
    ...coverage.missing.guardOutcomes,
    ...coverage.missing.entryActions,
  ];
  lines.push('', `Missing: ${missing.length === 0 ? 'none' : ''}`);
  for (const item of missing) lines.push(`- ${item}`);
  const targetedOnly = onlyByTargeted(section);
  lines.push(
    '',
    `Not reachable by the generated traversals with the test configurations, covered by targeted paths: ${targetedOnly.length === 0 ? 'none' : ''}`,
  );
  for (const item of targetedOnly) lines.push(`- ${item}: ${section.onlyTargeted[item] ?? 'NO EXPLANATION GIVEN'}`);
  if (summaryOnly) return lines;
  lines.push('', 'State nodes (times entered):', '');
  for (const state of definition.states) lines.push(`- ${state}: ${counts.states[state] ?? 0}`);
  lines.push('', 'Transitions (times taken; guard seen true / false):', '');
  lines.push('| transition | taken | guard true | guard false |', '|---|---|---|---|');
  for (const t of definition.transitions) {
    const guard = (outcome: boolean) => (t.guard === null ? '-' : String(counts.guardOutcomes[`${t.id}=${outcome}`] ?? 0));
    lines.push(`| ${transitionLabel(t)} | ${counts.transitions[t.id] ?? 0} | ${guard(true)} | ${guard(false)} |`);
  }
  lines.push('', 'Refused commands tried (state, what was wrong: times):', '');
  const refusals = Object.entries(counts.refusals).sort(([a], [b]) => a.localeCompare(b));
  lines.push(refusals.map(([what, n]) => `${what}: ${n}`).join('; '));
  lines.push('');
  return lines;
}

function renderMutants(section: MutantSection): string[] {
  const lines = ['## Broken machines: the suite fails', ''];
  lines.push(
    `Paths generated from the production Seven Suitors machine (hands:1, 3 cards each) run with the same runner against deliberately broken copies of it, built in the test with machine.provide or a copied config (production code is untouched). For the bugs "shared by the model" the paths are generated from the broken machine itself, as with a bug in production code: model and actor agree, and only the invariants can catch it. Control, the production machine: ${section.control.failingPaths}/${section.control.totalPaths} paths fail.`,
    '',
  );
  lines.push('| broken machine | how | failing paths | first failure | coverage left missing |', '|---|---|---|---|---|');
  for (const m of section.mutants) {
    const first = m.firstFailure.replace(/\s+/g, ' ').replace(/\|/g, '\\|').slice(0, 220);
    lines.push(`| ${m.name} | ${m.how} | ${m.failingPaths}/${m.totalPaths} | ${first} | ${m.coverageMissing.join(', ') || '-'} |`);
  }
  lines.push('');
  return lines;
}

function renderHost(section: HostSection, { withTimes }: Rendering): string[] {
  const lines = ['## Paths replayed through the table host', ''];
  lines.push(
    "The same paths as above (every generated, simple and targeted path of each game) run through the table host's command API rather than the bare actor (test/model/hostDriver.ts, hostDriver.test.ts): a `TableHost` over the memory event store with `dealing: 'external'`, so the host plays the model's own deals; each path creates a table with the path's input and no players, `hand.dealt` goes to `host.deal`, every other event to `host.submit`, a `TableRefusal` is a refusal and any other error fails the test. The runner checks the same things at every step as for the actor (acceptance, state and context against the model, refusals, invariants). The host driver adds, after every command: an accepted one grew the log by exactly the events the host reports appending, which is the command alone with its canonical fields, and nothing logged before changed; a refused one left the log untouched, and its kind and message are those of `explainRefusal` for the state it was sent in; the host's version and the store's equal the log's length. At the end of each path a second host rebuilds the table from the store, and the whole log folds (services/host/replay.ts), to the state the first host serves. Coverage here is that of the host's actor: each table's log (exactly the events that actor took) replayed through an instrumented copy of the machine.",
    '',
  );
  lines.push(
    '| machine | paths | failed | path events | commands accepted | commands refused | refusal kinds | events logged | tables rebuilt from the log | state nodes | transitions |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  );
  let paths = 0;
  let accepted = 0;
  let refused = 0;
  for (const game of section.games) {
    const { definition, counts, stats } = game;
    paths += game.testsRun;
    accepted += stats.accepted;
    refused += stats.refused;
    const sources = Object.entries(game.bySource)
      .map(([source, n]) => `${n} ${source}`)
      .join(', ');
    const kinds = Object.entries(stats.refusalKinds)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ');
    lines.push(
      `| ${game.machine} | ${game.testsRun} (${sources}) | ${game.testsFailed} | ${game.steps} | ${stats.accepted} | ${stats.refused} | ${kinds} | ${stats.eventsLogged} | ${stats.rebuilt} | ${percent(covered(counts.states, definition.states), definition.states.length)} | ${percent(
        covered(
          counts.transitions,
          definition.transitions.map((t) => t.id),
        ),
        definition.transitions.length,
      )} |`,
    );
  }
  lines.push(
    '',
    `Through the host: ${paths} paths, ${accepted} commands accepted (each found in the log) and ${refused} refused (none in the log).`,
  );
  if (withTimes) {
    const run = section.games.reduce((sum, g) => sum + g.runMs, 0);
    const generation = section.games.reduce((sum, g) => sum + g.generationMs, 0);
    lines.push(
      '',
      `Time: ${(generation / 1000).toFixed(1)} s to traverse the models, ${(run / 1000).toFixed(1)} s to run the paths through the host.`,
    );
  }
  const control = section.control;
  const controlLine =
    control === null
      ? 'Control not run in this run.'
      : `Control, the production host: ${control.failingPaths}/${control.paths} paths fail, also when it saves a snapshot every 5 events (then the second host resumed ${control.rebuiltFromSnapshot}/${control.paths} tables from a snapshot and the log after it).`;
  lines.push(
    '',
    `The host driver's own checks fail on deliberately broken hosts and stores, built in the test (production code untouched), each run on the scripted games of Seven Suitors and A Traitor of Love. ${controlLine}`,
    '',
  );
  lines.push('| broken host | how | first failure |', '|---|---|---|');
  for (const b of section.broken) {
    const first = b.firstFailure.replace(/\s+/g, ' ').replace(/\|/g, '\\|').slice(0, 220);
    lines.push(`| ${b.name} | ${b.how} | ${first} |`);
  }
  lines.push('');
  return lines;
}

/** The part of the host section printed by its test file. */
export function renderHostSummary(section: HostSection): string {
  return renderHost(section, { withTimes: true }).join('\n');
}

const METHOD = [
  '## Method',
  '',
  '- The model is each production machine (machines/games), traversed with @xstate/graph: `createTestModel(machine).getShortestPaths(...)` for generated paths, `getSimplePaths` for the passing orders, `getPathsFromEvents` for scripted games. Test configurations are ordinary machine inputs (`cardsPerSeat` 2 to 4, short end options), so the same machine code runs as in production.',
  '- `events` yields the legal commands of a snapshot (every legal card, each pending pass or accusation, the host\'s deals: seeded shuffles and 7-rich deals) and a few illegal ones (wrong seat, card not in hand, not following suit, special led while holding a suit card, wrong phase, bad deals, wrong pass recipient, naming oneself or an opponent, taken or empty seats), whose expected outcome is "refused, state unchanged".',
  "- `serializeState` abstracts a snapshot to: phase, hand number, seats taken, deal, how many seats have passed or named, trump, trick number, plays in the trick, whose turn, who is winning the trick, who captured which 7s, and the score buckets the end condition reads (Seven Suitors: suits marked and marriage counts, tie-break; A Traitor of Love: the top score). Snapshots with the same key are one state, explored from the first snapshot reached; the runner checks that every path runs through exactly those expanded snapshots, so each step is checked against the model's transition from the very state the driver is in.",
  '- `stopWhen` stops at game over and after a configured number of hands; `limit` makes a runaway traversal throw.',
  "- Each path is a vitest test. At every step the driver (the bare actor) must accept exactly what the model accepts, reach the model's state value and context, leave the snapshot identical on refusal, agree with `refusalOf`, conserve cards, await exactly one seat in trick play, and show no seat or spectator anything hidden; every illegal command the model knows for the state is tried first. After game over every command must be refused, with a reason.",
  '- The same paths run against two more drivers with the same runner: the persisted-snapshot driver (scripted games and passing orders; the table kept only as XState\'s persisted snapshot through JSON) and the table host driver (every path; see "Paths replayed through the table host"), which also checks that every accepted command is in the host\'s log and every refused one is not.',
  '',
];

/** The part of a machine's section printed by its test file. */
export function renderSummary(section: MachineSection): string {
  return renderMachine(section, { withTimes: true, summaryOnly: true }).join('\n');
}

function renderReport(sections: readonly Section[], { withTimes }: Rendering): string {
  const machines = sections.filter((s): s is MachineSection => s.kind === 'machine');
  const lines = ['# Model-based tests: coverage of the game machines', ''];
  lines.push(
    'Written by the model-based suite (`npm run test:model`, test/model; `UPDATE_COVERAGE_DOC=1` rewrites docs/model-coverage.md). Coverage is read from the actors the tests drive: microstep inspection for states and transitions, guards wrapped (calling the originals) to record their outcomes.',
    '',
  );
  lines.push('| machine | state nodes | transitions | guard outcomes | path tests |', '|---|---|---|---|---|');
  const bySource: Record<string, number> = {};
  let tests = 0;
  for (const section of machines) {
    const { definition, counts } = section;
    tests += section.testsRun;
    for (const group of section.groups) bySource[group.source] = (bySource[group.source] ?? 0) + group.paths;
    lines.push(
      `| ${section.machine} | ${percent(covered(counts.states, definition.states), definition.states.length)} | ${percent(
        covered(
          counts.transitions,
          definition.transitions.map((t) => t.id),
        ),
        definition.transitions.length,
      )} | ${percent(covered(counts.guardOutcomes, definition.guardOutcomes), definition.guardOutcomes.length)} | ${section.testsRun} |`,
    );
  }
  const missingMachines = ORDER.slice(0, 3).filter((m) => !machines.some((s) => s.machine === m));
  const breakdown = Object.entries(bySource)
    .map(([source, n]) => `${n} ${source}`)
    .join(', ');
  lines.push(
    '',
    `Path tests: ${tests} (${breakdown})${missingMachines.length > 0 ? `; not run in this run: ${missingMachines.join(', ')}` : ''}.`,
    '',
  );
  const host = sections.find((s): s is HostSection => s.kind === 'host');
  if (host !== undefined) {
    const sum = (f: (g: HostGameSummary) => number) => host.games.reduce((total, g) => total + f(g), 0);
    lines.push(
      `The same paths through the table host's command API: ${sum((g) => g.testsRun)} path tests (${sum((g) => g.testsFailed)} failed), ${sum((g) => g.stats.accepted)} commands accepted and ${sum((g) => g.stats.refused)} refused, the log checked after each (see "Paths replayed through the table host").`,
      '',
    );
  }
  if (withTimes) {
    const ms = machines.reduce((sum, s) => sum + s.generationMs + s.runMs, 0);
    lines.push(
      `Time in the machine suites: ${(ms / 1000).toFixed(1)} s (traversals ${(machines.reduce((sum, s) => sum + s.generationMs, 0) / 1000).toFixed(1)} s), run ${new Date().toISOString()}.`,
      '',
    );
  }
  lines.push(...METHOD);
  for (const section of sections) {
    if (section.kind === 'machine') lines.push(...renderMachine(section, { withTimes }));
    else if (section.kind === 'host') lines.push(...renderHost(section, { withTimes }));
    else lines.push(...renderMutants(section));
  }
  return lines.join('\n');
}

function withLock<T>(work: () => T): T {
  mkdirSync(SECTIONS, { recursive: true });
  const lock = join(SECTIONS, '.lock');
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch {
      if (Date.now() > deadline) {
        unlinkSync(lock);
        continue;
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
  try {
    return work();
  } finally {
    if (existsSync(lock)) unlinkSync(lock);
  }
}

/** Saves a section and rewrites the combined report from this run's sections. Returns the report. */
export function publish(section: Section): string {
  return withLock(() => {
    writeFileSync(join(SECTIONS, `${section.machine}.json`), JSON.stringify(section));
    const sections = readdirSync(SECTIONS)
      .filter((file) => file.endsWith('.json'))
      .map((file) => JSON.parse(readFileSync(join(SECTIONS, file), 'utf8')) as Section)
      .filter((s) => s.runId === section.runId)
      .sort((a, b) => ORDER.indexOf(a.machine) - ORDER.indexOf(b.machine));
    const report = renderReport(sections, { withTimes: true });
    writeFileSync(REPORT_FILE, `${report}\n`);
    // The committed copy is written only from a complete run: the three machines, the host replay and the broken-machine checks.
    const complete = ORDER.every((machine) => sections.some((s) => s.machine === machine));
    if (process.env.UPDATE_COVERAGE_DOC === '1' && complete) writeFileSync(DOC_FILE, `${renderReport(sections, { withTimes: false })}\n`);
    return report;
  });
}
