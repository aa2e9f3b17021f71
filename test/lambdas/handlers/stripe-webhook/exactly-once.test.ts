import { createServer } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sendApiGatewayResult, toApiGatewayEvent } from '../../../../local/api-gateway-adapter';
import { formatDispatchDate } from '../../../../shared/dispatch';
import { jsonBody } from '../../../support/api-gateway-event';
import { injectAwsFault } from '../../../support/aws-faults';
import { createCheckoutSession } from '../../../support/checkout-sessions';
import {
  type FulfilmentHarness,
  startFulfilmentHarness,
  WEBHOOK_SECRET,
} from '../../../support/fulfilment-harness';

// One order and at most one email of each kind per session, however many events or deliveries
// arrive (failures are in failures.test.ts).
describe('payments and reliability: exactly once', () => {
  let h: FulfilmentHarness;

  beforeAll(async () => {
    h = await startFulfilmentHarness();
  });
  afterEach(() => h.clock.reset());
  afterAll(() => h.close());

  async function expectOneOrderAndOneEmailOfEach(sessionId: string) {
    expect(await h.ordersFor(sessionId)).toHaveLength(1);
    const emails = await h.emailsFor(sessionId);
    expect(emails.confirmation).toHaveLength(1);
    expect(emails.merchantNotice).toHaveLength(1);
    // From the shop's address under the seller's name, as the stack configures it.
    for (const email of [...emails.confirmation, ...emails.merchantNotice]) {
      expect(email.from).toBe('"Live Aquatics Ltd" <orders@live-aquatics.test>');
    }
  }

  /** A session paid with a delayed method: completed unpaid, then settled. */
  async function delayedPayment() {
    const session = await createCheckoutSession(h.stripe);
    await h.simulator.completeSession(session.id, { paymentStatus: 'unpaid' });
    const completed = await h.eventFor('checkout.session.completed', session.id);
    await h.simulator.settleAsyncPayment(session.id, 'succeeded');
    const succeeded = await h.eventFor('checkout.session.async_payment_succeeded', session.id);
    return { sessionId: session.id, completed, succeeded };
  }

  it('the same signed event 5 times concurrently: one order, one email of each kind, all 2xx', async () => {
    // Prepare
    const session = await h.paidSession();
    const payload = await h.eventFor('checkout.session.completed', session.id);

    // Act
    const results = await Promise.all(Array.from({ length: 5 }, () => h.webhook(h.delivery(payload))));

    // Assess
    expect(results.map((result) => result.statusCode)).toEqual([200, 200, 200, 200, 200]);
    await expectOneOrderAndOneEmailOfEach(session.id);
  });

  it('keeps one order and one email of each kind when a late writer’s order put lands after the first attempt finished', async () => {
    // Prepare: attempt B reads "no order", and its put is held in flight (a slow network).
    const session = await h.paidSession();
    const payload = await h.eventFor('checkout.session.completed', session.id);
    let releasePut: () => void = () => {};
    const putHeld = new Promise<void>((resolve) => {
      releasePut = resolve;
    });
    let putReached: () => void = () => {};
    const putSeen = new Promise<void>((resolve) => {
      putReached = resolve;
    });
    let held = false;
    h.clients.documentClient.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'PutItemCommand' && !held) {
          held = true;
          putReached();
          await putHeld;
        }
        return next(args);
      },
      { step: 'initialize', name: 'hold-first-order-put' },
    );
    try {
      const late = h.webhook(h.delivery(payload));
      await putSeen;

      // Act: attempt A writes the order and sends both emails; then B's put lands.
      const first = await h.webhook(h.delivery(payload));
      const afterFirst = await h.counts(session.id);
      releasePut();
      const second = await late;

      // Assess: the conditional put refused B; nothing was reset, nothing sent twice.
      expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
      expect(afterFirst).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
      expect(await h.counts(session.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
      const [order] = await h.ordersFor(session.id);
      expect(order).toMatchObject({ confirmationEmailState: 'sent', merchantNoticeEmailState: 'sent' });
    } finally {
      h.clients.documentClient.middlewareStack.remove('hold-first-order-put');
      releasePut();
    }
  });

  it('renders the emails from the stored order, not from a losing attempt’s own idea of it', async () => {
    // Prepare: B computes its order at T and its put is held; A, a week later, writes the order
    // (dispatch a week later too) but SES fails both its emails; then B's put lands and loses.
    const session = await h.paidSession();
    const payload = await h.eventFor('checkout.session.completed', session.id);
    let releasePut: () => void = () => {};
    const putHeld = new Promise<void>((resolve) => {
      releasePut = resolve;
    });
    let putReached: () => void = () => {};
    const putSeen = new Promise<void>((resolve) => {
      putReached = resolve;
    });
    let held = false;
    h.clients.documentClient.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'PutItemCommand' && !held) {
          held = true;
          putReached();
          await putHeld;
        }
        return next(args);
      },
      { step: 'initialize', name: 'hold-losing-put' },
    );
    try {
      const late = h.webhook(h.delivery(payload));
      await putSeen;
      h.clock.advance(7 * 24 * 3_600_000);
      const sesDown = injectAwsFault(h.clients.ses, {
        command: 'SendEmailCommand',
        when: 'before',
        times: 2,
      });
      const first = await h.webhook(h.delivery(payload));
      sesDown.remove();

      // Act
      releasePut();
      const second = await late;

      // Assess
      expect([first.statusCode, second.statusCode]).toEqual([500, 200]);
      const [stored] = await h.ordersFor(session.id);
      const storedDispatch = formatDispatchDate(String(stored?.dispatchDate));
      const { confirmation, merchantNotice } = await h.emailsFor(session.id);
      expect(confirmation).toHaveLength(1);
      expect(merchantNotice).toHaveLength(1);
      expect(confirmation[0]?.body.text).toContain(`Planned dispatch: ${storedDispatch}`);
      expect(merchantNotice[0]?.subject).toContain(`dispatch ${storedDispatch}`);
    } finally {
      h.clients.documentClient.middlewareStack.remove('hold-losing-put');
      releasePut();
    }
  });

  it.each([
    ['10 minutes', 10 * 60_000],
    ['4 days', 4 * 24 * 3_600_000],
  ])('the same event re-signed %s later: still one order', async (_label, laterMs) => {
    // Prepare
    const session = await h.paidSession();
    const payload = await h.eventFor('checkout.session.completed', session.id);
    expect((await h.webhook(h.delivery(payload))).statusCode).toBe(200);

    // Act: Stripe signs every retry afresh, with the time of that attempt.
    h.clock.advance(laterMs);
    const retry = await h.webhook(h.delivery(payload));

    // Assess
    expect(retry.statusCode).toBe(200);
    await expectOneOrderAndOneEmailOfEach(session.id);
  });

  it('makes no order from a completed event whose payment is still pending, then one when it succeeds', async () => {
    // Prepare
    const session = await createCheckoutSession(h.stripe);
    await h.simulator.completeSession(session.id, { paymentStatus: 'unpaid' });
    const completed = await h.eventFor('checkout.session.completed', session.id);

    // Act
    const first = await h.webhook(h.delivery(completed));
    const ordersWhilePending = await h.ordersFor(session.id);
    await h.simulator.settleAsyncPayment(session.id, 'succeeded');
    const second = await h.webhook(
      h.delivery(await h.eventFor('checkout.session.async_payment_succeeded', session.id)),
    );

    // Assess
    expect(jsonBody(first)).toEqual({ received: true, outcome: 'not-paid' });
    expect(ordersWhilePending).toHaveLength(0);
    expect(second.statusCode).toBe(200);
    expect(await h.ordersFor(session.id)).toHaveLength(1);
    // The customer heard at once that it waits for the bank (ADR 0047), then one confirmation.
    const emails = await h.emailsFor(session.id);
    expect(emails.confirmation.map((email) => email.subject.replace(session.id.slice(-12), 'REF'))).toEqual([
      'Live Aquatics Ltd: order REF received, waiting for your bank',
      'Live Aquatics Ltd: order REF confirmed (3 bottles of Daphnia Magna)',
    ]);
    expect(emails.merchantNotice).toHaveLength(1);
  });

  it.each([
    ['completed, then async_payment_succeeded', ['completed', 'succeeded'] as const],
    ['async_payment_succeeded, then completed', ['succeeded', 'completed'] as const],
  ])('%s for one session: one order', async (_label, order) => {
    // Prepare
    const events = await delayedPayment();

    // Act
    const statuses: Array<number | undefined> = [];
    for (const name of order) statuses.push((await h.webhook(h.delivery(events[name]))).statusCode);

    // Assess
    expect(statuses).toEqual([200, 200]);
    await expectOneOrderAndOneEmailOfEach(events.sessionId);
  });

  it('completed and async_payment_succeeded for one session concurrently: one order', async () => {
    // Prepare
    const { sessionId, completed, succeeded } = await delayedPayment();

    // Act
    const results = await Promise.all([
      h.webhook(h.delivery(completed)),
      h.webhook(h.delivery(succeeded)),
      h.webhook(h.delivery(completed)),
      h.webhook(h.delivery(succeeded)),
    ]);

    // Assess
    expect(results.map((result) => result.statusCode)).toEqual([200, 200, 200, 200]);
    await expectOneOrderAndOneEmailOfEach(sessionId);
  });

  it('makes no order when the delayed payment fails, and none when the session expires', async () => {
    // Prepare
    const failed = await createCheckoutSession(h.stripe);
    await h.simulator.completeSession(failed.id, { paymentStatus: 'unpaid' });
    await h.simulator.settleAsyncPayment(failed.id, 'failed');
    const failedEvent = await h.eventFor('checkout.session.async_payment_failed', failed.id);
    const abandoned = await createCheckoutSession(h.stripe);
    await h.stripe.checkout.sessions.expire(abandoned.id);
    const expiredEvent = await h.eventFor('checkout.session.expired', abandoned.id);
    const callsBefore = h.stripeCalls();

    // Act
    const onFailed = await h.webhook(h.delivery(failedEvent));
    const onExpired = await h.webhook(h.delivery(expiredEvent));

    // Assess
    expect(jsonBody(onFailed)).toEqual({ received: true, outcome: 'payment-failed' });
    expect(jsonBody(onExpired)).toEqual({ received: true, outcome: 'expired' });
    expect(await h.ordersFor(failed.id)).toHaveLength(0);
    expect(await h.ordersFor(abandoned.id)).toHaveLength(0);
    // One call: the failed session read from Stripe before its emails (the event is never trusted).
    expect(h.stripeCalls()).toBe(callsBefore + 1);
  });

  it('delivers through the simulator: a purchase paid on Stripe ends as one order and two emails', async () => {
    // Prepare: the simulator signs and posts its own events, retrying any non-2xx.
    const server = createServer((req, res) => {
      void toApiGatewayEvent(req)
        .then((event) => h.webhook(event))
        .then((result) => sendApiGatewayResult(res, result));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    h.simulator.setWebhook({
      url: `http://127.0.0.1:${port}/functions/v1/stripe-webhook`,
      secret: WEBHOOK_SECRET,
    });
    const session = await createCheckoutSession(h.stripe);

    // Act
    await h.simulator.completeSession(session.id);
    await h.simulator.idle();
    h.simulator.setWebhook(undefined);
    server.closeAllConnections();
    server.close();

    // Assess
    const deliveries = h.simulator.deliveries.filter(
      (delivery) => delivery.eventType === 'checkout.session.completed',
    );
    expect(deliveries.at(-1)?.statusCode).toBe(200);
    await expectOneOrderAndOneEmailOfEach(session.id);
  });
});
