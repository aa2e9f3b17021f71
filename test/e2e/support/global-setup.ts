import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FullConfig } from '@playwright/test';
import { startLocalShop } from '../../../local/local-shop';
import { STACK_ENV } from './stack';

/**
 * Starts the whole local shop for the browser tests on free ports (the shop and every stand-in on
 * port 0), so a second run, or a developer's `npm start`, never collides with it. The addresses
 * reach the test workers through the environment, which Playwright hands down from here; the
 * returned function stops the stack when the run ends.
 */
export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  const webRoot = resolve('dist/web');
  if (!existsSync(resolve(webRoot, 'index.html'))) {
    throw new Error('No web build in dist/web: run `npm run test:e2e`, which builds it first.');
  }
  // The handlers log every request at INFO; keep the test output readable unless asked.
  if (!process.env.E2E_LOG_STACK) process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
  const shop = await startLocalShop({
    port: 0,
    dynamoPort: 0,
    sesPort: 0,
    simulatorPort: 0,
    dataDir: undefined,
    webRoot,
    stripe: undefined,
    log: (line) => {
      if (process.env.E2E_LOG_STACK) console.log(`  [shop] ${line}`);
    },
  });
  process.env[STACK_ENV.shop] = shop.url;
  process.env[STACK_ENV.dynamo] = shop.dynamoUrl;
  process.env[STACK_ENV.ses] = shop.sesUrl;
  process.env[STACK_ENV.simulator] = shop.simulator?.url ?? '';
  return () => shop.close();
}
