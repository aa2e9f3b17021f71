import { type AddressCorrection, addressCorrectionSchema } from '../../../shared/address-correction';
import { describeIssues } from '../../../shared/checkout-request';
import { dispatchCutoff, formatDispatchDate, formatLondonTime } from '../../../shared/dispatch';
import { rereadOrder, sendOrderEmail } from '../emails/order-emails';
import { renderAddressCorrectedEmail } from '../emails/order-updates';
import type { SendOnceOutcome } from '../emails/send-email-once';
import { OrderPageNotFoundError, samePageKey } from '../order-page-token';
import { RefusedError } from '../refusal';
import { updateIf } from '../storage/conditional-writes';
import { historyEntry } from '../storage/history';
import type { ManagedOrder } from '../storage/managed-order';
import { orderKey } from '../storage/orders-table';
import { dueWithHistory } from '../storage/status-move';
import type { ShopDeps } from './shop-deps';

/** What a correction needs: the shop's deps and the packing cut-off (DISPATCH_CUTOFF_HOURS). */
export type CorrectAddressDeps = ShopDeps & { cutoffHours: number };

/** The details were not valid: the checkout's own message per field. */
export class InvalidCorrectionError extends RefusedError {
  constructor(
    readonly fields: Partial<Record<string, string>>,
    message: string,
  ) {
    super(message);
    this.name = 'InvalidCorrectionError';
  }
}

export interface CorrectAddressResult {
  reference: string;
  /** False when the details given were already the order's: nothing written, nothing sent. */
  changed: boolean;
  email: SendOnceOutcome | 'not-due';
  order: ManagedOrder;
}

/** One line of the history: a multi-line address read on one line. */
function oneLine(address: string, postcode: string): string {
  return `${address.replace(/\s*\n\s*/g, ', ')} ${postcode}`;
}

/** "address: A → B; phone: C → D": before and after of what changed, for the merchant to read. */
function changeDetail(order: ManagedOrder, next: AddressCorrection): string {
  const parts: string[] = [];
  const before = oneLine(order.deliveryAddress, order.postcode);
  const after = oneLine(next.address, next.postcode);
  if (before !== after) parts.push(`address: ${before} → ${after}`);
  if (order.customerPhone !== next.phone) {
    parts.push(`phone: ${order.customerPhone || '(none)'} → ${next.phone || '(none)'}`);
  }
  return parts.join('; ');
}

/**
 * Corrects a paid order's delivery address, postcode and phone until the packing cut-off of its
 * dispatch day, for the customer's order page, the admin page and the CLI alike. The details are
 * checked with the checkout's own rules (shared/address-correction.ts); the write is conditional
 * on the order being still paid, on the same day, with the details read, so two corrections at
 * once cannot lose one silently; the same update appends before and after to the history with
 * `actor`, and makes one short confirmation email due, sent once (send-once.ts). The dispatch
 * files read the order's own fields, so they carry the new details from then on.
 * A correction through the order page passes the page key its token was checked against: the write
 * is then conditional on that key too, so a revoke that lands in between leaves the order unchanged
 * and the old link answers as any revoked one. The merchant's (no token) is not held to a key.
 * @throws InvalidCorrectionError for details the checkout would refuse; RefusedError once the
 * order is dispatched, refunded, past its cut-off, or changed meanwhile; OrderPageNotFoundError
 * when `pageKey` is given and the order's key is no longer it.
 */
export async function correctOrderAddress(
  order: ManagedOrder,
  body: unknown,
  options: { actor: string; pageKey?: string | undefined },
  deps: CorrectAddressDeps,
): Promise<CorrectAddressResult> {
  const parsed = addressCorrectionSchema.safeParse(body);
  if (!parsed.success) {
    const { fields, message } = describeIssues(parsed.error);
    throw new InvalidCorrectionError(fields, message);
  }
  const next = parsed.data;
  const now = deps.now();
  if (order.status === 'dispatched') {
    throw new RefusedError(`${order.reference} has been dispatched: its address can no longer change.`);
  }
  if (order.status === 'refunded') {
    throw new RefusedError(`${order.reference} was refunded: there is nothing to deliver.`);
  }
  const cutoff = dispatchCutoff(order.dispatchDate, deps.cutoffHours);
  // A careful merchant packs from the list printed at the cut-off: a later change could miss the label.
  if (now.getTime() >= cutoff.getTime()) {
    throw new RefusedError(
      `${order.reference} is being packed for ${formatDispatchDate(order.dispatchDate)} (changes closed ${formatLondonTime(cutoff, now)}): please contact the seller.`,
    );
  }
  const detail = changeDetail(order, next);
  if (detail === '') return { reference: order.reference, changed: false, email: 'not-due', order };

  const at = now.toISOString();
  const also = dueWithHistory(
    'addressCorrected',
    historyEntry(at, options.actor, 'address-corrected', detail),
  );
  const { pageKey } = options;
  // Through the order page: held to the key the token was checked against (a revoke replaces it).
  const heldToKey =
    pageKey === undefined
      ? { condition: '', values: {} }
      : { condition: ' AND pageKey = :pageKey', values: { ':pageKey': pageKey } };
  const changed = await updateIf(deps.table, orderKey(order.sessionId), {
    ConditionExpression: `#status = :paid AND dispatchDate = :day AND deliveryAddress = :oldAddress AND postcode = :oldPostcode AND customerPhone = :oldPhone${heldToKey.condition}`,
    UpdateExpression: `SET deliveryAddress = :address, postcode = :postcode, customerPhone = :phone, ${also.set} REMOVE ${also.remove}`,
    ExpressionAttributeNames: { '#status': 'status', ...also.names },
    ExpressionAttributeValues: {
      ...also.values,
      ':paid': 'paid',
      ':day': order.dispatchDate,
      ':oldAddress': order.deliveryAddress,
      ':oldPostcode': order.postcode,
      ':oldPhone': order.customerPhone,
      ':address': next.address,
      ':postcode': next.postcode,
      ':phone': next.phone,
      ...heldToKey.values,
    },
  });
  if (!changed) {
    if (pageKey !== undefined) {
      // The token's key replaced meanwhile (a revoke): the old link opens nothing, this included.
      const current = await rereadOrder(deps, order.sessionId);
      if (!samePageKey(current.pageKey, pageKey)) throw new OrderPageNotFoundError();
    }
    throw new RefusedError(
      `${order.reference} changed meanwhile (dispatched, delayed or corrected): look at it again before correcting.`,
    );
  }
  const stored = await rereadOrder(deps, order.sessionId);
  const email = await sendOrderEmail(
    stored,
    'addressCorrected',
    (o) => ({
      to: o.customerEmail,
      replyTo: deps.seller.email,
      content: renderAddressCorrectedEmail(o, deps.seller, deps.orderPage?.linkFor(o)),
    }),
    deps,
  );
  // Read again so the answer shows the email as it now stands, never "pending" once sent.
  return {
    reference: stored.reference,
    changed: true,
    email,
    order: await rereadOrder(deps, order.sessionId),
  };
}
