import { defineConfig } from 'vitest/config';

// The suites that exercise the money path, for `npm run mutation` (Stryker's vitest runner), in
// Node: the Lambda and shared tests; the operator tests, which drive create-checkout and the
// webhook in paused and requests mode and through refunds; and the local-stack tests, which
// reach the handlers through the API Gateway adapter. The web, infra and simulator suites test
// other code.
export default defineConfig({
  test: {
    environment: 'node',
    include: [
      'test/lambdas/**/*.test.ts',
      'test/shared/**/*.test.ts',
      'test/ops/**/*.test.ts',
      'test/local/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
