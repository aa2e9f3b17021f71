import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCheckoutStatus } from '../../../../lambdas/domain/checkout/get-checkout-status';
import { capacityStoreFromTable } from '../../../../lambdas/domain/storage/capacity-table';
import { writeCapacitySettings, writeShopSettings } from '../../../../lambdas/domain/storage/settings-store';
import {
  createCheckoutHandler,
  loadCheckoutDeps,
} from '../../../../lambdas/handlers/create-checkout/handler';
import { PUBLIC_API_ROUTES } from '../../../../shared/public-routes';
import { apiGatewayEvent } from '../../../support/api-gateway-event';
import { type FulfilmentHarness, startFulfilmentHarness } from '../../../support/fulfilment-harness';
import { TEST_SHOP_ID } from '../../../support/shop';
import { standInEnvironment } from '../../../support/stand-ins';
import { eventPayload, stripeEvent } from '../../../support/stripe-events';

// A standing order through create-checkout as deployed: the subscription-mode session, its first
// delivery's bottles reserved as a one-off's, and the first invoice's order taking them.

let h: FulfilmentHarness;
beforeAll(async () => {
  h = await startFulfilmentHarness();
});
afterAll(() => h?.close());

async function checkout(repeat: string) {
  const env = {
    STRIPE_LIVEMODE: 'false',
    STRIPE_SECRET_KEY: 'sk_test_standing',
    STRIPE_API_BASE: h.simulator.url,
    SITE_URL: 'https://shop.test',
    SHOP_ID: TEST_SHOP_ID,
    ...standInEnvironment(h.standIns),
  };
  const result = await createCheckoutHandler(() => loadCheckoutDeps(env))(
    apiGatewayEvent({
      method: 'POST',
      path: PUBLIC_API_ROUTES.createCheckout.path,
      headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: {
        name: 'Cara Capacity',
        email: `cara.${randomUUID().slice(0, 8)}@example.com`,
        phone: '07700 900789',
        address: '4 Weir Walk\nBath',
        postcode: 'BA1 1AA',
        quantity: 3,
        subtotal: 9.75,
        shipping: 4.95,
        total: 14.7,
        repeat,
      },
    }),
  );
  return { statusCode: result.statusCode, body: JSON.parse(result.body ?? '{}') };
}

describe('create-checkout with repeat', () => {
  const table = () => ({ client: h.standIns.inspector, tableName: h.standIns.tableName });

  it('makes a subscription session at 325 and 495 pence every 2 weeks, its first day reserved; the first invoice sells them', async () => {
    const { statusCode, body } = await checkout('fortnightly');

    expect(statusCode).toBe(200);
    const session = h.simulator.getSession(body.sessionId);
    expect(session).toMatchObject({
      mode: 'subscription',
      metadata: { repeat: 'fortnightly', quantity: '3' },
    });
    const hold = session?.metadata?.capacity_hold ?? '';
    const day = session?.metadata?.dispatch_date ?? '';
    expect(hold).toMatch(/:3$/);
    expect((await capacityStoreFromTable(table()).read(day)).holds.has(hold)).toBe(true);

    await h.simulator.completeSession(body.sessionId);
    const paid = await h.stripe.checkout.sessions.retrieve(body.sessionId);
    const payload = eventPayload(
      stripeEvent('checkout.session.completed', paid, { created: h.clock.nowSeconds() }),
    );
    expect((await h.webhook(h.delivery(payload))).statusCode).toBe(200);

    const invoiceId = typeof paid.invoice === 'string' ? paid.invoice : (paid.invoice?.id ?? '');
    expect(await h.ordersFor(invoiceId)).toMatchObject([
      { totalPence: 1470, repeat: 'fortnightly', capacityHold: hold, dispatchDate: day },
    ]);
    expect(await capacityStoreFromTable(table()).read(day)).toMatchObject({ holds: new Set() });
    expect((await capacityStoreFromTable(table()).read(day)).sales.has(hold)).toBe(true);

    // The success page: paid, with the reference the first delivery's confirmation email gives.
    const status = await getCheckoutStatus(body.sessionId, { stripe: h.stripe, shopId: TEST_SHOP_ID });
    expect(status).toMatchObject({ status: 'paid', bottles: 3, total: 1470, dispatchDate: day });
    expect(status.reference).toBe(invoiceId.slice(-12));
    expect(status.reference).not.toBe(body.sessionId.slice(-12));
  });

  it('refuses a repeat while the shop takes order requests, recording no request', async () => {
    await writeShopSettings(table(), { mode: 'requests' }, new Date());
    try {
      const before = (await h.standIns.orderItems()).length;
      const { statusCode, body } = await checkout('weekly');
      expect(statusCode).toBe(409);
      expect(body.error).toBe(
        'Standing orders are not taken while the shop takes order requests. Please choose "Once" to send a request.',
      );
      expect((await h.standIns.orderItems()).length).toBe(before);
    } finally {
      await writeShopSettings(table(), { mode: 'open' }, new Date());
    }
  });

  it('says a full 8 weeks before payment, as a one-off does', async () => {
    await writeCapacitySettings(table(), { weekly: 0 }, new Date());
    const { statusCode, body } = await checkout('weekly');
    expect(statusCode).toBe(409);
    expect(body.error).toBe(
      'Sorry, every dispatch day in the next 8 weeks is fully booked. Please try again in a few days.',
    );
    await writeCapacitySettings(table(), {}, new Date());
  });
});
