import { createHash, randomBytes } from 'node:crypto';
import type { CheckoutRequest } from '../../../shared/checkout-request';
import { nextDispatchDate } from '../../../shared/dispatch';
import { poundsToPence, quoteOrder } from '../../../shared/pricing';
import { logger } from '../../lib/logger';
import { isStripeError } from '../../lib/stripe-errors';
import { buildSessionParams, QuoteMismatchError } from '../checkout/create-checkout-session';
import {
  renderDecline,
  renderPaymentInvitation,
  renderRequestNotice,
  renderRequestReceived,
} from '../emails/request-emails';
import { putIfAbsent, updateIf } from '../orders/conditional-writes';
import type { OrderRequest } from '../orders/order-request';
import { DISPATCH_DATE_INDEX, dispatchDayKey, dispatchSortKey, requestKey } from '../orders/orders-table';
import { findByReference, getRecord } from '../orders/records';
import { emailDue, type SendOnceOutcome, sendOnce } from '../orders/send-once';
import { RefusedError } from '../refusal';
import type { ShopDeps, ShopStripeDeps } from './shop-deps';

/** How long a payment link stays usable: under Stripe's 24-hour maximum for `expires_at`. */
export const PAYMENT_LINK_HOURS = 23;

/**
 * A request's reference: "R" and 11 upper-case hex digits. From the page's idempotency key when
 * there is one, so a double-click or a retry records one request, not two.
 */
export function requestReference(idempotencyKey: string | undefined): string {
  const digits = idempotencyKey
    ? createHash('sha256').update(`request:${idempotencyKey}`).digest('hex')
    : randomBytes(8).toString('hex');
  return `R${digits.slice(0, 11).toUpperCase()}`;
}

/**
 * Records an order request taken in requests mode (the browser's totals checked against the
 * server's quote first, as for a paid checkout: QuoteMismatchError) (its own item, `REQUEST#<reference>`, never an
 * order) and emails the customer and the merchant, each exactly once. A repeat with the same
 * idempotency key finds the request and only finishes emails a stopped attempt left unsent.
 * An email SES refuses is logged, not thrown: the request is recorded, `orders list` shows the
 * unsent email, and the customer is told on the page that it was received.
 */
export async function recordOrderRequest(
  input: CheckoutRequest,
  options: { idempotencyKey: string | undefined; cutoffHours: number },
  deps: ShopDeps,
): Promise<{
  reference: string;
  created: boolean;
  emails: Record<'customer' | 'merchant', SendOnceOutcome | 'failed'>;
}> {
  const quote = quoteOrder(input.quantity);
  const totalsMatch =
    poundsToPence(input.subtotal) === quote.subtotalPence &&
    poundsToPence(input.shipping) === quote.shippingPence &&
    poundsToPence(input.total) === quote.totalPence;
  if (!totalsMatch) throw new QuoteMismatchError(quote);
  const reference = requestReference(options.idempotencyKey);
  const now = deps.now();
  const createdAt = now.toISOString();
  const dispatchDate = nextDispatchDate(now, { cutoffHours: options.cutoffHours });
  const item: OrderRequest = {
    pk: requestKey(reference),
    reference,
    status: 'requested',
    bottles: quote.bottles,
    unitPricePence: quote.unitPricePence,
    subtotalPence: quote.subtotalPence,
    shippingPence: quote.shippingPence,
    totalPence: quote.totalPence,
    customerName: input.name,
    customerEmail: input.email,
    customerPhone: input.phone,
    deliveryAddress: input.address,
    postcode: input.postcode,
    dispatchDate,
    createdAt,
    requestReceivedEmailState: 'pending',
    requestNoticeEmailState: 'pending',
    gsi1pk: dispatchDayKey(dispatchDate),
    gsi1sk: dispatchSortKey('requested', createdAt, reference),
  };
  const created = await putIfAbsent(deps.table, item);
  const stored = created ? item : await readRequest(deps, reference);
  // Independent: the merchant's notice never waits on, or fails with, the customer's email.
  const [merchant, customer] = await Promise.all([
    trySend(stored, 'requestNotice', () => ({
      to: deps.merchantEmail,
      replyTo: stored.customerEmail,
      content: renderRequestNotice(stored),
    })),
    trySend(stored, 'requestReceived', () => ({
      to: stored.customerEmail,
      replyTo: deps.seller.email,
      content: renderRequestReceived(stored, deps.seller),
    })),
  ]);
  return { reference, created, emails: { customer, merchant } };

  async function trySend(
    request: OrderRequest,
    kind: 'requestNotice' | 'requestReceived',
    message: Parameters<typeof sendOnce>[2],
  ): Promise<SendOnceOutcome | 'failed'> {
    try {
      return await sendOnce(request.pk, kind, message, deps);
    } catch (error) {
      logger.error('Order request email not sent', { reference: request.reference, kind, error });
      return 'failed';
    }
  }
}

