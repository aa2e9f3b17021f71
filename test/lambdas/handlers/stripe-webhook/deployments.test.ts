import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fulfilCheckout } from '../../../../lambdas/domain/fulfilment/fulfil-checkout';
import { reconcileOrders } from '../../../../lambdas/domain/reconcile/reconcile-orders';
import { createStatusHandler } from '../../../../lambdas/handlers/checkout-status/handler';
import { jsonBody } from '../../../support/api-gateway-event';
import { type FulfilmentHarness, startFulfilmentHarness } from '../../../support/fulfilment-harness';
import { statusEvent } from '../checkout-status/harness';

// Two deployments (a test and a live stage, or two developers) on one
// Stripe account. The harness runs as SHOP_ID "LiveAquatics-test"; the other is "LiveAquatics-live".
describe('the per-deployment shop marker', () => {
  let h: FulfilmentHarness;

  beforeAll(async () => {
    h = await startFulfilmentHarness();
  });
  afterAll(() => h.close());

  it('marks each session with the configured SHOP_ID', async () => {
    // Act
    const session = await h.paidSession();

    // Assess
    expect(session.metadata?.shop).toBe('LiveAquatics-test');
  });

  it('the webhook leaves another deployment’s paid session alone: 200, no order, no email', async () => {
    // Prepare
    const theirs = await h.paidSession({ shopId: 'LiveAquatics-live' });
    const callsBefore = h.stripeCalls();

    // Act
    const result = await h.webhook(h.delivery(await h.eventFor('checkout.session.completed', theirs.id)));

    // Assess
    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toEqual({ received: true, outcome: 'not-ours' });
    expect(h.stripeCalls()).toBe(callsBefore);
    expect(await h.counts(theirs.id)).toEqual({ orders: 0, confirmation: 0, merchantNotice: 0 });
  });

  it('the reconciler fulfils its own missed session and not the other deployment’s', async () => {
    // Prepare
    const ours = await h.paidSession();
    const theirs = await h.paidSession({ shopId: 'LiveAquatics-live' });

    // Act
    await reconcileOrders(h.deps);

    // Assess
    expect(await h.counts(ours.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
    expect(await h.counts(theirs.id)).toEqual({ orders: 0, confirmation: 0, merchantNotice: 0 });
  });

  it('the status lookup answers 404 for the other deployment’s session, and 200 to that deployment', async () => {
    // Prepare
    const theirs = await h.paidSession({ shopId: 'LiveAquatics-live' });
    const ourLookup = createStatusHandler({ stripe: h.stripe, shopId: 'LiveAquatics-test' });
    const theirLookup = createStatusHandler({ stripe: h.stripe, shopId: 'LiveAquatics-live' });

    // Act
    const fromUs = await ourLookup(statusEvent(theirs.id));
    const fromThem = await theirLookup(statusEvent(theirs.id));

    // Assess
    expect(fromUs.statusCode).toBe(404);
    expect(fromThem.statusCode).toBe(200);
    expect(jsonBody(fromThem)).toMatchObject({ status: 'paid' });
  });

  it('fulfilment itself refuses the other deployment’s session even when asked directly', async () => {
    // Prepare
    const theirs = await h.paidSession({ shopId: 'LiveAquatics-live' });

    // Act
    const result = await fulfilCheckout(theirs.id, h.deps);

    // Assess
    expect(result).toEqual({ outcome: 'not-ours' });
    expect(await h.counts(theirs.id)).toEqual({ orders: 0, confirmation: 0, merchantNotice: 0 });
  });
});
