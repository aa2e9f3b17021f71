import type Stripe from 'stripe';
import { logger } from '../../lib/logger';
import { hasShopMarker } from '../checkout/order-metadata';
import type { CapacityStore } from '../storage/capacity-store';
import { recordCancelledInStripe } from './actions';
import type { StandingEmailDeps } from './standing-emails';

export type CancelOutcome = 'not-ours' | 'not-cancelled' | 'cancelled' | 'already-cancelled-or-unknown';

/**
 * `customer.subscription.deleted`: the standing order's record marked cancelled, once, with its
 * email (ADR 0059: the write that marks it owes the email, so a cancel of ours that marked it
 * first sends its own, and this one none). The subscription is retrieved from Stripe (the event
 * only names it) and must be ours and `canceled`; no invoice of it will be paid again, so no more
 * orders come. A subscription never paid for has no record: nothing to mark.
 */
export async function recordSubscriptionCancelled(
  subscriptionId: string,
  deps: StandingEmailDeps & {
    stripe: Stripe;
    shopId: string;
    cutoffHours: number;
    /** Its coming deliveries' holds go (syncStandingHolds), on a repeat too. */
    capacity?: CapacityStore | undefined;
  },
): Promise<CancelOutcome> {
  const subscription = await deps.stripe.subscriptions.retrieve(subscriptionId);
  if (!hasShopMarker(subscription.metadata, deps.shopId)) return 'not-ours';
  if (subscription.status !== 'canceled') return 'not-cancelled';
  const marked = await recordCancelledInStripe(subscriptionId, deps);
  if (marked) logger.info('Standing order cancelled in Stripe', { subscriptionId });
  return marked ? 'cancelled' : 'already-cancelled-or-unknown';
}
