import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderReference } from '../../../../shared/checkout-status';
import {
  ORDERS,
  PERSONAL_DATA,
  recordingWebhookEndpoint,
  validOrder,
  withLogs,
} from '../create-checkout/harness';
import { type StatusHarness, startStatusHarness, statusAnswer, statusEvent } from './harness';

// The success page's lookup against real sessions in the simulator: only `paid` means paid, and
// the answer is the minimum (status, reference, bottles, total, dispatch date), nothing personal.

let harness: StatusHarness;

beforeAll(async () => {
  harness = await startStatusHarness();
});
afterAll(() => harness.close());

describe('checkout-status: status mapping', () => {
  it('success lookup returns the minimum: status, reference, bottles, total, dispatch date', async () => {
    const sessionId = await harness.createSession();

    const result = await harness.status(statusEvent(sessionId));

    expect(result.headers?.['cache-control']).toBe('no-store');
    const answer = statusAnswer(result);
    expect(Object.keys(answer).sort()).toEqual(['bottles', 'dispatchDate', 'reference', 'status', 'total']);
    expect(answer).toEqual({
      status: 'open',
      reference: orderReference(sessionId),
      bottles: 3,
      total: 1470,
      dispatchDate: harness.sim.getSession(sessionId)?.metadata.dispatch_date,
    });
    expect(answer.reference).toHaveLength(12);
  });

  it('answers a paid session as paid', async () => {
    const sessionId = await harness.createSession();
    await harness.sim.completeSession(sessionId);

    const answer = statusAnswer(await harness.status(statusEvent(sessionId)));

    expect(answer.status).toBe('paid');
  });

  it.each([
    ['an amount that is not our price', { amount_total: 1 }],
    ['another currency', { currency: 'eur' }],
  ])(
    'answers a paid session with %s as in_review: held by fulfilment, never "paid"',
    async (_case, patch) => {
      const sessionId = await harness.createSession();
      await harness.sim.completeSession(sessionId);
      harness.sim.patchSession(sessionId, patch);

      const answer = statusAnswer(await harness.status(statusEvent(sessionId)));

      expect(answer.status).toBe('in_review');
    },
  );

  it('answers a completed but unpaid session (delayed method) as unpaid, then paid once it settles', async () => {
    const sessionId = await harness.createSession();
    await harness.sim.completeSession(sessionId, { paymentStatus: 'unpaid' });

    const pending = statusAnswer(await harness.status(statusEvent(sessionId)));
    await harness.sim.settleAsyncPayment(sessionId, 'succeeded');
    const settled = statusAnswer(await harness.status(statusEvent(sessionId)));

    expect(pending.status).toBe('unpaid');
    expect(settled.status).toBe('paid');
  });

  it('gives a debit waiting for the bank the day Stripe’s page gave for a debit, not the card’s', async () => {
    const sessionId = await harness.createSession();
    await harness.sim.completeSession(sessionId, { paymentStatus: 'unpaid' });
    const metadata = harness.sim.getSession(sessionId)?.metadata;

    const pending = statusAnswer(await harness.status(statusEvent(sessionId)));

    expect(metadata?.debit_dispatch_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(metadata?.debit_dispatch_date).not.toBe(metadata?.dispatch_date);
    expect(pending.dispatchDate).toBe(metadata?.debit_dispatch_date);
  });

  it('answers a Direct Debit the bank refused as failed: the session stays unpaid, its PaymentIntent wants another method', async () => {
    const sessionId = await harness.createSession();
    await harness.sim.completeSession(sessionId, { paymentStatus: 'unpaid' });
    await harness.sim.settleAsyncPayment(sessionId, 'failed');
    const stored = harness.sim.getSession(sessionId);

    const answer = statusAnswer(await harness.status(statusEvent(sessionId)));

    expect(stored).toMatchObject({ status: 'complete', payment_status: 'unpaid' });
    expect(answer).toEqual({
      status: 'failed',
      reference: orderReference(sessionId),
      bottles: 3,
      total: 1470,
      dispatchDate: stored?.metadata.dispatch_date,
    });
  });

  it.each([
    ['canceled', 'failed'],
    ['requires_payment_method', 'failed'],
    ['processing', 'unpaid'],
  ] as const)(
    'answers a complete unpaid session whose PaymentIntent is %s as %s',
    async (intentStatus, expected) => {
      const sessionId = await harness.createSession();
      await harness.sim.completeSession(sessionId, { paymentStatus: 'unpaid' });
      const intentId = harness.sim.getSession(sessionId)?.payment_intent;
      if (typeof intentId !== 'string') throw new Error('the completed session has no PaymentIntent');
      harness.sim.patchPaymentIntent(intentId, { status: intentStatus });

      const answer = statusAnswer(await harness.status(statusEvent(sessionId)));

      expect(answer.status).toBe(expected);
    },
  );

  it('answers a session expired through the API as expired', async () => {
    const sessionId = await harness.createSession();
    await harness.stripe.checkout.sessions.expire(sessionId);

    const answer = statusAnswer(await harness.status(statusEvent(sessionId)));

    expect(answer.status).toBe('expired');
  });

  it('answers a session whose expires_at has passed as expired', async () => {
    const sessionId = await harness.createSession();
    harness.sim.patchSession(sessionId, { expires_at: Math.floor(Date.now() / 1000) - 1 });

    const answer = statusAnswer(await harness.status(statusEvent(sessionId)));

    expect(answer.status).toBe('expired');
  });

  it('never calls a no_payment_required session paid: no money was taken, no order will exist', async () => {
    const sessionId = await harness.createSession();
    harness.sim.patchSession(sessionId, { status: 'complete', payment_status: 'no_payment_required' });

    const answer = statusAnswer(await harness.status(statusEvent(sessionId)));

    expect(answer.status).toBe('unpaid');
  });

  it.each(ORDERS)('reports $quantity bottles and $pence pence from what Stripe charged', async (order) => {
    const sessionId = await harness.createSession({
      ...validOrder,
      quantity: order.quantity,
      subtotal: order.subtotal,
      total: order.total,
    });
    await harness.sim.completeSession(sessionId);

    const answer = statusAnswer(await harness.status(statusEvent(sessionId)));

    expect(answer).toMatchObject({ status: 'paid', bottles: order.quantity, total: order.pence });
  });
});

describe('checkout-status: bottles', () => {
  /** A completed 3-bottle session whose stored line items are replaced by `quantities`. */
  async function sessionCharging(quantities: number[], metadataQuantity?: string) {
    const sessionId = await harness.createSession(validOrder);
    await harness.sim.completeSession(sessionId);
    const stored = harness.sim.getSession(sessionId);
    const item = stored?.line_items.data[0];
    if (!stored || !item) throw new Error('session without line items');
    harness.sim.patchSession(sessionId, {
      line_items: { ...stored.line_items, data: quantities.map((quantity) => ({ ...item, quantity })) },
      ...(metadataQuantity !== undefined && { metadata: { ...stored.metadata, quantity: metadataQuantity } }),
    });
    return sessionId;
  }

  it('counts the bottles Stripe charged for, over every line item, not the metadata copy', async () => {
    const sessionId = await sessionCharging([6, 3]);

    expect(statusAnswer(await harness.status(statusEvent(sessionId)))).toMatchObject({ bottles: 9 });
  });

  it('reads the metadata copy only when the session has no line items', async () => {
    const sessionId = await sessionCharging([], '6');

    expect(statusAnswer(await harness.status(statusEvent(sessionId)))).toMatchObject({ bottles: 6 });
  });

  it.each(['0', 'three', '2.5'])(
    'answers 502 rather than guess when neither says how many bottles (metadata %j)',
    async (quantity) => {
      const sessionId = await sessionCharging([], quantity);

      expect((await harness.status(statusEvent(sessionId))).statusCode).toBe(502);
    },
  );
});

describe('checkout-status: privacy and read-only', () => {
  it('success lookup never answers or logs the name, address, phone or email', async () => {
    const sessionId = await harness.createSession();
    await harness.sim.completeSession(sessionId);

    const { result, logged } = await withLogs(() => harness.status(statusEvent(sessionId)));

    expect(logged).toContain(sessionId);
    for (const value of PERSONAL_DATA) {
      expect(result.body).not.toContain(value);
      expect(logged).not.toContain(value);
    }
  });

  it('success lookup is read-only: the session and the webhook deliveries are as before', async () => {
    // An endpoint that would notice any event: completing the session shows it does.
    const recorder = await recordingWebhookEndpoint();
    harness.sim.setWebhook(recorder.endpoint);
    try {
      const sessionId = await harness.createSession();
      await harness.sim.completeSession(sessionId);
      await harness.sim.idle();
      expect(recorder.received).toEqual(['checkout.session.completed']);
      const sessionBefore = harness.sim.getSession(sessionId);

      await harness.status(statusEvent(sessionId));
      await harness.status(statusEvent(sessionId));
      await harness.sim.idle();

      expect(harness.sim.getSession(sessionId)).toEqual(sessionBefore);
      expect(recorder.received).toEqual(['checkout.session.completed']);
    } finally {
      harness.sim.setWebhook(undefined);
      await recorder.close();
    }
  });
});
