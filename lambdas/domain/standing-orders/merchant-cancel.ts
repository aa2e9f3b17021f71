import { capacityStoreFromTable } from '../storage/capacity-table';
import { readStandingEmails, type StandingOrderItem } from '../storage/standing-orders';
import { cancelStandingOrder, type StandingOrderActionDeps } from './actions';

/** What the merchant's cancel did: whether this call cancelled it, and the customer's cancel email. */
export interface MerchantCancelResult {
  changed: boolean;
  email: 'sent' | 'not-sent';
  record: StandingOrderItem;
}

/**
 * The merchant's cancel: cancelStandingOrder with the table's holds, then whether the customer's email has
 * gone.
 * @throws RefusedError when no standing order has that id.
 */
export async function cancelForMerchant(
  subscriptionId: string,
  actor: string,
  deps: Omit<StandingOrderActionDeps, 'capacity'>,
): Promise<MerchantCancelResult> {
  const { record, changed } = await cancelStandingOrder(subscriptionId, actor, {
    ...deps,
    capacity: capacityStoreFromTable(deps.table),
  });
  const emails = await readStandingEmails(deps.table, subscriptionId);
  const sent = emails.some((entry) => entry.kind === 'cancel' && entry.state === 'sent');
  return { changed, email: sent ? 'sent' : 'not-sent', record };
}
