import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/**
 * `npm run test:e2e:rehearse`: the browser suite against `npm run rehearse` (REHEARSE=1 in the
 * global setup): the synthesised template's bundles, routes, authorizers, headers and roles, so
 * what AWS would refuse fails here first; any AccessDenied the rehearsal prints fails the run
 * (global-setup.ts). Only what cannot mean anything against a deployed template is left out.
 */
export default defineConfig({
  ...base,
  // Each call here crosses a process (the function's) and a policy simulation per AWS call, as
  // nothing does in `npm start`: on a loaded 2-core machine a test takes longer (expect's 15 s is the base's).
  timeout: 120_000,
});
