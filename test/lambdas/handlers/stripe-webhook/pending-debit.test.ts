import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCheckoutStatus } from '../../../../lambdas/domain/checkout/get-checkout-status';
import { recordPendingDebit } from '../../../../lambdas/domain/fulfilment/pending-debit';
import { newPageKey, orderPageKeys, readOrderPageToken } from '../../../../lambdas/domain/order-page-token';
import { reconcileOrders } from '../../../../lambdas/domain/reconcile/reconcile-orders';
import { readPendingDebit, takePendingPageKey } from '../../../../lambdas/domain/storage/debit-records';
import { orderReference } from '../../../../shared/checkout-status';
import { formatDispatchDate } from '../../../../shared/dispatch';
import { jsonBody } from '../../../support/api-gateway-event';
import { injectAwsFault } from '../../../support/aws-faults';
import { createCheckoutSession } from '../../../support/checkout-sessions';
import {
  type FulfilmentHarness,
  MERCHANT_EMAIL,
  ORDER_PAGE_SECRET,
  startFulfilmentHarness,
} from '../../../support/fulfilment-harness';
import { TEST_SHOP_ID } from '../../../support/shop';

/** Words that would say the money arrived or the order is confirmed: never in the waiting email. */
const MONEY_ARRIVED =
  /received your payment|payment (is|was) (received|successful)|order is confirmed|Total paid/i;

