import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

/**
 * Browser tests against the whole local stack, in Debian's Chromium (`apt-get install chromium`):
 * Playwright's own browser download cannot run here. Ports differ from `npm start`'s so both can
 * run side by side.
 */
export const E2E_PORTS = { shop: 3100, dynamo: 8100, ses: 8105, simulator: 12211 } as const;

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromiumPath)) {
  throw new Error(
    `No Chromium at ${chromiumPath}: install Debian's (apt-get update && apt-get install -y chromium) or set CHROMIUM_PATH.`,
  );
}

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  retries: 0,
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${E2E_PORTS.shop}`,
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: {
    command: 'npx tsx local/dev-server.ts',
    url: `http://localhost:${E2E_PORTS.shop}/`,
    reuseExistingServer: false,
    // Generous: on a loaded 2-core machine tsx compiles the whole local stack before it listens.
    timeout: 180_000,
    env: {
      // Playwright replaces the environment rather than extending it: keep PATH and friends.
      ...Object.fromEntries(
        Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
      ),
      PORT: String(E2E_PORTS.shop),
      LOCAL_DYNAMODB_PORT: String(E2E_PORTS.dynamo),
      LOCAL_SES_PORT: String(E2E_PORTS.ses),
      STRIPE_SIMULATOR_PORT: String(E2E_PORTS.simulator),
      LOCAL_DATA_DIR: 'memory',
    },
  },
});
