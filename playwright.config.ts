import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './test/support/chromium';

/**
 * Browser tests against the whole local stack, in Debian's Chromium where it is installed and the
 * npm package's otherwise (test/support/chromium.ts). The global setup starts the stack in this
 * process on free ports, so two runs, or a run beside `npm start`, never fight over a port.
 */
const executablePath = await chromiumPath();

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './test/e2e/support/global-setup.ts',
  timeout: 60_000,
  retries: 0,
  workers: 1,
  reporter: [['list']],
  use: {
    launchOptions: {
      executablePath,
      args: CHROMIUM_ARGS,
    },
  },
});