// A Bacs Direct Debit still with the bank: the customer hears at once, once (however often the
// completed event comes, and when only the reconciler finds the session), with the order page's
// link; when the bank pays, the order keeps that link and the day the email and success page gave.
describe('a delayed payment waiting for the bank', () => {
  let h: FulfilmentHarness;
  const keys = orderPageKeys(ORDER_PAGE_SECRET);

  beforeAll(async () => {
    h = await startFulfilmentHarness();
  });
  afterAll(() => h.close());

  /** A checkout completed by Direct Debit, the debit not collected yet. */
  async function pendingDebit() {
    const session = await createCheckoutSession(h.stripe);
    await h.simulator.completeSession(session.id, { paymentStatus: 'unpaid' });
    return session;
  }

  async function customerEmails(sessionId: string) {
    const reference = orderReference(sessionId);
    return (await h.standIns.emails()).filter(
      (email) => email.subject.includes(reference) && !email.destination.to.includes(MERCHANT_EMAIL),
    );
  }

  /** The order page address in an email's text part. */
  function linkIn(text: string | undefined): string | undefined {
    return /View your order: (https:\/\/shop\.test\/order\/[A-Za-z0-9_-]+)/.exec(text ?? '')?.[1];
  }

  it('completed unpaid: one email at once, word for word, with the order page link; a replay sends nothing more', async () => {
    // Prepare
    const session = await pendingDebit();
    const reference = orderReference(session.id);
    const payload = await h.eventFor('checkout.session.completed', session.id);
    const status = await getCheckoutStatus(session.id, { stripe: h.stripe, shopId: TEST_SHOP_ID });

    // Act
    const first = await h.webhook(h.delivery(payload));
    const replay = await h.webhook(h.delivery(payload));

    // Assess
    expect([first.statusCode, replay.statusCode]).toEqual([200, 200]);
    expect(jsonBody(first)).toEqual({ received: true, outcome: 'not-paid' });
    expect(await h.ordersFor(session.id)).toEqual([]);
    const emails = await customerEmails(session.id);
    expect(emails).toHaveLength(1);
    const [email] = emails;
    expect(email?.destination.to).toEqual([session.customer_email]);
    expect(email?.replyTo).toEqual(['hello@live-aquatics.test']);
    expect(email?.subject).toBe(`Live Aquatics Ltd: order ${reference} received, waiting for your bank`);
    const link = linkIn(email?.body.text);
    const day = formatDispatchDate(status.dispatchDate);
    expect(email?.body.text).toBe(`Live Aquatics
=============

Hello Zoë Brontë,

Thank you for your order from Live Aquatics Ltd. We have received your order ${reference} and your Direct Debit instruction, and we are now waiting for your bank. A Bacs Direct Debit takes up to 7 working days to be collected; nothing is confirmed until your bank has paid.

Order reference: ${reference}
Item: 3 × 250ml bottles of Daphnia Magna (live)
Total: £14.70 (to be collected by Direct Debit)
Dispatch if your bank pays: ${day}

We are holding your bottles. If your bank pays, we dispatch your order on ${day} by Royal Mail 1st Class and email you a confirmation. If your bank turns the Direct Debit down, we email you too: nothing is taken and the order is cancelled. You do not need to do anything or order again.

View your order: ${link}

Contact us
----------

Live Aquatics is sold by Live Aquatics Ltd. Questions about your order? Reply to this email or write to hello@live-aquatics.test.

Seller: Live Aquatics Ltd
Address: 1 Pond Lane
  Bristol BS1 4DJ
Email: hello@live-aquatics.test
Company number: 01234567
`);
    expect(email?.body.text).not.toMatch(MONEY_ARRIVED);
    expect(email?.body.html).not.toMatch(MONEY_ARRIVED);
    // The link names this session and the record's page key: the key the order will take.
    const claim = readOrderPageToken(String(link?.split('/order/')[1]), keys);
    const record = await readPendingDebit(h.deps.table, session.id);
    expect(claim).toEqual({ sessionId: session.id, pageKey: record?.pageKey });
    expect(record).toMatchObject({ status: 'pending', debitPendingEmailState: 'sent' });
    // Nothing to the merchant until there is an order to pack.
    const merchant = (await h.standIns.emails()).filter(
      (message) => message.subject.includes(reference) && message.destination.to.includes(MERCHANT_EMAIL),
    );
    expect(merchant).toEqual([]);
  });

  it('five concurrent deliveries: one email', async () => {
    // Prepare
    const session = await pendingDebit();
    const payload = await h.eventFor('checkout.session.completed', session.id);

    // Act
    const results = await Promise.all(Array.from({ length: 5 }, () => h.webhook(h.delivery(payload))));

    // Assess
    expect(results.map((result) => result.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(await customerEmails(session.id)).toHaveLength(1);
  });

  it('SES failing: 500, so Stripe retries, and the retry sends the one email', async () => {
    // Prepare
    const session = await pendingDebit();
    const payload = await h.eventFor('checkout.session.completed', session.id);
    const fault = injectAwsFault(h.clients.ses, { command: 'SendEmailCommand', when: 'before' });

    // Act
    const failed = await h.webhook(h.delivery(payload));
    fault.remove();
    const retried = await h.webhook(h.delivery(payload));

    // Assess
    expect([failed.statusCode, retried.statusCode]).toEqual([500, 200]);
    expect(await customerEmails(session.id)).toHaveLength(1);
  });

  it('when the bank pays: the order keeps the link and the day the email and the success page gave', async () => {
    // Prepare
    const session = await pendingDebit();
    const waiting = await getCheckoutStatus(session.id, { stripe: h.stripe, shopId: TEST_SHOP_ID });
    await h.webhook(h.delivery(await h.eventFor('checkout.session.completed', session.id)));
    const [told] = await customerEmails(session.id);
    await h.simulator.settleAsyncPayment(session.id, 'succeeded');

    // Act
    const paid = await h.webhook(
      h.delivery(await h.eventFor('checkout.session.async_payment_succeeded', session.id)),
    );

    // Assess
    expect(jsonBody(paid)).toMatchObject({ outcome: 'fulfilled' });
    const [order] = await h.ordersFor(session.id);
    const record = await readPendingDebit(h.deps.table, session.id);
    expect(order?.pageKey).toBe(record?.pageKey);
    expect(record?.status).toBe('recorded');
    const emails = await customerEmails(session.id);
    expect(emails).toHaveLength(2);
    const confirmation = emails.find((email) => email.subject.includes('confirmed'));
    // One link from the first email on, and one day: the success page's, the waiting email's, the order's.
    expect(linkIn(confirmation?.body.text)).toBe(linkIn(told?.body.text));
    const day = formatDispatchDate(waiting.dispatchDate);
    expect(order?.dispatchDate).toBe(waiting.dispatchDate);
    expect(told?.body.text).toContain(`Dispatch if your bank pays: ${day}\n`);
    expect(confirmation?.body.text).toContain(`Planned dispatch: ${day}\n`);
    expect(confirmation?.body.text).not.toContain('shown at checkout');
    expect(confirmation?.body.text).not.toContain('expected at checkout');
  });

  it('when the completed event never arrives, the reconciler sends it once; its next run and a late event send nothing more', async () => {
    // Prepare
    const session = await pendingDebit();

    // Act
    const firstRun = await reconcileOrders(h.deps);
    const secondRun = await reconcileOrders(h.deps);
    const late = await h.webhook(h.delivery(await h.eventFor('checkout.session.completed', session.id)));

    // Assess
    expect(firstRun.pendingDebitsTold).toBeGreaterThanOrEqual(1);
    expect(secondRun.pendingDebitsTold).toBe(0);
    expect(late.statusCode).toBe(200);
    const emails = await customerEmails(session.id);
    expect(emails.map((email) => email.subject)).toEqual([
      `Live Aquatics Ltd: order ${orderReference(session.id)} received, waiting for your bank`,
    ]);
  });

  it('an order recorded before the pending path ran: no waiting email, and the order keeps the key it took', async () => {
    // Prepare: the order's path took the record's key first (as fulfilment does for a delayed payment).
    const session = await pendingDebit();
    const orderKey = await takePendingPageKey(h.deps.table, session.id, h.deps.now(), newPageKey());

    // Act
    const result = await recordPendingDebit(session.id, h.deps);

    // Assess
    expect(result).toEqual({ outcome: 'order-recorded', reference: undefined });
    expect((await readPendingDebit(h.deps.table, session.id))?.pageKey).toBe(orderKey);
    expect(await customerEmails(session.id)).toEqual([]);
  });

  it('a card payment and a failed debit get no waiting email; a session not ours is not read', async () => {
    // Prepare
    const card = await h.paidSession();
    const failed = await pendingDebit();
    await h.simulator.settleAsyncPayment(failed.id, 'failed');
    const other = await createCheckoutSession(h.stripe, { notOurs: true });
    await h.simulator.completeSession(other.id, { paymentStatus: 'unpaid' });

    // Act
    const results = await Promise.all(
      [card, failed, other].map((session) => recordPendingDebit(session.id, h.deps)),
    );

    // Assess
    expect(results).toEqual([
      { outcome: 'not-pending' },
      { outcome: 'not-pending' },
      { outcome: 'not-ours' },
    ]);
    expect(await readPendingDebit(h.deps.table, failed.id)).toBeUndefined();
    expect(await customerEmails(failed.id)).toEqual([]);
  });
});
