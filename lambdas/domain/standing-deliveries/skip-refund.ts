import { ACTORS } from '../storage/history';
import type { ManagedOrder } from '../storage/managed-order';

/**
 * A paid delivery (keyed by its invoice, `in_…`, ADR 0058) refunded at the customer's skip (ADR 0059): the
 * skip's confirmation states the refund, so no refund email goes, whichever path records it (ADR 0062).
 */
export function refundToldBySkip(order: Pick<ManagedOrder, 'sessionId' | 'refundRequestedBy'>): boolean {
  return order.sessionId.startsWith('in_') && order.refundRequestedBy === ACTORS.customer;
}
