import type Stripe from 'stripe';
import { RefusedError } from '../refusal';
import type { ShopTable } from '../storage/orders-table';
import {
  markStandingOrderCancelled,
  readStandingOrder,
  type StandingOrderItem,
} from '../storage/standing-orders';

/** What the merchant's cancel did: whether this call cancelled it, and the customer's email. */
export interface MerchantCancelResult {
  changed: boolean;
  email: 'sent' | 'not-sent';
  record: StandingOrderItem;
}

/**
 * The merchant's (admin page's, CLI's) cancel of a standing order: the subscription deleted at
 * Stripe (immediately: no more payments), the record marked cancelled once.
 * @throws RefusedError when no standing order has that id.
 */
export async function cancelForMerchant(
  subscriptionId: string,
  _actor: string,
  deps: { table: ShopTable; stripe: Stripe; now: () => Date },
): Promise<MerchantCancelResult> {
  const before = await readStandingOrder(deps.table, subscriptionId);
  if (before === undefined) throw new RefusedError(`No standing order ${subscriptionId}.`);
  const subscription = await deps.stripe.subscriptions.retrieve(subscriptionId);
  if (subscription.status !== 'canceled')
    await deps.stripe.subscriptions.cancel(
      subscriptionId,
      {},
      { idempotencyKey: `cancel-${subscriptionId}` },
    );
  const changed = await markStandingOrderCancelled(deps.table, subscriptionId, deps.now());
  const record = (await readStandingOrder(deps.table, subscriptionId)) ?? before;
  return { changed, email: 'not-sent', record };
}