async function readRequest(deps: Pick<ShopDeps, 'table'>, reference: string): Promise<OrderRequest> {
  const record = await getRecord(deps.table, requestKey(reference));
  if (record?.kind !== 'request') throw new Error(`Request ${reference} cannot be read`);
  return record.request;
}

async function findRequest(deps: Pick<ShopDeps, 'table'>, reference: string): Promise<OrderRequest> {
  const record = await findByReference(deps.table, reference);
  if (record.kind === 'order') {
    throw new RefusedError(
      `${record.order.reference} is a paid order (${record.order.status}), not an order request.`,
    );
  }
  return record.request;
}

/**
 * Invites payment for a request: a Checkout Session made exactly as create-checkout makes one
 * (so the paid session becomes an ordinary order through the webhook), valid for
 * PAYMENT_LINK_HOURS, its link emailed to the customer once. `requested → invited`, conditional.
 */
export async function requestPayment(
  reference: string,
  deps: ShopStripeDeps,
): Promise<{ reference: string; changed: boolean; url: string; expiresAt: string; email: SendOnceOutcome }> {
  let request = await findRequest(deps, reference);
  if (request.status === 'declined')
    throw new RefusedError(`${request.reference} was declined: no payment can be asked for it.`);
  let changed = false;
  if (request.status === 'requested') {
    const now = deps.now();
    const dispatchDate = nextDispatchDate(now, { cutoffHours: deps.cutoffHours });
    const quote = quoteOrder(request.bottles);
    const expiresAt = Math.floor(now.getTime() / 1000) + PAYMENT_LINK_HOURS * 3600;
    const params = buildSessionParams({
      input: {
        name: request.customerName,
        email: request.customerEmail,
        phone: request.customerPhone,
        address: request.deliveryAddress,
        postcode: request.postcode,
        quantity: quote.bottles === 3 || quote.bottles === 6 ? quote.bottles : 9,
        subtotal: quote.subtotalPence / 100,
        shipping: quote.shippingPence / 100,
        total: quote.totalPence / 100,
      },
      quote,
      siteUrl: deps.siteUrl,
      shopId: deps.shopId,
      clientReferenceId: `req_${request.reference}`,
      dispatchDate,
      expiresAt,
    });
    let session: { id: string; url: string | null };
    try {
      // Keyed on the request: a repeat within Stripe's 24-hour key lifetime gets the same session.
      session = await deps.stripe.checkout.sessions.create(params, {
        idempotencyKey: `request-payment-${request.reference}`,
      });
    } catch (error) {
      if (isStripeError(error) && error.type === 'StripeInvalidRequestError') {
        throw new RefusedError(
          `Stripe refused the payment link for ${request.reference}: ${error.message}. Nothing changed.`,
          { cause: error },
        );
      }
      throw error;
    }
    if (!session.url) throw new Error(`Stripe made session ${session.id} without a URL`);
    const due = emailDue('paymentInvitation');
    changed = await updateIf(deps.table, request.pk, {
      ConditionExpression: '#status = :requested',
      UpdateExpression: `SET #status = :invited, invitedAt = :now, checkoutSessionId = :session, checkoutUrl = :url, checkoutExpiresAt = :expires, dispatchDate = :day, #dayKey = :dayKey, #sort = :sk, ${due.set} REMOVE ${due.remove}`,
      ExpressionAttributeNames: {
        '#status': 'status',
        '#dayKey': DISPATCH_DATE_INDEX.partitionKey,
        '#sort': DISPATCH_DATE_INDEX.sortKey,
        ...due.names,
      },
      ExpressionAttributeValues: {
        ':requested': 'requested',
        ':invited': 'invited',
        ':now': now.toISOString(),
        ':session': session.id,
        ':url': session.url,
        ':expires': new Date(expiresAt * 1000).toISOString(),
        ':day': dispatchDate,
        ':dayKey': dispatchDayKey(dispatchDate),
        ':sk': dispatchSortKey('invited', request.createdAt, request.reference),
        ':pending': 'pending',
      },
    });
    request = await readRequest(deps, request.reference);
  }
  const { checkoutUrl, checkoutExpiresAt } = request;
  if (request.status !== 'invited' || !checkoutUrl || !checkoutExpiresAt) {
    throw new RefusedError(`${request.reference} is ${request.status}: no payment link to send.`);
  }
  const stored = request;
  const email = await sendOnce(
    stored.pk,
    'paymentInvitation',
    () => ({
      to: stored.customerEmail,
      replyTo: deps.seller.email,
      content: renderPaymentInvitation(
        stored,
        { url: checkoutUrl, expiresAt: checkoutExpiresAt, dispatchDate: stored.dispatchDate },
        deps.seller,
      ),
    }),
    deps,
  );
  if (!changed && email !== 'sent') {
    throw new RefusedError(
      `${stored.reference} was already invited to pay on ${stored.invitedAt ?? '(unknown)'}; the link (valid until ${checkoutExpiresAt}) was emailed then. Nothing sent again.`,
    );
  }
  return { reference: stored.reference, changed, url: checkoutUrl, expiresAt: checkoutExpiresAt, email };
}

