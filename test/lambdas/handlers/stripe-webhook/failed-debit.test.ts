import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileOrders } from '../../../../lambdas/domain/reconcile/reconcile-orders';
import { orderReference } from '../../../../shared/checkout-status';
import { formatLondonTime } from '../../../../shared/dispatch';
import { jsonBody } from '../../../support/api-gateway-event';
import { injectAwsFault } from '../../../support/aws-faults';
import { createCheckoutSession } from '../../../support/checkout-sessions';
import {
  type FulfilmentHarness,
  MERCHANT_EMAIL,
  startFulfilmentHarness,
} from '../../../support/fulfilment-harness';

// A Bacs Direct Debit the bank does not pay: no order, and the customer and the merchant each get
// one email, whether async_payment_failed arrives (once, again, concurrently) or only the
// reconciler finds the session.
describe('a failed Direct Debit', () => {
  let h: FulfilmentHarness;

  beforeAll(async () => {
    h = await startFulfilmentHarness();
  });
  afterAll(() => h.close());

  /** A checkout completed by Direct Debit whose debit the bank then refused. */
  async function failedDebit(options: { uncheckedEmail?: string } = {}) {
    const session = await createCheckoutSession(h.stripe, options);
    await h.simulator.completeSession(session.id, { paymentStatus: 'unpaid' });
    await h.simulator.settleAsyncPayment(session.id, 'failed');
    return session;
  }

  async function emailsAbout(sessionId: string) {
    const reference = orderReference(sessionId);
    const emails = (await h.standIns.emails()).filter((email) => email.subject.includes(reference));
    return {
      customer: emails.filter((email) => !email.destination.to.includes(MERCHANT_EMAIL)),
      merchant: emails.filter((email) => email.destination.to.includes(MERCHANT_EMAIL)),
    };
  }

  it('async_payment_failed emails the customer and the merchant once each, word for word; a replay sends nothing more', async () => {
    // Prepare
    const session = await failedDebit();
    const reference = orderReference(session.id);
    const payload = await h.eventFor('checkout.session.async_payment_failed', session.id);

    // Act
    const first = await h.webhook(h.delivery(payload));
    const replay = await h.webhook(h.delivery(payload));

    // Assess
    expect(first.statusCode).toBe(200);
    expect(jsonBody(first)).toEqual({ received: true, outcome: 'payment-failed' });
    expect(replay.statusCode).toBe(200);
    expect(await h.ordersFor(session.id)).toEqual([]);
    const { customer, merchant } = await emailsAbout(session.id);
    expect(customer).toHaveLength(1);
    expect(merchant).toHaveLength(1);
    expect(customer[0]?.destination.to).toEqual([session.customer_email]);
    expect(customer[0]?.replyTo).toEqual(['hello@live-aquatics.test']);
    expect(customer[0]?.subject).toBe(
      `Live Aquatics Ltd: your Direct Debit for order ${reference} did not go through`,
    );
    expect(customer[0]?.body.text).toBe(`Live Aquatics
=============

Hello Zoë Brontë,

Your bank did not pay the Bacs Direct Debit for your order ${reference}, so the order is cancelled and will not be dispatched. Nothing was taken from your account and you owe us nothing.

Order reference: ${reference}
Item: 3 × 250ml bottles of Daphnia Magna (live)
Total: £14.70 (not taken)

If you would still like your Daphnia, you are welcome to order again on our shop. A card payment confirms the order at once; a new Direct Debit waits for your bank again.

Order again: https://shop.test/

Contact us
----------

Live Aquatics is sold by Live Aquatics Ltd. Questions about your order? Reply to this email or write to hello@live-aquatics.test.

Seller: Live Aquatics Ltd
Address: 1 Pond Lane
  Bristol BS1 4DJ
Email: hello@live-aquatics.test
Company number: 01234567
`);
    expect(merchant[0]?.replyTo).toEqual([session.customer_email]);
    expect(merchant[0]?.subject).toBe(`Direct Debit failed: ${reference}, 3 bottles (no order)`);
    const recorded = (await h.standIns.orderItems()).find((item) => item.pk === `FAILED_DEBIT#${session.id}`);
    const intent = String(h.simulator.getSession(session.id)?.payment_intent);
    const at = (instant: unknown) =>
      formatLondonTime(String(instant), new Date(String(recorded?.recordedAt)));
    expect(merchant[0]?.body.text).toBe(`Live Aquatics
=============

The Bacs Direct Debit for checkout ${reference} failed at the customer's bank. No order was recorded and there is nothing to pack.

The customer has been emailed that nothing was taken and how to order again. Reply to this email to reach them.

Reference: ${reference}
Was for: 3 × 250ml bottles of Daphnia Magna
Total: £14.70 (not paid)
Name: Zoë Brontë
Email: ${session.customer_email}
Phone: 07700 900123
Checkout: ${at(recorded?.checkoutCreatedAt)} (UK time)
Failed: ${at(recorded?.recordedAt)} (UK time)
Bank’s answer: The Direct Debit could not be collected from the customer’s bank account.
Stripe session: ${session.id}
Stripe payment: ${intent}

Open this payment in the Stripe Dashboard: https://dashboard.stripe.com/test/payments/${intent}
`);
  });

  it('five concurrent deliveries of the event: one email each', async () => {
    // Prepare
    const session = await failedDebit();
    const payload = await h.eventFor('checkout.session.async_payment_failed', session.id);

    // Act
    const results = await Promise.all(Array.from({ length: 5 }, () => h.webhook(h.delivery(payload))));

    // Assess
    expect(results.map((result) => result.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const { customer, merchant } = await emailsAbout(session.id);
    expect([customer.length, merchant.length]).toEqual([1, 1]);
  });

  it('SES failing: 500, so Stripe retries, and the retry sends what was left', async () => {
    // Prepare
    const session = await failedDebit();
    const payload = await h.eventFor('checkout.session.async_payment_failed', session.id);
    const fault = injectAwsFault(h.clients.ses, { command: 'SendEmailCommand', when: 'before' });

    // Act
    const failed = await h.webhook(h.delivery(payload));
    fault.remove();
    const retried = await h.webhook(h.delivery(payload));

    // Assess
    expect(failed.statusCode).toBe(500);
    expect(retried.statusCode).toBe(200);
    const { customer, merchant } = await emailsAbout(session.id);
    expect([customer.length, merchant.length]).toEqual([1, 1]);
  });

  it('when the event never arrives, the reconciler sends both once; its next run and a late event send nothing more', async () => {
    // Prepare
    const session = await failedDebit();

    // Act
    const firstRun = await reconcileOrders(h.deps);
    const secondRun = await reconcileOrders(h.deps);
    const late = await h.webhook(
      h.delivery(await h.eventFor('checkout.session.async_payment_failed', session.id)),
    );

    // Assess
    expect(firstRun.failedDebitsNotified).toBeGreaterThanOrEqual(1);
    expect(secondRun.failedDebitsNotified).toBe(0);
    expect(late.statusCode).toBe(200);
    const { customer, merchant } = await emailsAbout(session.id);
    expect([customer.length, merchant.length]).toEqual([1, 1]);
    expect(await h.ordersFor(session.id)).toEqual([]);
  });

  it('a customer address SES refuses for good: recorded, never retried, and the merchant is told to phone', async () => {
    // Prepare: SES takes 7-bit addresses only.
    const session = await failedDebit({ uncheckedEmail: `zoë.${Date.now()}@example.com` });
    const payload = await h.eventFor('checkout.session.async_payment_failed', session.id);

    // Act
    const first = await h.webhook(h.delivery(payload));
    const replay = await h.webhook(h.delivery(payload));

    // Assess
    expect([first.statusCode, replay.statusCode]).toEqual([200, 200]);
    const { customer, merchant } = await emailsAbout(session.id);
    expect(customer).toHaveLength(0);
    expect(merchant).toHaveLength(1);
    expect(merchant[0]?.replyTo).toEqual([]);
    expect(merchant[0]?.body.text).toContain(
      'Action needed: the customer could NOT be emailed (the email service refused their address). Please tell them by phone that the order is cancelled and nothing was taken.',
    );
    const recorded = (await h.standIns.orderItems()).find((item) => item.pk === `FAILED_DEBIT#${session.id}`);
    expect(recorded).toMatchObject({ debitFailedEmailState: 'failed', debitFailedNoticeEmailState: 'sent' });
  });

  it('a debit still with the bank, or one that was collected, sends no failure email', async () => {
    // Prepare
    const pending = await createCheckoutSession(h.stripe);
    await h.simulator.completeSession(pending.id, { paymentStatus: 'unpaid' });
    const payload = await h.eventFor('checkout.session.async_payment_failed', pending.id);

    // Act
    const answer = await h.webhook(h.delivery(payload));

    // Assess
    expect(jsonBody(answer)).toEqual({ received: true, outcome: 'not-failed' });
    const { customer, merchant } = await emailsAbout(pending.id);
    expect([customer.length, merchant.length]).toEqual([0, 0]);
    expect((await h.standIns.orderItems()).some((item) => item.pk === `FAILED_DEBIT#${pending.id}`)).toBe(
      false,
    );
  });
});
