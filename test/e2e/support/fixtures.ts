import { setTimeout } from 'node:timers/promises';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { test as base } from '@playwright/test';
import { msClearOfDayChange } from './day-change';
import { stackUrls } from './stack';

export interface StoredEmail {
  subject: string;
  from: string;
  destination: { to: string[] };
  body: { html?: string; text?: string };
}

export interface Stack {
  shopUrl: string;
  dynamo: DynamoDBClient;
  /** The orders table the stack's functions use. */
  tableName: string;
  /** The address the merchant's notices go to. */
  merchantEmail: string;
  /** The secret the stack's functions seal order page links with. */
  orderPageSecret: string;
  /** Every email the SES stand-in holds for this address, oldest first. */
  emailsTo(address: string): Promise<StoredEmail[]>;
}

/** Longer than any one test takes, even on a loaded machine: how far ahead a test must be clear of a change of day. */
const DAY_CHANGE_MARGIN_MS = 90_000;

/**
 * Playwright's test with `baseURL` pointing at the stack the global setup started, and that stack. Every test
 * starts clear of a change of day (midnight, the weekly cut-off) by waiting past one that is near.
 */
export const test = base.extend<{ stack: Stack; clearOfDayChange: undefined }>({
  clearOfDayChange: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; these have none.
    async ({}, use, testInfo) => {
      const wait = msClearOfDayChange(Date.now(), DAY_CHANGE_MARGIN_MS);
      if (wait > 0) {
        testInfo.setTimeout(testInfo.timeout + wait);
        await setTimeout(wait);
      }
      await use(undefined);
    },
    { auto: true },
  ],
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; these have none.
  baseURL: async ({}, use) => {
    await use(stackUrls().shop);
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; these have none.
  stack: async ({}, use) => {
    const urls = stackUrls();
    const dynamo = new DynamoDBClient({
      region: 'eu-west-2',
      endpoint: urls.dynamo,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    await use({
      shopUrl: urls.shop,
      dynamo,
      tableName: urls.table,
      merchantEmail: urls.merchantEmail,
      orderPageSecret: urls.orderPageSecret,
      async emailsTo(address) {
        const store = (await (await fetch(`${urls.ses}/store`)).json()) as { emails: StoredEmail[] };
        return store.emails.filter((email) => email.destination.to.includes(address));
      },
    });
    dynamo.destroy();
  },
});

export { expect } from '@playwright/test';
