import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { test as base } from '@playwright/test';
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

/** Playwright's test with `baseURL` pointing at the stack the global setup started, and that stack. */
export const test = base.extend<{ stack: Stack }>({
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
