import { defineConfig } from 'vitest/config';

// The suites that exercise the money path, for `npm run mutation` (Stryker's vitest runner):
// the Lambda and shared tests, in Node. The web, infra, local and ops suites test other code.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/lambdas/**/*.test.ts', 'test/shared/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
