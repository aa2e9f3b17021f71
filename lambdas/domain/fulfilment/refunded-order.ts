import { formatGbp } from '../../../shared/pricing';
import { returnRefundedBottles } from '../capacity/session-capacity';
import type { PaidCheckout } from '../checkout/paid-checkout';
import { type OrderSale, type OrderTimes, toOrderItem } from '../checkout/paid-checkout';
import type { SellerDetails } from '../emails/common';
import { drainOutbox, emailOutcome } from '../emails/outbox-sender';
import type { EmailSender } from '../emails/send-email';
import type { SendOnceOutcome } from '../emails/send-email-once';
import type { OrderPageLinks } from '../order-page-token';
import { capacityStoreFromTable } from '../storage/capacity-table';
import { ACTORS, historyEntry } from '../storage/history';
import type { ManagedOrder } from '../storage/managed-order';
import type { OrderItem } from '../storage/order';
import { dispatchSortKey, type ShopTable } from '../storage/orders-table';
import { emailOf, entryKey, readOrder } from '../storage/outbox';

// A payment refunded in Stripe (in the Dashboard) before its order was recorded: its
// `checkout.session.completed` came late (an outage, Stripe's retries), or only the reconciler
// found it. Every paid session is exactly one order, so it is recorded, but as refunded: never
// confirmed, never on a dispatch list, its bottles back on their day.

/**
 * The order of a paid session whose charge Stripe has refunded in full, as it is first written:
 * `refunded`, listed as such on its dispatch day, its history saying it was refunded in Stripe
 * before it was recorded, and the refund email due.
 *
 * Neither the confirmation nor the merchant's new-order notice is ever due (their states are
 * absent): a confirmation would promise Daphnia that will not come, and the merchant made the
 * refund in their own Stripe Dashboard, so a "new order, pack it" notice would only mislead; the
 * order shows as refunded in their list and admin page. The customer does get the refund email:
 * they paid, so one email says the money is going back. `sale` names the session's reservation,
 * whose bottles are given back, not sold (returnRefundedBottles gives back a sale a racing
 * `completed` made there). Pure.
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

export interface RefundedOrderDeps {
  table: ShopTable;
  sender: EmailSender;
  seller: SellerDetails;
  now: () => Date;
  orderPage?: OrderPageLinks | undefined;
}

/**
 * The refund email of a refunded order, once, whichever way it was refunded: its outbox entry was
 * written with the refund itself (storage/outbox.ts), with the reason stored by then (the command
 * stores its reason before it asks Stripe), and is sent here by draining the order's outbox
 * (emails/outbox-sender.ts); a dispatch or delay note still unsent was superseded by that write.
 * Every refund path ends here (the command, `charge.refunded`, and fulfilment of a session refunded
 * before its order), so this is also where an undispatched order's bottles go back to their
 * dispatch day (once: the give-back is conditional on the sale).
 */
export async function sendRefundEmail(sessionId: string, deps: RefundedOrderDeps): Promise<SendOnceOutcome> {
  const stored = await readOrder(deps.table, sessionId);
  await returnRefundedBottles(capacityStoreFromTable(deps.table), stored);
  const drained = await drainOutbox(sessionId, deps);
  return emailOutcome(await readOrder(deps.table, sessionId), [], drained, 'refund');
}
