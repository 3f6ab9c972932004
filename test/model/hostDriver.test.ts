/**
 * The model-based paths replayed against the service: every path the suite
 * generates for each game (generated, simple and targeted: the same 527
 * paths as the actor suites, all of them, no subset) is driven through the
 * table host's command API (HostDriver: TableHost over a memory event store,
 * dealing externally), with the runner's checks at every step plus the
 * host's own: every accepted command is in the log with its canonical
 * fields, every refused one is not, the version is the log's length, the
 * refusal's kind and message are explainRefusal's, and a second host
 * rebuilds the table from the store (the whole log folding to it too).
 *
 * Coverage: the host's actor is the production machine, out of reach of the
 * suite's instrumentation, so each table's log (exactly the events the
 * host's actor took: the host checks a command before its actor sees it) is
 * replayed through an instrumented copy of the machine, and every state node
 * and transition must be covered.
 *
 * Last, deliberately broken hosts and stores must fail the driver's checks.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import { MACHINES } from '../../machines/games/index.js';
import type { TableInput } from '../../machines/table/context.js';
import type { TableEvent } from '../../machines/table/events.js';
import { GAME_NAMES, type GameName } from '../../machines/table/options.js';
import type { EventStore } from '../../services/eventstore/eventStore.js';
import { openLocalStorage } from '../../services/storage/storage.js';
import { isTableRefusal, TableRefusal } from '../../services/host/errors.js';
import { TableHost, type TableHostOptions } from '../../services/host/tableHost.js';
import { TABLE_CREATED, toNewEvent } from '../../services/host/tableLog.js';
import { coverageOf, CoverageRecorder } from './coverage.js';
import { ActorDriver } from './driver.js';
import { emptyHostStats, HostCheckFailure, HostDriver, type HostDriverOptions } from './hostDriver.js';
import type { ModelPath } from './model.js';
import {
  publish,
  renderHostSummary,
  REPORT_FILE,
  RUN_ID,
  type BrokenHostResult,
  type HostGameSummary,
  type HostSection,
} from './report.js';
import { runPath } from './runner.js';
import { SUITES } from './suites.js';

const games: HostGameSummary[] = [];
const broken: BrokenHostResult[] = [];
let control: HostSection['control'] = null;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function defineHostSuite(game: GameName): void {
  const suite = SUITES[game];
  const production = MACHINES[game] as unknown as AnyStateMachine;
  const recorder = new CoverageRecorder(production);
  const instrumented = recorder.instrument(production);
  const replayer = new ActorDriver({ machineFor: () => instrumented, inspect: recorder.inspect, onBusy: recorder.onBusy });
  const stats = emptyHostStats();
  const started = performance.now();
  const groups = suite.groups(production);
  const generationMs = performance.now() - started;
  const total = groups.reduce((sum, group) => sum + group.paths.length, 0);
  const summary: Mutable<HostGameSummary> = {
    game,
    machine: production.id,
    title: suite.title,
    paths: total,
    bySource: {},
    testsRun: 0,
    testsFailed: 0,
    steps: 0,
    refusalsTried: 0,
    generationMs,
    runMs: 0,
    stats,
    definition: recorder.definition,
    counts: recorder.counts,
  };
  for (const group of groups) summary.bySource[group.source] = (summary.bySource[group.source] ?? 0) + group.paths.length;
  games.push(summary);

  // The host's actor took exactly the logged events: replay them through the instrumented machine.
  const replay = (input: TableInput, events: readonly TableEvent[]) => {
    replayer.start(input);
    for (const event of events) {
      if (!replayer.send(event)) throw new Error(`the instrumented machine refuses the logged ${JSON.stringify(event)}`);
    }
    replayer.stop();
  };

  describe(`${suite.title}: paths replayed through the table host`, () => {
    for (const group of groups) {
      describe(`${group.source}: ${group.name}`, () => {
        for (const path of group.paths) {
          it(path.name, async () => {
            recorder.source = group.source;
            const t = performance.now();
            summary.testsRun++;
            try {
              const result = await runPath(path, new HostDriver({ stats, onLog: replay }));
              summary.steps += result.steps;
              summary.refusalsTried += result.refusalsTried;
            } catch (error) {
              summary.testsFailed++;
              throw error;
            } finally {
              summary.runMs += performance.now() - t;
            }
          });
        }
      });
    }

    it(`the host's actor covered every state node and transition of ${production.id}`, () => {
      expect(summary.testsRun).toBe(total);
      expect(stats.tables).toBe(total);
      expect(stats.rebuilt).toBe(total);
      expect(recorder.unattributed).toEqual([]);
      const { missing } = coverageOf(recorder.definition, recorder.counts);
      expect({ states: missing.states, transitions: missing.transitions }).toEqual({ states: [], transitions: [] });
    });
  });
}

for (const game of GAME_NAMES) defineHostSuite(game);

// ---------------------------------------------------------------------------
// The driver's own checks: deliberately broken hosts and stores must fail them.

/** Logs every command the host refuses, as a host that appended before checking would. */
class LogsRefusals extends TableHost {
  constructor(private readonly options: TableHostOptions) {
    super(options);
  }

  override async submit(tableId: string, command: unknown) {
    try {
      return await super.submit(tableId, command);
    } catch (error) {
      if (isTableRefusal(error)) {
        const { store } = this.options;
        await store.append(tableId, [toNewEvent(command as TableEvent, new Date().toISOString())], await store.version(tableId));
      }
      throw error;
    }
  }
}

