import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { OWN_PROCESS_FILES } from './test/support/own-process-files.ts';

export default defineConfig({
  plugins: [react()],
  test: {
    // A passing run prints its dots and the summary; a failing test's logs and output print with it.
    reporters: ['dot'],
    silent: 'passed-only',
    // The Lambdas run Node 24: the AWS SDK's notice about this machine's Node 20 is not the shop's.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    // The Lambda bundles tests build (infra's synth, create-checkout's deployed bundle): Node loads
    // them as Lambda does, not Vite's transform, which also warned that their maps name no sources.
    server: { deps: { external: [/\/(shop-cdk-out|create-checkout-bundle)-[^/]+\/.+\.mjs/] } },
    // Integration suites start their own stand-ins on random ports, so files can run in parallel.
    projects: [
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['test/web/**/*.test.{ts,tsx}'],
          // site-config.ts first: the app's modules read the site's settings as they load.
          setupFiles: ['test/web/site-config.ts', 'test/web/setup.ts'],
          // One jsdom and one load of React and the app per worker, not per file: setup.ts puts back
          // after each test what a test may change (globals, mocks, timers, storage, the DOM), and
          // these files mock no module.
          isolate: false,
          // Above the 5 s wait of setup.ts, so a page that never gets right fails on what it shows.
          testTimeout: 15_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/web/**', 'test/e2e/**', 'test/infra/**', ...OWN_PROCESS_FILES],
          // A fresh process per file re-imported the SDK, Stripe and zod for each of 200 files, the
          // run's largest cost: these build their clients and stand-ins from arguments, so they share.
          isolate: false,
          // The logger's, the metrics' and CDK's own writes, shown for failing tests only.
          setupFiles: ['test/support/quiet-output.ts', 'test/support/fresh-ses-store.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'node-own-process',
          environment: 'node',
          include: [...OWN_PROCESS_FILES],
          setupFiles: ['test/support/quiet-output.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'infra',
          environment: 'node',
          include: ['test/infra/**/*.test.ts'],
          // Loading aws-cdk-lib and cdk-nag costs each file about 8 s of CPU, more than its tests:
          // these files only build apps from props (no env, mocks or globals), so one load per worker.
          isolate: false,
          setupFiles: ['test/support/quiet-output.ts', 'test/infra/setup.ts'],
          // A synth hook takes 10-35 s alone; `npm test` runs the browser suites beside it, and a
          // bound for hangs, not a speed target, must not fail a slow but sound run.
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
