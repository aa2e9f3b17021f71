import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import webPush from 'web-push';
import { recordOrderRequest } from '../../../../lambdas/domain/operations/request-actions';
import { pushToMerchants } from '../../../../lambdas/domain/push/merchant-push';
import { requestKey } from '../../../../lambdas/domain/storage/orders-table';
import {
  readPushSubscriptions,
  removePushSubscription,
  savePushSubscription,
} from '../../../../lambdas/domain/storage/push-subscriptions';
import { createPushSender } from '../../../../lambdas/lib/web-push';
import { type PushStandIn, startPushStandIn } from '../../../../local/push-stand-in';
import { pushesFor, type TestSubscription, testSubscription } from '../../../support/push-subscriber';
import { type OperationsHarness, startOperationsHarness } from '../operations/operations-harness';

// The merchant's push of an order request (ADR 0056), against dynalite and the push-service
// stand-in: once per request however often its checkout is repeated, and nothing at all (no
// claim, no read) on a stage without a VAPID pair.
let h: OperationsHarness;
let push: PushStandIn;
const vapid = webPush.generateVAPIDKeys();

beforeAll(async () => {
  [h, push] = await Promise.all([startOperationsHarness(), startPushStandIn(0)]);
});
afterAll(async () => {
  await Promise.all([h?.close(), push?.close()]);
});
beforeEach(async () => {
  for (const device of await readPushSubscriptions(h.deps.table))
    await removePushSubscription(h.deps.table, device.id);
});

const sender = () =>
  Promise.resolve(createPushSender(vapid, 'mailto:merchant@live-aquatics.test', { localOrigin: push.url }));

async function subscribe(device: TestSubscription) {
  const { endpoint, p256dh, auth } = device;
  await savePushSubscription(h.deps.table, { merchant: 'merchant-1', endpoint, p256dh, auth }, new Date());
}

const request = (email: string) => ({
  name: 'Rhea Request',
  email,
  phone: '07700 900456',
  address: '3 Reed Row\nBath',
  postcode: 'BA1 1AA',
  quantity: 3 as const,
  subtotal: 9.75,
  shipping: 4.95,
  total: 14.7,
});

describe('the merchant’s push of an order request', () => {
  it('pushes once to /admin?order=<its reference>, however often the request is repeated', async () => {
    // Prepare
    const device = testSubscription(push.url);
    await subscribe(device);
    const deps = { ...h.deps, pushSender: sender };
    const options = { idempotencyKey: 'push-request-1', cutoffHours: 36, client: '192.0.2.81' };

    // Act
    const first = await recordOrderRequest(request('rhea.push@example.com'), options, deps);
    await recordOrderRequest(request('rhea.push@example.com'), options, deps);

    // Assess
    const pushes = await pushesFor(push.url, device.id);
    expect(pushes).toHaveLength(1);
    const message = JSON.parse(device.decrypt(pushes[0]?.body ?? '')) as Record<string, unknown>;
    expect(message).toMatchObject({
      kind: 'request',
      title: 'New order request',
      reference: first.reference,
      url: `/admin?order=${first.reference}`,
    });
    expect(String(message.body)).toMatch(new RegExp(`^${first.reference}: 3 bottles requested for `));
  });

  it('a stage without a VAPID pair claims nothing, so a pair set later can still push the event once', async () => {
    // Prepare
    const device = testSubscription(push.url);
    await subscribe(device);
    const recorded = await recordOrderRequest(
      request('rhea.nokeys@example.com'),
      { idempotencyKey: 'push-request-2', cutoffHours: 36, client: '192.0.2.82' },
      { ...h.deps, pushSender: () => Promise.resolve(undefined) },
    );
    const event = {
      pk: requestKey(recorded.reference),
      kind: 'request' as const,
      reference: recorded.reference,
      detail: '3 bottles',
    };

    // Act
    const again = await pushToMerchants(event, {
      table: h.deps.table,
      pushSender: sender,
      now: () => new Date(),
    });
    const third = await pushToMerchants(event, {
      table: h.deps.table,
      pushSender: sender,
      now: () => new Date(),
    });

    // Assess
    expect(again).toEqual({ outcome: 'pushed', sent: 1, pruned: 0, failed: 0 });
    expect(third).toEqual({ outcome: 'already-pushed' });
    expect(await pushesFor(push.url, device.id)).toHaveLength(1);
  });
});
