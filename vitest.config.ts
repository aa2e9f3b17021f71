import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * Files that start no SES stand-in (aws-ses-v2-local keeps one inbox per process), set no
 * process.env or global, use no fake timers and reset no modules: safe in a shared worker.
 */
const SHARED_LOADS = [
  'test/architecture/*.test.ts',
  'test/build/{packaged-chromium,paint-first-pages}.test.ts',
  'test/lambdas/domain/capacity/{client-identity,session-reservation}.test.ts',
  'test/lambdas/domain/checkout/{order,paid-checkout}.test.ts',
  'test/lambdas/domain/emails/{customer-confirmation,merchant-notice,refund-emails,refund-reason-wording,render,request-emails,required-contents}.test.ts',
  'test/lambdas/domain/fulfilment/{click-and-drop-export,dispatch-files,failed-debit,pending-debit}.test.ts',
  'test/lambdas/domain/operations/admin-views.test.ts',
  'test/lambdas/domain/order-page-token.test.ts',
  'test/lambdas/domain/storage/outbox.test.ts',
  'test/lambdas/domain/weather/dispatch-postcode.test.ts',
  'test/lambdas/lib/{cold-start,http-handler,http,metrics,origin-verify,stripe-errors,verify-stripe-event}.test.ts',
  'test/local/{forecast-stand-in,kept-file,rehearse-dynamo-calls,rehearse-synth}.test.ts',
  'test/local/stripe-simulator/shop-params.test.ts',
  'test/ops/{format,sign-in-store,stage-file}.test.ts',
  'test/scripts/{benchmarks-page,mutation-report,stage-costs}.test.ts',
  'test/shared/{admin-client-core,calendar-date,checkout-request,dispatch,email-suggestion,london-clock,order-reference,postcode,pricing,product,public-routes,read-json,stage-config}.test.ts',
  'test/web-worker/admin-push-worker.test.ts',
];

export default defineConfig({
  plugins: [react()],
  test: {
    // A passing run prints its dots and the summary; a failing test's logs and output print with it.
    reporters: ['dot'],
    silent: 'passed-only',
    // vitest's default leaves one core to itself: one worker on a 2-core machine, while the
    // integration files mostly wait on their stand-ins. Two at least, so one runs while one waits.
    maxWorkers: Math.max(2, availableParallelism() - 1),
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
          // Above the 5 s wait of setup.ts, so a page that never gets right fails on what it shows.
          testTimeout: 15_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: SHARED_LOADS,
          // A fresh process per file reloaded zod, the AWS SDK and Stripe each time: these files
          // share their worker's loads. Listed (not globbed) so a new file starts isolated.
          isolate: false,
          setupFiles: ['test/support/quiet-output.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/web/**', 'test/e2e/**', 'test/infra/**', ...SHARED_LOADS],
          // The logger's, the metrics' and CDK's own writes, shown for failing tests only.
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
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});