/** Calls every illegal move "not now". */
class MislabelsRefusals extends TableHost {
  override async submit(tableId: string, command: unknown) {
    try {
      return await super.submit(tableId, command);
    } catch (error) {
      if (isTableRefusal(error) && error.kind === 'illegal') throw new TableRefusal('notNow', error.message);
      throw error;
    }
  }
}

/** Serves a version one behind its log. */
class LagsAVersion extends TableHost {
  override async snapshot(tableId: string) {
    const { version, snapshot } = await super.snapshot(tableId);
    return { version: version - 1, snapshot };
  }
}

type Append = EventStore['append'];

/** A memory store whose append is changed by `wrap`. */
function storeWith(wrap: (append: Append) => Append): () => EventStore {
  return () => {
    const store = openLocalStorage({ kind: 'memory' }).store;
    return { ...store, append: wrap(store.append.bind(store)) };
  };
}

const BROKEN: { name: string; how: string; expect: string; options: Pick<HostDriverOptions, 'createHost' | 'createStore'> }[] = [
  {
    name: 'refused command logged',
    how: 'submit appends a command to the log even when it refuses it',
    expect: 'the log changed',
    options: { createHost: (options) => new LogsRefusals(options) },
  },
  {
    name: 'accepted play lost',
    how: 'the store drops card.played events from appends, reporting the version as if it had kept them',
    expect: 'the log grew by nothing',
    options: {
      createStore: storeWith((append) => async (tableId, events, expected, status) => {
        const kept = events.filter((event) => event.type !== 'card.played');
        if (kept.length > 0) await append(tableId, kept, expected, status);
        return expected + events.length;
      }),
    },
  },
  {
    name: 'padded event logged',
    how: 'the store adds a field to the data of every table event',
    expect: 'the log stores',
    options: {
      createStore: storeWith(
        (append) => (tableId, events, expected, status) =>
          append(
            tableId,
            events.map((event) => (event.type === TABLE_CREATED ? event : { ...event, data: { ...(event.data as object), via: 'test' } })),
            expected,
            status,
          ),
      ),
    },
  },
  {
    name: 'command logged twice',
    how: 'the store appends every batch twice',
    expect: 'the log grew by 2 events',
    options: {
      createStore: storeWith(
        (append) => (tableId, events, expected, status) =>
          expected === 0 ? append(tableId, events, expected, status) : append(tableId, [...events, ...events], expected, status),
      ),
    },
  },
  {
    name: 'refusal mislabelled',
    how: 'illegal moves are refused as notNow',
    expect: "the host's refusal is notNow; explainRefusal says illegal",
    options: { createHost: (options) => new MislabelsRefusals(options) },
  },
  {
    name: 'version lags the log',
    how: 'snapshot() serves a version one less than the log length',
    expect: 'the host serves version',
    options: { createHost: (options) => new LagsAVersion(options) },
  },
];

describe("the host driver's checks fail on broken hosts", () => {
  // Whole scripted games of two machines: seats, deals, passes, plays, accusations and refusals of each kind.
  const paths: ModelPath[] = (['sevenSuitors', 'traitorOfLove'] as const).flatMap((game) =>
    SUITES[game].groups(MACHINES[game] as unknown as AnyStateMachine, ['targeted']).flatMap((group) => group.paths),
  );

  it('the production host passes them (control), also saving a snapshot every 5 events for the second host to resume from', async () => {
    let failingPaths = 0;
    const stats = emptyHostStats();
    for (const snapshotEvery of [undefined, 5]) {
      for (const path of paths) {
        try {
          await runPath(path, new HostDriver({ stats: snapshotEvery === undefined ? undefined : stats, snapshotEvery }));
        } catch (error) {
          failingPaths++;
          throw error;
        } finally {
          control = { paths: paths.length, failingPaths, rebuiltFromSnapshot: stats.rebuiltFromSnapshot };
        }
      }
    }
    expect(stats.rebuiltFromSnapshot).toBe(paths.length);
  });

  for (const mutant of BROKEN) {
    it(`${mutant.name}: ${mutant.how}`, async () => {
      const failures: unknown[] = [];
      for (const path of paths) {
        try {
          await runPath(path, new HostDriver(mutant.options));
        } catch (error) {
          failures.push(error);
        }
      }
      expect(failures.length, 'paths failing').toBeGreaterThan(0);
      const first = failures[0];
      expect(first).toBeInstanceOf(HostCheckFailure);
      expect(
        (first as HostCheckFailure).problems.some((problem) => problem.includes(mutant.expect)),
        (first as Error).message,
      ).toBe(true);
      const { problems } = first as HostCheckFailure;
      broken.push({
        name: mutant.name,
        how: mutant.how,
        firstFailure: `${failures.length}/${paths.length} paths fail; ${problems.find((problem) => problem.includes(mutant.expect))}`,
      });
    });
  }
});

afterAll(() => {
  const section: HostSection = {
    kind: 'host',
    machine: 'host',
    runId: RUN_ID,
    writtenAt: new Date().toISOString(),
    games,
    control,
    broken,
  };
  publish(section);
  console.log(`${renderHostSummary(section)}\n\nFull report: ${REPORT_FILE}`);
});
