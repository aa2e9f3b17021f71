import type Stripe from 'stripe';
import { logger } from '../../lib/logger';
import { hasShopMarker } from '../checkout/order-metadata';
import type { StandingEmailDeps } from '../standing-deliveries/standing-emails';
import type { CapacityStore } from '../storage/capacity-store';
import { recordCancelledInStripe } from './actions';

export type CancelOutcome = 'not-ours' | 'not-cancelled' | 'cancelled' | 'already-cancelled-or-unknown';

/**
 * `customer.subscription.deleted`: the record marked cancelled once, with its email unless our cancel marked
 * it first (ADR 0059). The subscription is retrieved (the event only names it), ours and `canceled`.
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
