import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileOrders } from '../../lambdas/domain/reconcile/reconcile-orders';
import { createCheckoutHandler, loadCheckoutDeps } from '../../lambdas/handlers/create-checkout/handler';
import { PUBLIC_API_ROUTES } from '../../shared/public-routes';
import { apiGatewayEvent } from '../support/api-gateway-event';
import { TEST_SHOP_ID } from '../support/shop';
import { standInEnvironment } from '../support/stand-ins';
import { type OpsHarness, startOpsHarness } from './harness';

let h: OpsHarness;
beforeAll(async () => {
  h = await startOpsHarness();
});
afterAll(async () => {
  await h?.close();
});

/** An order request through create-checkout in requests mode, configured as the stack configures it. */
async function requestOrder(email: string): Promise<string> {
  const checkout = createCheckoutHandler(() =>
    loadCheckoutDeps({
      STRIPE_LIVEMODE: 'false',
      STRIPE_SECRET_KEY: 'sk_test_sender_identity',
      STRIPE_API_BASE: h.shop.simulator.url,
      SITE_URL: 'http://shop.test',
      SHOP_ID: TEST_SHOP_ID,
      ...standInEnvironment(h.shop.standIns),
    }),
  );
  const answer = await checkout(
    apiGatewayEvent({
      method: 'POST',
      path: PUBLIC_API_ROUTES.createCheckout.path,
      headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: {
        name: 'Rhea Request',
        email,
        phone: '07700 900456',
        address: '3 Reed Row\nBath',
        postcode: 'ba1 1aa',
        quantity: 6,
        subtotal: 19.5,
        shipping: 4.95,
        total: 24.45,
      },
    }),
  );
  expect(answer.statusCode).toBe(200);
  const item = (await h.shop.standIns.orderItems()).find((i) => i.customerEmail === email);
  return String(item?.reference);
}

/** Subjects of the messages to `address`, sorted. */
async function subjectsTo(address: string): Promise<string[]> {
  return (await h.emailsTo(address)).map((email) => email.subject).sort();
}

// Every path that sends the shop's email builds its sender with shopEmailIdentity, from the same
// stage settings; the webhook, the reconciler and create-checkout are set up here as the stack sets
// them (SELLER_NAME "Live Aquatics Ltd", SES_FROM_ADDRESS orders@live-aquatics.test), the
// operator's commands as `npm run orders -- … --local` reads them.
describe("every email the shop sends comes from the shop's address under the seller's name", () => {
  it('whichever path sends it: webhook, reconciler, create-checkout, operator commands', async () => {
    // The webhook: a paid checkout's confirmation and the merchant's notice.
    const viaWebhook = await h.shop.paidSession({ customer: { email: 'webhook.paid@example.com' } });
    const delivered = await h.shop.webhook(
      h.shop.delivery(await h.shop.eventFor('checkout.session.completed', viaWebhook.id)),
    );
    expect(delivered.statusCode).toBe(200);

    // The reconciler: a paid checkout whose webhook never came.
    await h.shop.paidSession({ customer: { email: 'reconciled.paid@example.com' } });
    await reconcileOrders(h.shop.deps);

    // create-checkout in requests mode: the merchant's notice.
    expect((await h.orders(['pause', '--requests', '--local'])).code).toBe(0);
    const declined = await requestOrder('declined.request@example.com');
    const invited = await requestOrder('invited.request@example.com');
    expect((await h.orders(['resume', '--local'])).code).toBe(0);

    // The operator's commands: decline, payment link, dispatch, refund, delay.
    expect((await h.orders(['decline', declined, '--local'])).code).toBe(0);
    expect((await h.orders(['request-payment', invited, '--local'])).code).toBe(0);
    const shipped = await h.paidOrder({ customer: { email: 'dispatched.paid@example.com' } });
    expect((await h.orders(['mark-dispatched', shipped.reference, '--local'])).code).toBe(0);
    const refunded = await h.paidOrder({ customer: { email: 'refunded.paid@example.com' } });
    expect((await h.orders(['refund', refunded.reference, '--reason', 'other', '--local'])).code).toBe(0);
    // Paid on Tuesday 5 January 2027 (dispatch Monday 11 January, a day no real-clock order above
    // reaches); delayed on the Saturday.
    const delayed = await h.orderPaidAt(new Date('2027-01-05T10:00:00Z'), 901);
    h.setNow(new Date('2027-01-09T09:00:00Z'));
    const delay = await h.orders([
      'delay',
      '--dispatch',
      '2027-01-11',
      '--to',
      '2027-01-12',
      '--reason',
      'weather',
      '--local',
    ]);
    h.setNow(undefined);
    expect(delay.code).toBe(0);

    // Each path sent its email...
    const confirmed = /^Live Aquatics Ltd: order \w{12} confirmed \(3 bottles of Daphnia Magna\)$/;
    expect(await subjectsTo('webhook.paid@example.com')).toEqual([expect.stringMatching(confirmed)]);
    expect(await subjectsTo('reconciled.paid@example.com')).toEqual([expect.stringMatching(confirmed)]);
    // A request itself emails the customer nothing; the merchant's answer does.
    expect(await subjectsTo('declined.request@example.com')).toEqual([
      `Live Aquatics Ltd: order request ${declined}`,
    ]);
    expect(await subjectsTo('invited.request@example.com')).toEqual([
      `Live Aquatics Ltd: pay for your order request ${invited}`,
    ]);
    expect(await subjectsTo('dispatched.paid@example.com')).toEqual([
      `Live Aquatics Ltd: order ${shipped.reference} confirmed (3 bottles of Daphnia Magna)`,
      `Live Aquatics Ltd: your order ${shipped.reference} is on its way`,
    ]);
    expect(await subjectsTo('refunded.paid@example.com')).toEqual([
      `Live Aquatics Ltd: order ${refunded.reference} confirmed (3 bottles of Daphnia Magna)`,
      `Live Aquatics Ltd: refund for order ${refunded.reference}`,
    ]);
    expect(await subjectsTo(delayed.customerEmail)).toEqual([
      `Live Aquatics Ltd: new dispatch date for order ${delayed.reference}: Tuesday 12 January`,
    ]);
    expect(await subjectsTo('merchant@live-aquatics.test')).toEqual(
      expect.arrayContaining([`Order request ${declined}: 6 bottles (not paid)`]),
    );

    // ...and all of them, the merchant's included, under one identity.
    const senders = new Set((await h.shop.standIns.emails()).map((email) => email.from));
    expect([...senders]).toEqual(['"Live Aquatics Ltd" <orders@live-aquatics.test>']);
  });
});
