import type Stripe from 'stripe';
import { logger } from '../../lib/logger';
import { hasShopMarker } from '../checkout/order-metadata';
import type { CapacityStore } from '../storage/capacity-store';
import type { ShopTable } from '../storage/orders-table';
import { markStandingOrderCancelled, readStandingOrder } from '../storage/standing-orders';
import { syncStandingHolds } from './standing-holds';

export type CancelOutcome = 'not-ours' | 'not-cancelled' | 'cancelled' | 'already-cancelled-or-unknown';

/**
 * `customer.subscription.deleted`: the standing order's record marked cancelled, once. The
 * subscription is retrieved from Stripe (the event only names it) and must be ours and `canceled`;
 * no invoice of it will be paid again, so no more orders come. A subscription never paid for has
 * no record: nothing to mark. Its coming deliveries' holds go (syncStandingHolds), on a repeat too.
 */
export async function recordSubscriptionCancelled(
  subscriptionId: string,
  deps: {
    stripe: Stripe;
    table: ShopTable;
    shopId: string;
    now: () => Date;
    cutoffHours: number;
    capacity?: CapacityStore | undefined;
  },
): Promise<CancelOutcome> {
  const subscription = await deps.stripe.subscriptions.retrieve(subscriptionId);
  if (!hasShopMarker(subscription.metadata, deps.shopId)) return 'not-ours';
  if (subscription.status !== 'canceled') return 'not-cancelled';
  const marked = await markStandingOrderCancelled(deps.table, subscriptionId, deps.now());
  if (marked) logger.info('Standing order cancelled', { subscriptionId });
  const record = deps.capacity && (await readStandingOrder(deps.table, subscriptionId));
  if (deps.capacity && record) {
    await syncStandingHolds(record, { capacity: deps.capacity, cutoffHours: deps.cutoffHours }, deps.now());
  }
  return marked ? 'cancelled' : 'already-cancelled-or-unknown';
}
