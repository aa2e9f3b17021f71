import type Stripe from 'stripe';
import { logger } from '../../lib/logger';
import { hasShopMarker } from '../checkout/order-metadata';
import type { ShopTable } from '../storage/orders-table';
import { markStandingOrderCancelled } from '../storage/standing-orders';

export type CancelOutcome = 'not-ours' | 'not-cancelled' | 'cancelled' | 'already-cancelled-or-unknown';

/**
 * `customer.subscription.deleted`: the standing order's record marked cancelled, once. The
 * subscription is retrieved from Stripe (the event only names it) and must be ours and `canceled`;
 * no invoice of it will be paid again, so no more orders come. A subscription never paid for has
 * no record: nothing to mark.
 */
export async function recordSubscriptionCancelled(
  subscriptionId: string,
  deps: { stripe: Stripe; table: ShopTable; shopId: string; now: () => Date },
): Promise<CancelOutcome> {
  const subscription = await deps.stripe.subscriptions.retrieve(subscriptionId);
  if (!hasShopMarker(subscription.metadata, deps.shopId)) return 'not-ours';
  if (subscription.status !== 'canceled') return 'not-cancelled';
  const marked = await markStandingOrderCancelled(deps.table, subscriptionId, deps.now());
  if (marked) logger.info('Standing order cancelled', { subscriptionId });
  return marked ? 'cancelled' : 'already-cancelled-or-unknown';
}
