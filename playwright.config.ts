import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './test/support/chromium';

/**
 * Browser tests against the whole local stack, in Debian's Chromium where it is installed and the
 * npm package's otherwise (test/support/chromium.ts). The global setup starts the stack in this
 * process on free ports, so two runs, or a run beside `npm start`, never fight over a port.
 */
const executablePath = await chromiumPath();
// Set before the global setup loads the stack's modules (some build their SDK clients as they
// load): Lambda runs Node 24, so the SDK's notice about this machine's Node 20 is not the shop's.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
// The handlers log every request at INFO, and their logger reads its level as it loads, so here,
// not in the global setup: errors only, unless E2E_LOG_STACK asks for the stack's whole log.
if (!process.env.E2E_LOG_STACK) {
  process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
  // The metrics' EMF lines too: the stack's functions write them to stdout, as Lambda does.
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
}

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './test/e2e/support/global-setup.ts',
  timeout: 60_000,
  // The admin's week and Shop views read GET status (about 285 DynamoDB calls then, 117 now): at
  // load 12 on 2 cores one took 2.8 to 6.2 s, past the default 5 s. The rehearsal's too.
  expect: { timeout: 15_000 },
  retries: 0,
  workers: 1,
  // Dots and the summary; a failing test's steps, error and output are printed in full.
  reporter: [['dot']],
  use: {
    launchOptions: {
      executablePath,
      args: CHROMIUM_ARGS,
    },
  },
});
