import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import webPush from 'web-push';
import {
  readPushSubscriptions,
  removePushSubscription,
  savePushSubscription,
} from '../../../../lambdas/domain/storage/push-subscriptions';
import { type PushStandIn, startPushStandIn } from '../../../../local/push-stand-in';
import { orderReference } from '../../../../shared/checkout-status';
import { createCheckoutSession } from '../../../support/checkout-sessions';
import { type FulfilmentHarness, startFulfilmentHarness } from '../../../support/fulfilment-harness';
import {
  makeGone,
  pushesFor,
  type TestSubscription,
  testSubscription,
} from '../../../support/push-subscriber';

// The merchant's Web Push (ADR 0056): each new paid order and failed debit pushes once to every
// subscribed device, through the push-service stand-in, encrypted to the device's own keys; a
// replayed webhook pushes nothing more; a device the push service calls gone is forgotten; a push
// service that fails never fails the webhook.
describe('the merchant’s notifications from the webhook', () => {
  let h: FulfilmentHarness;
  let push: PushStandIn;
  const vapid = webPush.generateVAPIDKeys();

  beforeAll(async () => {
    push = await startPushStandIn(0);
    h = await startFulfilmentHarness({
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      PUSH_LOCAL_ORIGIN: push.url,
    });
  });
  afterAll(async () => {
    await Promise.all([h.close(), push.close()]);
  });
  beforeEach(async () => {
    for (const device of await readPushSubscriptions(h.deps.table))
      await removePushSubscription(h.deps.table, device.id);
  });

  async function subscribe(device: TestSubscription, merchant = 'merchant-1') {
    const { endpoint, p256dh, auth } = device;
    await savePushSubscription(h.deps.table, { merchant, endpoint, p256dh, auth }, new Date());
  }

  /** The pushes a device received, read back with its own keys. */
  async function readPushes(device: TestSubscription) {
    return (await pushesFor(push.url, device.id)).map((recorded) => ({
      ...recorded,
      message: JSON.parse(device.decrypt(recorded.body)) as Record<string, unknown>,
    }));
  }

  it('a paid order pushes once to each device, within 10 s, decrypting to its reference and /admin?order=…; a replay pushes nothing more', async () => {
    // Prepare
    const phone = testSubscription(push.url);
    const laptop = testSubscription(push.url);
    await subscribe(phone);
    await subscribe(laptop, 'merchant-2');
    const session = await h.paidSession();
    const reference = orderReference(session.id);
    const payload = await h.eventFor('checkout.session.completed', session.id);

    // Act
    const started = Date.now();
    const first = await h.webhook(h.delivery(payload));
    const tookMs = Date.now() - started;
    const replay = await h.webhook(h.delivery(payload));

    // Assess
    expect(first.statusCode).toBe(200);
    expect(replay.statusCode).toBe(200);
    expect(tookMs).toBeLessThan(10_000);
    for (const device of [phone, laptop]) {
      const pushes = await readPushes(device);
      expect(pushes).toHaveLength(1);
      expect(pushes[0]?.message).toMatchObject({
        kind: 'order',
        title: 'New order',
        reference,
        url: `/admin?order=${reference}`,
      });
      expect(String(pushes[0]?.message.body)).toMatch(new RegExp(`^${reference}: \\d bottles, £`));
      // Signed with the stage's key, kept a day, urgent.
      expect(pushes[0]?.vapidKey).toBe(vapid.publicKey);
      expect(pushes[0]?.ttl).toBe(86_400);
      expect(pushes[0]?.urgency).toBe('high');
    }
    // The notice email still goes.
    expect((await h.emailsFor(session.id)).merchantNotice).toHaveLength(1);
  });

  it('a device the push service answers 410 for is removed; the others still get the push', async () => {
    // Prepare
    const gone = testSubscription(push.url);
    const kept = testSubscription(push.url);
    await subscribe(gone);
    await subscribe(kept);
    await makeGone(push.url, gone.id);
    const session = await h.paidSession();

    // Act
    const result = await h.webhook(h.delivery(await h.eventFor('checkout.session.completed', session.id)));

    // Assess
    expect(result.statusCode).toBe(200);
    expect(await readPushes(gone)).toEqual([]);
    expect(await readPushes(kept)).toHaveLength(1);
    const left = (await readPushSubscriptions(h.deps.table)).map((device) => device.endpoint);
    expect(left).toEqual([kept.endpoint]);
  });

  it('a failed Direct Debit pushes once, to /admin?order=<its reference>', async () => {
    // Prepare
    const device = testSubscription(push.url);
    await subscribe(device);
    const session = await createCheckoutSession(h.stripe);
    await h.simulator.completeSession(session.id, { paymentStatus: 'unpaid' });
    await h.simulator.settleAsyncPayment(session.id, 'failed');
    const reference = orderReference(session.id);
    const payload = await h.eventFor('checkout.session.async_payment_failed', session.id);

    // Act
    await h.webhook(h.delivery(payload));
    await h.webhook(h.delivery(payload));

    // Assess
    const pushes = await readPushes(device);
    expect(pushes.map((p) => p.message)).toEqual([
      {
        kind: 'failedDebit',
        title: 'Direct Debit failed',
        reference,
        body: `${reference}: the bank refused the Direct Debit; no order was made`,
        url: `/admin?order=${reference}`,
      },
    ]);
  });

  it('a push service that does not answer never fails the webhook: 200, the order and its emails', async () => {
    // Prepare: a device whose push service is on a port nobody listens on.
    const silent = testSubscription('http://127.0.0.1:9');
    await savePushSubscription(
      h.deps.table,
      { merchant: 'merchant-1', endpoint: silent.endpoint, p256dh: silent.p256dh, auth: silent.auth },
      new Date(),
    );
    const session = await h.paidSession();

    // Act
    const result = await h.webhook(h.delivery(await h.eventFor('checkout.session.completed', session.id)));

    // Assess
    expect(result.statusCode).toBe(200);
    expect(await h.counts(session.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
  });
});
