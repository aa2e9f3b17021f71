/**
 * The node test files that change what a later file in the same process would see: process.env
 * (vi.stubEnv, the local shop's own settings), the AWS SDK's client classes (aws-sdk-client-mock),
 * fake timers, the module cache or the global fetch. vitest.config.ts runs each in a process of
 * its own; every other node file shares its worker's process (isolate: false), which spares the
 * run a fresh load of the SDK, Stripe and zod per file. test/architecture/own-process.test.ts
 * keeps this list complete.
 */
export const OWN_PROCESS_FILES = [
  'test/build/admin-entry.test.ts',
  'test/build/vite-config.test.ts',
  'test/lambdas/handlers/admin-api/authorization.test.ts',
  'test/lambdas/handlers/admin-api/session.test.ts',
  'test/lambdas/handlers/checkout-status/lookup-refusals.test.ts',
  'test/lambdas/handlers/create-checkout/deployed-bundle.test.ts',
  'test/lambdas/handlers/create-checkout/stripe-failures.test.ts',
  'test/lambdas/lib/metrics-disabled.test.ts',
  'test/local/local-shop-admin.test.ts',
  'test/local/local-shop-restart.test.ts',
  'test/local/local-shop-weather.test.ts',
  'test/local/local-shop.test.ts',
  'test/local/orders-cli-sign-in.test.ts',
  'test/ops/cdk-command.test.ts',
  'test/ops/cli-target.test.ts',
  'test/ops/doctor.test.ts',
  'test/ops/merchant-command.test.ts',
  'test/ops/setup-guards.test.ts',
  'test/ops/setup.test.ts',
  'test/ops/shop-settings.test.ts',
  'test/shared/checkout-request-load-order.test.ts',
  // These read what an earlier file left in the process (zod's messages, the stand-ins' mail and
  // metrics): they failed when shared, so they keep a process until each cause is found.
  'test/lambdas/domain/emails/send-email-once.test.ts',
  'test/lambdas/domain/operations/request-notice-limits.test.ts',
  'test/lambdas/domain/weather/weather-check.test.ts',
  'test/lambdas/handlers/create-checkout/aws-dependencies.test.ts',
  'test/lambdas/handlers/order-page/order-page.test.ts',
  'test/lambdas/handlers/weather-notice/handler.test.ts',
  'test/local/rehearse.test.ts',
  'test/ops/sender-identity.test.ts',
  'test/ops/weather.test.ts',
  'test/shared/checkout-request.test.ts',
] as const;
