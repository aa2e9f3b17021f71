import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCapacitySettings } from '../../../../lambdas/domain/storage/settings-store';
import {
  createCheckoutHandler,
  loadCheckoutDeps,
} from '../../../../lambdas/handlers/create-checkout/handler';
import { type StandIns, startStandIns } from '../../../support/stand-ins';
import { checkoutEnvironment, checkoutEvent, type Harness, startHarness, validOrder } from './harness';

// Issue 47: a checkout's storage in at most 3 DynamoDB round trips (ADR 0052). Counted on the
// wire: a proxy in front of dynalite names each request the handler's client sends.

let h: Harness;
let standIns: StandIns;
let proxy: Server;
const seen: string[] = [];

/** Forwards every request to dynalite, noting its operation (`X-Amz-Target`). */
function countingProxy(target: string): Promise<Server> {
  const { hostname, port } = new URL(target);
  const server = createServer((req, res) => {
    seen.push(String(req.headers['x-amz-target'] ?? '').replace('DynamoDB_20120810.', ''));
    const forward = httpRequest(
      { hostname, port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 500, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  h = await startHarness();
  standIns = await startStandIns();
  proxy = await countingProxy(standIns.dynamoEndpoint);
  // Limits on, so the reservation's conditions are the real ones.
  await writeCapacitySettings(
    { client: standIns.inspector, tableName: standIns.tableName },
    { weekly: 60 },
    new Date(),
  );
});
afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await standIns?.close();
  await h?.close();
});

async function countedCheckout(handler: ReturnType<typeof createCheckoutHandler>, viewer: string) {
  seen.length = 0;
  const result = await handler(
    checkoutEvent({
      headers: { 'idempotency-key': randomUUID(), 'cloudfront-viewer-address': `${viewer}:51234` },
      body: { ...validOrder, email: `round.trips.${randomUUID().slice(0, 8)}@example.com` },
    }),
  );
  return { statusCode: result.statusCode, calls: [...seen] };
}

describe('create-checkout storage round trips', () => {
  it('a cold container: the settings read, the reservation with both client counts, the session record: 3', async () => {
    const port = (proxy.address() as AddressInfo).port;
    const env = { ...checkoutEnvironment(h, standIns), DYNAMODB_ENDPOINT: `http://127.0.0.1:${port}` };
    const handler = createCheckoutHandler(() => loadCheckoutDeps(env));

    const cold = await countedCheckout(handler, '198.51.100.40');
    const warm = await countedCheckout(handler, '198.51.100.41');

    expect(cold.statusCode).toBe(200);
    expect(cold.calls).toEqual(['GetItem', 'TransactWriteItems', 'TransactWriteItems']);
    expect(cold.calls.length).toBeLessThanOrEqual(3);
    // Warm: the settings come from the container's cache (checked inside the reservation's transaction).
    expect(warm.statusCode).toBe(200);
    expect(warm.calls).toEqual(['TransactWriteItems', 'TransactWriteItems']);
    expect(warm.calls.length).toBeLessThanOrEqual(3);
  });
});
