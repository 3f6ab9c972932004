/**
 * The suite can fail: the paths generated from the production Seven Suitors
 * machine are run, with the same runner and checks, against deliberately
 * broken copies of it (a guard inverted, a transition removed, a refusal
 * weakened, an action changed). Every break must make paths fail, and the
 * removed transition must also show up as missing coverage. The copies are
 * built here, in the test; production code is untouched.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { assign, type AnyStateMachine } from 'xstate';
import { sevenSuitorsMachine } from '../../machines/games/index.js';
import { tableSetup } from '../../machines/table/setup.js';
import { completeTrick, playCard } from '../../machines/fragments/trickPlay.js';
import type { TableContext } from '../../machines/table/context.js';
import type { TableEvent } from '../../machines/table/events.js';
import { coverageOf, CoverageRecorder } from './coverage.js';
import { ActorDriver } from './driver.js';
import { bothDeals, generateShortestPaths, richDeals, seededDeals, type ModelPath } from './model.js';
import { publish, RUN_ID, type MutantResult } from './report.js';
import { PathFailure, runPath } from './runner.js';

const production = sevenSuitorsMachine as unknown as AnyStateMachine;
type Guard = (args: { context: TableContext; event: TableEvent }, params?: unknown) => boolean;
const guards = production.implementations.guards as Record<string, Guard>;

/** A deep copy of a machine config that keeps its functions (the context factory). */
function copyConfig<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyConfig) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copyConfig(v)])) as T;
  }
  return value;
}

interface Mutant {
  readonly name: string;
  readonly how: string;
  readonly machine: AnyStateMachine;
  /** A problem every failing path of this mutant must report (the checker that catches it). */
  readonly detectedBy: RegExp;
  /** Transitions that must be reported missing from coverage. */
  readonly missing?: readonly string[];
}

function withoutPlainFollow(): AnyStateMachine {
  // biome-ignore lint/suspicious/noExplicitAny: the test rewires a copy of the machine's config by hand
  const config = copyConfig(production.config) as Record<string, any>;
  const following = config.states.trickPlay.states.following;
  following.on['card.played'] = following.on['card.played'].slice(0, 2);
  return tableSetup.createMachine(config as never) as unknown as AnyStateMachine;
}

const MUTANTS: Mutant[] = [
  {
    name: 'guard inverted',
    how: 'gameIsOver returns the opposite (machine.provide)',
    machine: production.provide({ guards: { gameIsOver: (args: never) => !guards.gameIsOver(args) } } as never),
    detectedBy: /state (dealing|gameOver), the model is in (gameOver|dealing)/,
  },
  {
    name: 'transition removed',
    how: 'trickPlay.following loses its plain card.played transition (isLegalPlay, targetless), config copied and rebuilt with tableSetup',
    machine: withoutPlainFollow(),
    detectedBy: /was refused; the model accepts it/,
    missing: ['trickPlay.following card.played #2'],
  },
  {
    name: 'refusal weakened',
    how: 'isLegalPlay accepts any card the seat to play holds, whether or not it follows suit',
    machine: production.provide({
      guards: {
        isLegalPlay: ({ context, event }: { context: TableContext; event: TableEvent }) =>
          event.type === 'card.played' && context.hand?.turn === event.seat && context.hand.holdings[event.seat].includes(event.card),
      },
    } as never),
    detectedBy: /refused by the model but accepted: \[not following suit\]/,
  },
  {
    name: 'action changed',
    how: "completeTrick gives each trick's cards to the winner's partner",
    machine: production.provide({
      actions: {
        completeTrick: assign(({ context }: { context: TableContext }) => {
          const next = completeTrick(context);
          const tricks = next.hand!.tricks.map((t, i, all) => (i === all.length - 1 ? { ...t, capturedBy: (t.winner + 2) % 4 } : t));
          return { hand: { ...next.hand!, tricks } };
        }),
      },
    } as never),
    detectedBy: /context differs from the model's/,
  },
  {
    name: 'seat guard weakened',
    how: 'seatIsOpen lets a player take a seat that is already taken',
    machine: production.provide({ guards: { seatIsOpen: ({ event }: { event: TableEvent }) => event.type === 'seat.joined' } } as never),
    detectedBy: /refused by the model but accepted: \[(seat taken|no name|no such seat)\]/,
  },
];

const CONFIG = {
  name: 'mutant check: hands:1, 3 cards each',
  input: { game: 'sevenSuitors', options: { end: 'hands:1', specials: 'off' }, cardsPerSeat: 3 },
  maxHands: 1,
  deals: bothDeals(seededDeals('mutant', 1), richDeals('mutant', 1)),
  seatChanges: true,
  limit: 200_000,
} as const;
const model = generateShortestPaths(production, CONFIG);

