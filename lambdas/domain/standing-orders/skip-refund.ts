import { ACTORS } from '../storage/history';
import type { ManagedOrder } from '../storage/managed-order';

/**
 * A standing order's paid delivery refunded because its customer skipped it (the only refund a
 * customer asks for, ADR 0059; its order is keyed by its invoice, ADR 0058). The skip's
 * confirmation says the refund and its amount, so the refund sends the customer no email of its
 * own, whichever path records it, the command or the webhook (ADR 0062).
 */
export function refundToldBySkip(order: Pick<ManagedOrder, 'sessionId' | 'refundRequestedBy'>): boolean {
  return order.sessionId.startsWith('in_') && order.refundRequestedBy === ACTORS.customer;
}
