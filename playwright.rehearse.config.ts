import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/**
 * `npm run test:e2e:rehearse`: the customer's purchase and the merchant's admin against `npm run
 * rehearse` (REHEARSE=1 in the global setup): the synthesised template's bundles, routes,
 * authorizers, headers and roles, so what AWS would refuse fails here first. The rest of the
 * browser suite runs against `npm start`'s wiring only, to keep CI's time.
 */
// Lambda runs Node 24; the SDK's notice about this machine's Node 20 is not the shop's.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export default defineConfig({
  ...base,
  testMatch: ['purchase.spec.ts', 'customer-paths.spec.ts', 'admin.spec.ts'],
});
