import { resolve } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { test as base } from '@playwright/test';
import { LOCAL_ORDER_PAGE_SECRET, startLocalShop } from '../../../local/local-shop';
import { startRehearsal } from '../../../local/rehearse/rehearsal';
import { testStage } from '../../../local/rehearse/synth';
import type { Stack, StoredEmail } from './fixtures';
import { STACK_SETTINGS_MAX_AGE_MS } from './stack';

/** A stack of the spec's own, with its Stripe simulator's address and webhook secret. */
export interface OwnStack extends Stack {
  simulatorUrl: string;
  /** The secret the simulator signs its webhooks with: a replay is signed as Stripe would sign it. */
  webhookSecret: string;
}

interface Started {
  shopUrl: string;
  dynamoUrl: string;
  sesUrl: string;
  simulatorUrl: string;
  tableName: string;
  merchantEmail: string;
  orderPageSecret: string;
  webhookSecret: string;
  close(): Promise<void>;
}

/**
 * A spec that moves Stripe's clock weeks ahead (a standing order's renewals) gets a whole stack of
 * its own, the same as the global setup's (REHEARSE=1: the rehearsal's): Stripe's clock only moves
 * forward, and on the shared stack every later spec's checkout would be refused as expiring in
 * Stripe's past. Worker-scoped: started once for the spec's tests, stopped after them.
 */
export const test = base.extend<{ stack: OwnStack }, { ownStack: Started }>({
  ownStack: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; these have none.
    async ({}, use) => {
      const started = process.env.REHEARSE === '1' ? await rehearsal() : await localShop();
      await use(started);
      await started.close();
    },
    { scope: 'worker', timeout: 240_000 },
  ],
  baseURL: async ({ ownStack }, use) => {
    await use(ownStack.shopUrl);
  },
  stack: async ({ ownStack }, use) => {
    const dynamo = new DynamoDBClient({
      region: 'eu-west-2',
      endpoint: ownStack.dynamoUrl,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    await use({
      shopUrl: ownStack.shopUrl,
      dynamo,
      tableName: ownStack.tableName,
      merchantEmail: ownStack.merchantEmail,
      orderPageSecret: ownStack.orderPageSecret,
      simulatorUrl: ownStack.simulatorUrl,
      webhookSecret: ownStack.webhookSecret,
      async emailsTo(address) {
        const store = (await (await fetch(`${ownStack.sesUrl}/store`)).json()) as { emails: StoredEmail[] };
        return store.emails.filter((email) => email.destination.to.includes(address));
      },
    });
    dynamo.destroy();
  },
});

export { expect } from '@playwright/test';

const quiet = (line: string) => {
  if (process.env.E2E_LOG_STACK) console.log(`  [own stack] ${line}`);
};

async function localShop(): Promise<Started> {
  const shop = await startLocalShop({
    port: 0,
    dynamoPort: 0,
    sesPort: 0,
    simulatorPort: 0,
    dataDir: undefined,
    webRoot: resolve('dist/web'),
    stripe: undefined,
    stripeSignsOnHostClock: true,
    settingsMaxAgeMs: STACK_SETTINGS_MAX_AGE_MS,
    log: quiet,
  });
  return {
    shopUrl: shop.url,
    dynamoUrl: shop.dynamoUrl,
    sesUrl: shop.sesUrl,
    simulatorUrl: shop.simulator?.url ?? '',
    tableName: 'live-aquatics-orders',
    merchantEmail: 'merchant@live-aquatics.test',
    orderPageSecret: LOCAL_ORDER_PAGE_SECRET,
    webhookSecret: 'whsec_local_simulator',
    close: () => shop.close(),
  };
}

async function rehearsal(): Promise<Started> {
  const denied: string[] = [];
  const assemblyDir = process.env.REHEARSE_ASSEMBLY || (await testStage()).dir;
  const running = await startRehearsal({
    assemblyDir: resolve(assemblyDir),
    port: 0,
    dynamoPort: 0,
    sesPort: 0,
    simulatorPort: 0,
    identityProviderPort: 0,
    extensionPort: 0,
    viewerPerConnection: true,
    stripeSignsOnHostClock: true,
    settingsMaxAgeMs: STACK_SETTINGS_MAX_AGE_MS,
    log: (line) => {
      if (line.includes('AccessDenied')) denied.push(line);
      quiet(line);
    },
  });
  return {
    shopUrl: running.url,
    dynamoUrl: running.dynamoUrl,
    sesUrl: running.sesUrl,
    simulatorUrl: running.simulator.url,
    tableName: running.ordersTableName,
    merchantEmail: running.merchantEmail,
    orderPageSecret: running.secretValue('OrderPageSecret') ?? '',
    webhookSecret: 'whsec_rehearsal',
    async close() {
      await running.close();
      // A call a role does not allow would fail in AWS: the spec fails with it, as the suite's would.
      if (denied.length > 0) throw new Error(`The rehearsal refused calls:\n${denied.join('\n')}`);
    },
  };
}
