import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/**
 * `npm run test:e2e:rehearse`: the customer's purchase and the merchant's sign-in against `npm run
 * rehearse` (REHEARSE=1 in the global setup): the synthesised template's bundles, routes,
 * authorizers, headers and roles, so what AWS would refuse fails here first. The rest of the
 * browser suite runs against `npm start`'s wiring only, to keep CI's time.
 */
// Lambda runs Node 24; the SDK's notice about this machine's Node 20 is not the shop's.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export default defineConfig({
  ...base,
  // The customer's storefront, purchase to a paid order with its emails, the checkout status, and
  // the merchant's sign-in to the week, each under the policy the template makes CloudFront send.
  testMatch: ['purchase.spec.ts', 'customer-paths.spec.ts', 'admin-csp.spec.ts'],
  grep: [/a customer buys 6 bottles/, /deployed CSP/, /\/success without a session id/],
  // Each call here crosses a process (the function's) and a policy simulation per AWS call, as
  // nothing does in `npm start`: on a loaded 2-core machine an answer can take seconds.
  timeout: 120_000,
  expect: { timeout: 15_000 },
});
