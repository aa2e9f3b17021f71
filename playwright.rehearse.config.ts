import { defineConfig } from '@playwright/test';
import { weatherKnownFrom } from './lambdas/domain/weather/weather-check';
import base from './playwright.config';
import { firstComingDispatchDay } from './shared/dispatch';

/**
 * `npm run test:e2e:rehearse`: the browser suite against `npm run rehearse` (REHEARSE=1 in the
 * global setup): the synthesised template's bundles, routes, authorizers, headers and roles, so
 * what AWS would refuse fails here first; any AccessDenied the rehearsal prints fails the run
 * (global-setup.ts). Only what cannot mean anything against a deployed template is left out.
 */
// Lambda runs Node 24; the SDK's notice about this machine's Node 20 is not the shop's.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const excluded: string[] = [];
// Earlier in the week than the evening the forecast is trusted, the spec needs the weather check on
// a set clock (LOCAL_WEATHER_NOW), which only `npm start` has: the bundles run on the real one.
const now = new Date();
if (now < weatherKnownFrom(firstComingDispatchDay(now))) excluded.push('weather.spec.ts');

export default defineConfig({
  ...base,
  testIgnore: excluded,
  // Each call here crosses a process (the function's) and a policy simulation per AWS call, as
  // nothing does in `npm start`: on a loaded 2-core machine an answer can take seconds.
  timeout: 120_000,
  expect: { timeout: 15_000 },
});
