import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fulfilCheckout } from '../../../../lambdas/domain/fulfilment/fulfil-checkout';
import { reconcileOrders } from '../../../../lambdas/domain/reconcile/reconcile-orders';
import { injectAwsFault } from '../../../support/aws-faults';
import { createCheckoutSession } from '../../../support/checkout-sessions';
import { type FulfilmentHarness, startFulfilmentHarness } from '../../../support/fulfilment-harness';

// The run's summary is what the merchant's log and metric say the reconciler did: each count is
// checked exactly, on a Stripe account (a simulator of its own) holding one session of each kind.
describe('reconcile-orders: the summary of a run', () => {
  let h: FulfilmentHarness;

  beforeAll(async () => {
    h = await startFulfilmentHarness();
  });
  afterAll(() => h.close());

  it('counts each kind of session once: missed, recorded, emails left unsent, not ours, unpaid (told it waits for the bank), settled later, debit failed, not our price', async () => {
    // Prepare
    await h.paidSession(); // paid, its webhook never arrived
    const recorded = await h.paidSession();
    await fulfilCheckout(recorded.id, h.deps); // paid and fully handled already
    const emailLeft = await h.paidSession();
    const fault = injectAwsFault(h.clients.ses, { command: 'SendEmailCommand', when: 'before' });
    await expect(fulfilCheckout(emailLeft.id, h.deps)).rejects.toThrow();
    fault.remove(); // its order is written, one of its two emails is not sent
    await h.paidSession({ notOurs: true });
    const pending = await createCheckoutSession(h.stripe);
    await h.simulator.completeSession(pending.id, { paymentStatus: 'unpaid' }); // with the bank, never told
    const settled = await createCheckoutSession(h.stripe);
    await h.simulator.completeSession(settled.id, { paymentStatus: 'unpaid' });
    await h.simulator.settleAsyncPayment(settled.id, 'succeeded');
    h.simulator.patchSession(settled.id, { payment_status: 'unpaid' });
    const failedDebit = await createCheckoutSession(h.stripe);
    await h.simulator.completeSession(failedDebit.id, { paymentStatus: 'unpaid' });
    await h.simulator.settleAsyncPayment(failedDebit.id, 'failed'); // its webhook never arrived
    const mispriced = await h.paidSession();
    h.simulator.patchSession(mispriced.id, { amount_total: 1 });

    // Act
    const summary = await reconcileOrders(h.deps);

    // Assess
    expect(summary).toEqual({
      checked: 8,
      paid: 5,
      settledLater: 1,
      fulfilledMissedOrders: 2,
      emailsRetried: 1,
      needsReview: 1,
      failed: 0,
      holdsReleased: 0,
      failedDebitsNotified: 1,
      pendingDebitsTold: 1,
      stoppedAtDeadline: false,
    });
    expect(await h.counts(emailLeft.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
    expect(await h.counts(mispriced.id)).toEqual({ orders: 0, confirmation: 0, merchantNotice: 0 });
  });
});
