/**
 * The same path runner with a second driver: the table is kept only as its
 * persisted snapshot (through JSON) and resumed for every event, as a host
 * that reloads tables from storage does. The scripted whole games and the
 * passing orders (where the hidden pass choices must survive storage) run
 * through it; every path also runs through the table host (hostDriver.test.ts).
 */
import { describe, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import { MACHINES } from '../../machines/games/index.js';
import { GAME_NAMES } from '../../machines/table/options.js';
import { PersistedSnapshotDriver } from './driver.js';
import { runPath } from './runner.js';
import { SUITES } from './suites.js';

for (const game of GAME_NAMES) {
  const suite = SUITES[game];
  const groups = suite.groups(MACHINES[game] as unknown as AnyStateMachine, ['simple', 'targeted']);
  describe(`${suite.title}: paths replayed through persisted snapshots`, () => {
    for (const group of groups) {
      for (const path of group.paths) {
        it(`${group.source}: ${path.name}`, async () => {
          await runPath(path, new PersistedSnapshotDriver());
        });
      }
    }
  });
}
