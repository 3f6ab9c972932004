/**
 * Registers the model-based tests of one game: one vitest test per path,
 * then a test that the machine's definition is covered in full. The report
 * section is written (and printed) after the file's tests, pass or fail.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import { MACHINES } from '../../machines/games/index.js';
import type { GameName } from '../../machines/table/options.js';
import { coverageOf, CoverageRecorder } from './coverage.js';
import { ActorDriver } from './driver.js';
import { onlyByTargeted, publish, renderSummary, RUN_ID, REPORT_FILE, type MachineSection } from './report.js';
import { runPath } from './runner.js';
import { SUITES } from './suites.js';

export function defineModelSuite(game: GameName): void {
  const suite = SUITES[game];
  const production = MACHINES[game] as unknown as AnyStateMachine;
  const recorder = new CoverageRecorder(production);
  const instrumented = recorder.instrument(production);
  const driver = new ActorDriver({ machineFor: () => instrumented, inspect: recorder.inspect, onBusy: recorder.onBusy });

  const started = performance.now();
  // The model is the production machine itself, not the instrumented copy the actor runs.
  const groups = suite.groups(production);
  const generationMs = performance.now() - started;
  const total = groups.reduce((sum, group) => sum + group.paths.length, 0);
  let testsRun = 0;
  let testsFailed = 0;
  let steps = 0;
  let refusalsTried = 0;
  let runMs = 0;

  describe(`${suite.title}: model-based paths`, () => {
    for (const group of groups) {
      describe(`${group.source}: ${group.name}`, () => {
        for (const path of group.paths) {
          it(path.name, async () => {
            recorder.source = group.source;
            const t = performance.now();
            testsRun++;
            try {
              const result = await runPath(path, driver, { refusal: (state, kind) => recorder.noteRefusal(state, kind) });
              steps += result.steps;
              refusalsTried += result.refusalsTried;
            } catch (error) {
              testsFailed++;
              throw error;
            } finally {
              runMs += performance.now() - t;
            }
          });
        }
      });
    }

    it(`covers every state node, transition and guard outcome of ${production.id}`, () => {
      expect(testsRun).toBe(total);
      expect(recorder.unattributed).toEqual([]);
      const { missing } = coverageOf(recorder.definition, recorder.counts);
      expect(missing).toEqual({ states: [], transitions: [], guardOutcomes: [], entryActions: [] });
      const unexplained = onlyByTargeted({ definition: recorder.definition, bySource: recorder.bySource }).filter(
        (item) => suite.onlyTargeted[item] === undefined,
      );
      expect(unexplained, 'items only targeted paths reach need an explanation in the report').toEqual([]);
    });
  });

  afterAll(() => {
    const section: MachineSection = {
      kind: 'machine',
      machine: production.id,
      title: suite.title,
      runId: RUN_ID,
      writtenAt: new Date().toISOString(),
      groups: groups.map(({ name, source, description, paths, keys, modelTransitions }) => ({
        name,
        source,
        description,
        paths: paths.length,
        keys,
        modelTransitions,
      })),
      testsRun,
      testsFailed,
      steps,
      refusalsTried,
      generationMs,
      runMs,
      definition: recorder.definition,
      counts: recorder.counts,
      bySource: recorder.bySource,
      onlyTargeted: suite.onlyTargeted,
    };
    publish(section);
    console.log(`${renderSummary(section)}\n\nFull report: ${REPORT_FILE}`);
  });
}
