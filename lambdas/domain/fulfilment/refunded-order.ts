import { formatGbp } from '../../../shared/pricing';
import { returnRefundedBottles } from '../capacity/session-capacity';
import type { PaidCheckout } from '../checkout/paid-checkout';
import { type OrderSale, type OrderTimes, toOrderItem } from '../checkout/paid-checkout';
import { drainOutbox, emailOutcome, type OutboxSenderDeps } from '../emails/outbox-sender';
import type { SendOnceOutcome } from '../emails/send-email-once';
import { capacityStoreFromTable } from '../storage/capacity-table';
import { ACTORS, historyEntry } from '../storage/history';
import type { ManagedOrder } from '../storage/managed-order';
import type { OrderItem } from '../storage/order';
import { dispatchSortKey } from '../storage/orders-table';
import { emailOf, entryKey, readOrder } from '../storage/outbox';

// Refunded in Stripe before its order was recorded (a late `completed`, or found by the reconciler): every
// paid session is exactly one order, so it is recorded as refunded, never confirmed or listed for dispatch.

/**
 * A fully refunded paid session's order as first written: `refunded`, its history saying so, the refund email
 * due. No confirmation (it would promise Daphnia that will not come) and no new-order notice (the merchant
 * refunded it themselves). `sale`'s bottles are given back, not sold. Pure.
 */
export function toRefundedOrderItem(
  checkout: PaidCheckout,
  times: OrderTimes,
  sale?: OrderSale,
): ManagedOrder {
  const paid: OrderItem = toOrderItem(checkout, times, undefined, sale);
  const { confirmationEmailState: _confirmation, merchantNoticeEmailState: _notice, ...order } = paid;
  const refundedAt = times.now.toISOString();
  const refundEmail = emailOf('refund', { ...order, status: 'refunded', refundReason: 'stripe' });
  if (refundEmail.kind !== 'refund') throw new Error('a refund email is of kind refund');
  return {
    ...order,
    status: 'refunded',
    gsi1sk: dispatchSortKey('refunded', paid.paidAt, paid.reference),
    refundedAt,
    refundReason: 'stripe',
    refundEmailState: 'pending',
    // Born with its one email in the outbox, as a change through storage/outbox.ts writes it.
    version: 1,
    outbox: { [entryKey(1, 0)]: { ...refundEmail, version: 1, seq: 0, at: refundedAt, state: 'pending' } },
    outboxDueAt: refundedAt,
    history: [
      ...(paid.history ?? []),
      historyEntry(refundedAt, ACTORS.stripeDashboard, 'refunded', 'stripe, before the order was recorded'),
    ],
  };
}

/** The history's words for a partial refund: "£5.00 of £14.70". */
export function partialRefundDetail(refundedPence: number, totalPence: number): string {
  return `${formatGbp(refundedPence)} of ${formatGbp(totalPence)}`;
}

/**
 * The refund email, once, by draining the outbox entry written with the refund (reason stored by then). Every
 * refund path ends here, so undispatched bottles go back to their day here too (once, by the sale's guard).
 */
export async function sendRefundEmail(sessionId: string, deps: OutboxSenderDeps): Promise<SendOnceOutcome> {
  const stored = await readOrder(deps.table, sessionId);
  await returnRefundedBottles(capacityStoreFromTable(deps.table), stored);
  const drained = await drainOutbox(sessionId, deps);
  return emailOutcome(await readOrder(deps.table, sessionId), [], drained, 'refund');
}
