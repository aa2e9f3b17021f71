// @ts-check
// `npm run mutation`: mutation testing of the money path and the operator's domain (figures and how to read them: docs/reports/mutation.md).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner', './stryker/log-message-ignorer.mjs'],
  ignorers: ['log-messages'],
  coverageAnalysis: 'perTest',
  ignoreStatic: true,
  // The money path and the operator's domain: pricing, the request schema, dispatch, postcodes
  // and status in shared/; the checkout, webhook, reconciler and status entries; the whole server
  // domain (checkout, fulfilment, orders, emails, operations, shop settings, capacity); and the
  // HTTP, Stripe-error and webhook-verification helpers they share.
  mutate: [
    'shared/pricing.ts',
    'shared/checkout-request.ts',
    'shared/dispatch.ts',
    'shared/postcode.ts',
    'shared/checkout-status.ts',
    'lambdas/handlers/create-checkout/**/*.ts',
    'lambdas/handlers/stripe-webhook/**/*.ts',
    'lambdas/handlers/reconcile-orders/**/*.ts',
    'lambdas/handlers/checkout-status/**/*.ts',
    'lambdas/domain/**/*.ts',
    'lambdas/lib/verify-stripe-event.ts',
    'lambdas/lib/http*.ts',
    'lambdas/lib/stripe-errors.ts',
  ],
  reporters: ['html', 'clear-text', 'progress', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  concurrency: 2,
  timeoutMS: 20_000,
  // The initial run (every money-path test, with per-test coverage) takes over 6 minutes on 2 idle
  // cores, past Stryker's default 5, which ended `npm run mutation` before any mutant ran.
  dryRunTimeoutMinutes: 30,
  tempDirName: '.stryker-tmp',
  thresholds: { high: 90, low: 80, break: null },
};
