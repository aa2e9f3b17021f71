import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCheckoutStatus } from '../../../../lambdas/domain/checkout/get-checkout-status';
import { newPageKey, orderPageKeys, orderPageToken } from '../../../../lambdas/domain/order-page-token';
import { createOrderPageHandler, loadOrderPageDeps } from '../../../../lambdas/handlers/order-page/handler';
import { orderReference } from '../../../../shared/checkout-status';
import { formatDispatchDate } from '../../../../shared/dispatch';
import { apiGatewayEvent, jsonBody } from '../../../support/api-gateway-event';
import { createCheckoutSession } from '../../../support/checkout-sessions';
import {
  type FulfilmentHarness,
  MERCHANT_EMAIL,
  ORDER_PAGE_SECRET,
  SITE_URL,
  startFulfilmentHarness,
} from '../../../support/fulfilment-harness';
import { TEST_SHOP_ID } from '../../../support/shop';
import { STAND_IN_REGION } from '../../../support/stand-ins';

// The link in the "waiting for your bank" email: the page says so until the bank pays, then shows
// the order with the same link; a debit the bank refused says that (ADR 0047).
describe('the order page of a Direct Debit', () => {
  let h: FulfilmentHarness;

  beforeAll(async () => {
    h = await startFulfilmentHarness();
  });
  afterAll(() => h.close());

  async function handler() {
    return createOrderPageHandler(
      await loadOrderPageDeps({
        ORDERS_TABLE_NAME: h.standIns.tableName,
        DYNAMODB_ENDPOINT: h.standIns.dynamoEndpoint,
        SES_ENDPOINT: h.standIns.sesEndpoint,
        AWS_REGION: STAND_IN_REGION,
        SES_FROM_ADDRESS: 'orders@live-aquatics.test',
        MERCHANT_EMAIL,
        SELLER_NAME: 'Live Aquatics Ltd',
        SELLER_ADDRESS: '1 Pond Lane\nBristol BS1 4DJ',
        SELLER_EMAIL: 'hello@live-aquatics.test',
        SITE_URL,
        ORDER_PAGE_SECRET,
        // The standing order's changes call Stripe (ADR 0059).
        STRIPE_LIVEMODE: 'false',
        STRIPE_SECRET_KEY: 'sk_test_order_page',
        STRIPE_API_BASE: h.simulator.url,
        SHOP_ID: TEST_SHOP_ID,
      }),
    );
  }

  const view = (token: string) =>
    apiGatewayEvent({ method: 'GET', path: '/functions/v1/order-page', queryStringParameters: { token } });

  /** A debit with the bank, told by the real webhook, and the token its email links to. */
  async function waitingDebit() {
    const session = await createCheckoutSession(h.stripe);
    await h.simulator.completeSession(session.id, { paymentStatus: 'unpaid' });
    const status = await getCheckoutStatus(session.id, { stripe: h.stripe, shopId: TEST_SHOP_ID });
    await h.webhook(h.delivery(await h.eventFor('checkout.session.completed', session.id)));
    const [waiting] = (await h.emailsFor(session.id)).confirmation;
    const token = /https:\/\/shop\.test\/order\/([A-Za-z0-9_-]+)/.exec(waiting?.body.text ?? '')?.[1];
    if (token === undefined) throw new Error('the waiting email has no order page link');
    return { session, token, dispatchDate: status.dispatchDate };
  }

  it('waiting for the bank, then the order with the same link once the bank pays', async () => {
    // Prepare
    const { session, token, dispatchDate } = await waitingDebit();
    const page = await handler();

    // Act
    const waiting = await page(view(token));
    await h.simulator.settleAsyncPayment(session.id, 'succeeded');
    await h.webhook(h.delivery(await h.eventFor('checkout.session.async_payment_succeeded', session.id)));
    const paid = await page(view(token));

    // Assess
    expect(waiting.statusCode).toBe(200);
    expect(waiting.headers?.['referrer-policy']).toBe('no-referrer');
    expect(jsonBody(waiting)).toEqual({
      status: 'awaiting-payment',
      reference: orderReference(session.id),
      customerName: 'Zoë Brontë',
      item: '3 × 250ml bottles of Daphnia Magna (live)',
      totalPence: 1470,
      dispatchDate: formatDispatchDate(dispatchDate),
      seller: {
        name: 'Live Aquatics Ltd',
        email: 'hello@live-aquatics.test',
        address: '1 Pond Lane\nBristol BS1 4DJ',
      },
    });
    expect(paid.statusCode).toBe(200);
    expect(jsonBody(paid)).toMatchObject({
      status: 'paid',
      reference: orderReference(session.id),
      totalPence: 1470,
      timeline: expect.arrayContaining([
        { title: `Dispatch planned for ${formatDispatchDate(dispatchDate)}`, detail: expect.any(String) },
      ]),
    });
  });

  it('a debit the bank refused: the same link says so', async () => {
    // Prepare
    const { session, token } = await waitingDebit();
    await h.simulator.settleAsyncPayment(session.id, 'failed');
    await h.webhook(h.delivery(await h.eventFor('checkout.session.async_payment_failed', session.id)));

    // Act
    const result = await (await handler())(view(token));

    // Assess
    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toMatchObject({
      status: 'payment-failed',
      reference: orderReference(session.id),
    });
  });

  it('a genuine token of the session under another page key than the record’s: the one plain 404', async () => {
    // Prepare
    const { session } = await waitingDebit();
    const forged = orderPageToken(session.id, newPageKey(), orderPageKeys(ORDER_PAGE_SECRET));

    // Act
    const result = await (await handler())(view(forged));

    // Assess
    expect(result.statusCode).toBe(404);
    expect(jsonBody(result)).toEqual({ error: 'Not found.' });
  });
});