/**
 * Bugs the model would share: the paths are generated from the broken
 * machine itself, so model and actor agree step by step and only the
 * invariants can tell that something is wrong, as with a bug in production code.
 */
const SHARED_BUGS: Mutant[] = [
  {
    name: 'turn skips a seat (shared by the model)',
    how: 'playCard passes the turn two seats on',
    machine: production.provide({
      actions: {
        playCard: assign(({ context, event }: { context: TableContext; event: TableEvent }) => {
          if (event.type !== 'card.played') return {};
          const next = playCard(context, event);
          return { hand: { ...next.hand!, turn: (event.seat + 2) % context.seatCount } };
        }),
      },
    } as never),
    detectedBy: /is not next after the trick's plays|could play out of turn/,
  },
  {
    name: 'a card vanishes (shared by the model)',
    how: "completeTrick keeps only the trick's last three cards",
    machine: production.provide({
      actions: {
        completeTrick: assign(({ context }: { context: TableContext }) => {
          const next = completeTrick(context);
          const tricks = next.hand!.tricks.map((t, i, all) => (i === all.length - 1 ? { ...t, plays: t.plays.slice(1) } : t));
          return { hand: { ...next.hand!, tricks } };
        }),
      },
    } as never),
    detectedBy: /cards not conserved/,
  },
];

interface Outcome {
  readonly failures: PathFailure[];
  readonly missing: string[];
}

async function runAll(machine: AnyStateMachine, paths: readonly ModelPath[]): Promise<Outcome> {
  const recorder = new CoverageRecorder(production);
  const instrumented = recorder.instrument(machine);
  const driver = new ActorDriver({ machineFor: () => instrumented, inspect: recorder.inspect, onBusy: recorder.onBusy });
  const failures: PathFailure[] = [];
  for (const path of paths) {
    try {
      await runPath(path, driver);
    } catch (error) {
      if (!(error instanceof PathFailure)) throw error;
      failures.push(error);
    }
  }
  const { missing } = coverageOf(recorder.definition, recorder.counts);
  return { failures, missing: [...missing.states, ...missing.transitions] };
}

const results: MutantResult[] = [];
let control = { failingPaths: -1, totalPaths: model.paths.length };
let controlMissing: string[] = [];

describe('the model-based checks fail on a broken machine', () => {
  it('the production machine passes every path (control)', async () => {
    const outcome = await runAll(production, model.paths);
    control = { failingPaths: outcome.failures.length, totalPaths: model.paths.length };
    expect(outcome.failures.map((f) => f.message)).toEqual([]);
    // hands:1 never goes on to a second hand; everything else of the machine is covered.
    expect(outcome.missing).toEqual(['scoring (always) #1']);
    controlMissing = outcome.missing;
  });

  for (const mutant of SHARED_BUGS) {
    it(`detects a bug the model shares through the invariants: ${mutant.name} (${mutant.how})`, async () => {
      const own = generateShortestPaths(mutant.machine, { ...CONFIG, name: mutant.name });
      const outcome = await runAll(mutant.machine, own.paths);
      results.push({
        name: mutant.name,
        how: `${mutant.how}; paths generated from the broken machine itself`,
        failingPaths: outcome.failures.length,
        totalPaths: own.paths.length,
        firstFailure: outcome.failures[0]?.problems.join('; ') ?? '(none)',
        coverageMissing: [],
      });
      expect(outcome.failures.length).toBeGreaterThan(0);
      expect(outcome.failures.every((f) => f.problems.every((p) => !/the model/.test(p)))).toBe(true);
      expect(outcome.failures.some((f) => f.problems.some((p) => mutant.detectedBy.test(p)))).toBe(true);
    });
  }

  for (const mutant of MUTANTS) {
    it(`detects a broken machine: ${mutant.name} (${mutant.how})`, async () => {
      const outcome = await runAll(mutant.machine, model.paths);
      results.push({
        name: mutant.name,
        how: mutant.how,
        failingPaths: outcome.failures.length,
        totalPaths: model.paths.length,
        firstFailure: outcome.failures[0]?.problems.join('; ') ?? '(none)',
        coverageMissing: outcome.missing.filter((item) => !controlMissing.includes(item)),
      });
      expect(outcome.failures.length).toBeGreaterThan(0);
      expect(outcome.failures.some((f) => f.problems.some((p) => mutant.detectedBy.test(p)))).toBe(true);
      for (const id of mutant.missing ?? []) expect(outcome.missing).toContain(id);
    });
  }
});

afterAll(() => {
  publish({ kind: 'mutants', machine: 'mutants', runId: RUN_ID, writtenAt: new Date().toISOString(), control, mutants: results });
  console.log(
    results.map((r) => `${r.name}: ${r.failingPaths}/${r.totalPaths} paths fail; first: ${r.firstFailure.slice(0, 160)}`).join('\n'),
  );
});
