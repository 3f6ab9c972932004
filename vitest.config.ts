import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['machines/**/*.test.ts', 'services/**/*.test.ts', 'drivers/**/*.test.ts', 'test/**/*.test.ts', 'hardening/**/*.test.ts'],
    // Two files at a time: Vitest's default is one worker per core less one, a single worker here, while half the
    // suite waits on nats-server, Chromium and child processes and leaves the second core idle.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
