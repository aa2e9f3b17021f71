import { setTimeout } from 'node:timers/promises';
import type { OrderPageLinks } from '../order-page-token';
import type { ManagedOrder } from '../storage/managed-order';
import type { OrderStatus } from '../storage/order';
import { orderKey, type ShopTable } from '../storage/orders-table';
import { getRecord } from '../storage/records';
import type { EmailSender, OutgoingEmail } from './send-email';
import { type SendOnceOutcome, sendOnce } from './send-email-once';

/** The order's emails after its confirmation: each says something about the order's state. */
export type OrderEmailKind = 'dispatch' | 'delay' | 'refund' | 'trackingUpdate' | 'addressCorrected';

/**
 * What each order email says, as the claim checks it at the moment of sending: "on its way" only
 * while dispatched, "new date" only while paid, "refunded" only once refunded. A refund overrides
 * both others and a dispatch a delay, so each waits for the one it overrides to leave SES first.
 */
export const ORDER_EMAIL_GUARDS: Record<
  OrderEmailKind,
  { status: OrderStatus; after: readonly OrderEmailKind[] }
> = {
  delay: { status: 'paid', after: [] },
  dispatch: { status: 'dispatched', after: ['delay'] },
  refund: { status: 'refunded', after: ['dispatch', 'delay', 'trackingUpdate'] },
  // A new number only while the parcel is out, and after the dispatch email that gave the first.
  trackingUpdate: { status: 'dispatched', after: ['dispatch'] },
  // Only while nothing is packed: once dispatched, the parcel went to the address on its label.
  addressCorrected: { status: 'paid', after: [] },
};

/**
 * How long an email waits for one it overrides that another path is sending: one SES call takes
 * well under a second, so the usual race ends with both sent, in order.
 */
export const OTHER_SENDER_WAIT = { attempts: 8, intervalMs: 250 } as const;

export interface OrderEmailDeps {
  table: ShopTable;
  sender: EmailSender;
  now: () => Date;
  /** The order page's links, for the emails' button (absent: no secret configured, no button). */
  orderPage?: OrderPageLinks | undefined;
}

/** The order as stored now (a consistent read). */
export async function rereadOrder(
  deps: Pick<OrderEmailDeps, 'table'>,
  sessionId: string,
): Promise<ManagedOrder> {
  const record = await getRecord(deps.table, orderKey(sessionId));
  if (record?.kind !== 'order') throw new Error(`Order ${sessionId} disappeared`);
  return record.order;
}

/**
 * Sends one of the order's emails once (sendOnce), guarded by ORDER_EMAIL_GUARDS. When an email
 * it overrides is being sent right now (one SES call), waits for that to finish, a bounded time,
 * then claims: a refund at the same moment as a dispatch sends "refunded" last.
 */
export async function sendOrderEmail(
  order: ManagedOrder,
  kind: OrderEmailKind,
  message: (order: ManagedOrder) => OutgoingEmail,
  deps: OrderEmailDeps,
): Promise<SendOnceOutcome> {
  const guard = ORDER_EMAIL_GUARDS[kind];
  for (let attempt = 0; ; attempt += 1) {
    const outcome = await sendOnce(order.pk, kind, () => message(order), deps, guard);
    if (outcome === 'sent' || attempt === OTHER_SENDER_WAIT.attempts) return outcome;
    const stored = await rereadOrder(deps, order.sessionId);
    const waiting =
      stored.status === guard.status &&
      stored[`${kind}EmailState`] === 'pending' &&
      guard.after.some((other) => stored[`${other}EmailState`] === 'sending');
    if (!waiting) return outcome;
    await setTimeout(OTHER_SENDER_WAIT.intervalMs);
  }
}
