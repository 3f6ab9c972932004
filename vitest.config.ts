import { defineConfig } from 'vitest/config';

/**
 * The tiers, named by the test file's suffix: `*.nats.test.ts` needs nats-server (and may start processes too),
 * `*.browser.test.ts` Chromium, `*.process.test.ts` child processes of its own. Every other test file is a unit
 * test: this process alone, with in-memory or file stores. `npm test` runs them all, as CI does; `npm run test:unit`
 * the unit tier and `npm run test:int` the rest (TEST_TIER, set by those scripts).
 */
const INTEGRATION = ['**/*.nats.test.ts', '**/*.browser.test.ts', '**/*.process.test.ts'];
const ROOTS = ['machines', 'services', 'drivers', 'test', 'hardening'];
const tier = process.env.TEST_TIER;
if (tier !== undefined && tier !== 'unit' && tier !== 'int') throw new Error(`TEST_TIER is "${tier}"; it is unit, int or unset (all)`);

export default defineConfig({
  test: {
    include: ROOTS.flatMap((root) => (tier === 'int' ? INTEGRATION.map((suffix) => `${root}/${suffix}`) : [`${root}/**/*.test.ts`])),
    exclude: ['**/node_modules/**', ...(tier === 'unit' ? INTEGRATION : [])],
    // Two files at a time: Vitest's default is one worker per core less one, a single worker here, while half the
    // suite waits on nats-server, Chromium and child processes and leaves the second core idle.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
