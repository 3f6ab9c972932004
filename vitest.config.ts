import { defineConfig } from 'vitest/config';

/**
 * The tiers, named by the test file's suffix: `*.nats.test.ts` needs nats-server (and may start processes too),
 * `*.browser.test.ts` Chromium, `*.process.test.ts` child processes of its own. Every other test file is a unit
 * test: this process alone, with in-memory or file stores. `npm test` runs them all, as CI does; `npm run test:unit`
 * the unit tier and `npm run test:int` the rest (TEST_TIER, set by those scripts).
 */
const INTEGRATION = ['**/*.nats.test.ts', '**/*.browser.test.ts', '**/*.process.test.ts'];
const ROOTS = ['machines', 'services', 'drivers', 'test', 'hardening'];
/**
 * Files that replace a module of the service with vi.mock (a next release's rules): they need a module graph of
 * their own, where every other file shares its worker's.
 */
const OWN_MODULES = ['test/ruleChange.test.ts', 'test/optionAdded.test.ts'];
const tier = process.env.TEST_TIER;
if (tier !== undefined && tier !== 'unit' && tier !== 'int') throw new Error(`TEST_TIER is "${tier}"; it is unit, int or unset (all)`);

const include = ROOTS.flatMap((root) => (tier === 'int' ? INTEGRATION.map((suffix) => `${root}/${suffix}`) : [`${root}/**/*.test.ts`]));
const exclude = ['**/node_modules/**', ...(tier === 'unit' ? INTEGRATION : [])];

export default defineConfig({
  test: {
    // Three files at a time on two cores: half the suite waits on nats-server, Chromium, child processes and real
    // clocks, and with two files the cores sat 25-40% idle (vmstat). Measured on this machine, quiet: 262-276 s with
    // two, 227 s with three. Vitest's --maxWorkers does not reach the projects below; this does.
    maxWorkers: 3,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // What a test stubs (vi.stubEnv) is put back after it: a worker's files share one process.
    unstubEnvs: true,
    projects: [
      {
        extends: true,
        // One module graph a worker: evaluating the service's modules again for each of 150 files was half the
        // suite's time (import 64 s of 85 s for services/gateway's 37 files; 11 s of 36 s shared). Each file still
        // makes its own services, stores and servers, and closes them.
        test: { name: 'shared', include, exclude: [...exclude, ...OWN_MODULES], isolate: false },
      },
      ...(tier === 'int' ? [] : [{ extends: true as const, test: { name: 'own modules', include: OWN_MODULES, exclude, isolate: true } }]),
    ],
  },
});