/** Declines a request not yet invited to pay (`requested → declined`) and tells the customer once. */
export async function declineRequest(
  reference: string,
  deps: ShopDeps,
): Promise<{ reference: string; changed: boolean; email: SendOnceOutcome }> {
  let request = await findRequest(deps, reference);
  if (request.status === 'invited') {
    throw new RefusedError(
      `${request.reference} was already sent a payment link (valid until ${request.checkoutExpiresAt ?? 'its expiry'}); it cannot be declined now. Wait for the link to expire, or refund if it is paid.`,
    );
  }
  let changed = false;
  if (request.status === 'requested') {
    const due = emailDue('decline');
    changed = await updateIf(deps.table, request.pk, {
      ConditionExpression: '#status = :requested',
      UpdateExpression: `SET #status = :declined, declinedAt = :now, #sort = :sk, ${due.set} REMOVE ${due.remove}`,
      ExpressionAttributeNames: { '#status': 'status', '#sort': DISPATCH_DATE_INDEX.sortKey, ...due.names },
      ExpressionAttributeValues: {
        ':requested': 'requested',
        ':declined': 'declined',
        ':now': deps.now().toISOString(),
        ':sk': dispatchSortKey('declined', request.createdAt, request.reference),
        ':pending': 'pending',
      },
    });
    request = await readRequest(deps, request.reference);
  }
  const stored = request;
  const email = await sendOnce(
    stored.pk,
    'decline',
    () => ({
      to: stored.customerEmail,
      replyTo: deps.seller.email,
      content: renderDecline(stored, deps.seller),
    }),
    deps,
  );
  if (!changed && email !== 'sent') {
    throw new RefusedError(
      `${stored.reference} was already declined on ${stored.declinedAt ?? '(unknown)'}. Nothing sent again.`,
    );
  }
  return { reference: stored.reference, changed, email };
}
