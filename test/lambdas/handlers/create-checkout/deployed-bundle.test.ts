import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeShopSettings } from '../../../../lambdas/domain/storage/settings-store';
import { jsonBody } from '../../../support/api-gateway-event';
import { bundleAsDeployed } from '../../../support/bundle';
import { type StandIns, startStandIns } from '../../../support/stand-ins';
import { checkoutEnvironment, checkoutEvent, type Harness, startHarness, validOrder } from './harness';

// create-checkout as the stack deploys it: index.mjs and its chunks, run as Lambda runs it (the
// environment read at the first request). Its requests-mode code is reached through an import()
// that esbuild resolves inside the bundle: this is the test that fails if that load breaks.

type Handler = (
  event: APIGatewayProxyEventV2,
) => Promise<APIGatewayProxyResultV2 & { statusCode: number; body: string }>;

let harness: Harness;
let standIns: StandIns;
let file: string;
let dir: string;
const savedEnv = { ...process.env };

beforeAll(async () => {
  [harness, standIns] = await Promise.all([startHarness(), startStandIns()]);
  dir = mkdtempSync(join(tmpdir(), 'create-checkout-bundle-'));
  file = join(dir, 'index.mjs');
  await bundleAsDeployed('lambdas/handlers/create-checkout/handler.ts', dir);
  Object.assign(process.env, checkoutEnvironment(harness, standIns));
}, 60_000);

/** The bundle in a new module instance, as a new container loads it: nothing cached yet. */
async function freshContainer(): Promise<Handler> {
  const module = (await import(`${pathToFileURL(file).href}?container=${randomUUID()}`)) as {
    handler: Handler;
  };
  return module.handler;
}

afterAll(async () => {
  process.env = savedEnv;
  rmSync(dir, { recursive: true, force: true });
  await standIns?.close();
  await harness?.close();
});

describe('create-checkout, bundled as deployed', () => {
  it('open: creates a payment page', async () => {
    const handler = await freshContainer();

    const result = await handler(checkoutEvent());

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toMatchObject({
      url: expect.stringMatching(/^http/),
      sessionId: expect.stringMatching(/^cs_/),
    });
  });

  it('requests mode: loads the request writer on demand, records the request and notifies the merchant once, not the customer', async () => {
    const table = { client: standIns.inspector, tableName: standIns.tableName };
    await writeShopSettings(table, { mode: 'requests' }, new Date());
    const handler = await freshContainer();
    const email = 'bundle.request@example.com';

    const result = await handler(
      checkoutEvent({ body: { ...validOrder, email }, headers: { 'Idempotency-Key': randomUUID() } }),
    );

    expect(result.statusCode).toBe(200);
    const requests = (await standIns.orderItems()).filter((item) => item.customerEmail === email);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.pk).toMatch(/^REQUEST#R[0-9A-F]{11}$/);
    // The page shows the request's reference: the one stored.
    expect(jsonBody(result)).toEqual({ status: 'received', reference: requests[0]?.reference });
    const emails = await standIns.emails();
    expect(emails.filter((sent) => sent.destination.to.includes(email))).toHaveLength(0);
    expect(emails.filter((sent) => sent.destination.to.includes('merchant@live-aquatics.test'))).toHaveLength(
      1,
    );
  });
});
