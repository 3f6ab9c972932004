import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['machines/**/*.test.ts', 'services/**/*.test.ts', 'drivers/**/*.test.ts', 'test/**/*.test.ts', 'hardening/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
