import type Stripe from 'stripe';
import {
  CHECKOUT_SESSION_ID_PATTERN,
  type CheckoutStatus,
  checkoutStatusSchema,
  orderReference,
} from '../../../shared/checkout-status';
import { quoteOrder } from '../../../shared/pricing';
import { isAllowedQuantity } from '../../../shared/product';
import { isResourceMissing, PaymentProviderError, toPaymentProviderError } from '../../lib/stripe-errors';
import { checkCheckoutSession } from './checkout-check';
import { hasShopMarker } from './order-metadata';
import { type OrderPageLookup, orderPagePathFor } from './order-page-link';

/** Malformed, unknown to Stripe, or not one of ours: all the same 404, so nothing can be probed. */
export class CheckoutSessionNotFoundError extends Error {
  constructor(readonly reason: 'malformed' | 'missing' | 'not-ours') {
    super(`Checkout Session not found (${reason})`);
    this.name = 'CheckoutSessionNotFoundError';
  }
}

export interface GetCheckoutStatusDeps {
  stripe: Stripe;
  /** SHOP_ID: a session of another deployment is not found. */
  shopId: string;
  /** To answer a placed session's order page link (ADR 0047); absent, the answer carries no link. */
  orderPages?: OrderPageLookup | undefined;
}

/**
 * What the success page may show about a session (never the customer's name, email, phone or address);
 * read-only. `paid` only when complete, paid and one fulfilment will fulfil (else `in_review`); complete and
 * unpaid with its PaymentIntent back to `requires_payment_method` or `canceled` is `failed` (the bank refused
 * the debit). `no_payment_required` reads `unpaid`: our prices never make a free session, fulfilment makes no
 * order of one, and the page must not say "Payment Successful!" for an order never fulfilled.
 * @throws CheckoutSessionNotFoundError for a malformed or unknown id, or a session without our marker.
 * @throws PaymentProviderError when Stripe fails or answers a session we cannot read.
 */
export async function getCheckoutStatus(
  sessionId: string,
  deps: GetCheckoutStatusDeps,
): Promise<CheckoutStatus> {
  if (!CHECKOUT_SESSION_ID_PATTERN.test(sessionId)) throw new CheckoutSessionNotFoundError('malformed');
  let session: Stripe.Checkout.Session;
  try {
    // The PaymentIntent tells a debit still with the bank from one the bank refused.
    session = await deps.stripe.checkout.sessions.retrieve(sessionId, {
      expand: ['line_items', 'payment_intent'],
    });
  } catch (error) {
    if (isResourceMissing(error)) throw new CheckoutSessionNotFoundError('missing');
    throw toPaymentProviderError(error);
  }
  if (!hasShopMarker(session.metadata, deps.shopId)) throw new CheckoutSessionNotFoundError('not-ours');

  const firstInvoice = standingOrderFirstInvoice(session);
  const status = firstInvoice === undefined ? statusOf(session, deps.shopId) : standingOrderStatus(session);
  // Only a placed order has a page: paid, or with the bank. The session id is the only key.
  const orderPage =
    deps.orderPages !== undefined && firstInvoice === undefined && (status === 'paid' || status === 'unpaid')
      ? await orderPagePathFor(session.id, deps.orderPages)
      : undefined;
  const answer = checkoutStatusSchema.safeParse({
    status,
    // A standing order's first delivery is the order of its first invoice, whose reference its
    // confirmation email gives (ADR 0058).
    reference: orderReference(firstInvoice ?? session.id),
    bottles: firstInvoice === undefined ? bottlesOf(session) : bottlesOfMetadata(session),
    total: session.amount_total,
    // Complete and unpaid is a Direct Debit waiting for the bank: its goods wait for the money, so
    // the day to expect is the debit's, as Stripe's page gave it, not the card's.
    dispatchDate:
      (status === 'unpaid' ? session.metadata?.debit_dispatch_date : undefined) ??
      session.metadata?.dispatch_date,
    ...(orderPage !== undefined && { orderPage }),
  });
  // Our own sessions always have these; a session that lacks them was not made by create-checkout.
  if (!answer.success) throw new PaymentProviderError({ type: 'unreadable_session' });
  return answer.data;
}

function statusOf(session: Stripe.Checkout.Session, shopId: string): CheckoutStatus['status'] {
  if (session.status === 'complete' && session.payment_status === 'paid') {
    // The same rule fulfilment applies: a paid session it will not fulfil automatically (amount,
    // currency or quantity not what we priced) is held for the merchant, not confirmed.
    return checkCheckoutSession(session, shopId).kind === 'payable' ? 'paid' : 'in_review';
  }
  if (session.status === 'expired') return 'expired';
  if (session.status === 'open') return 'open';
  if (debitRefused(session)) return 'failed';
  // Complete but not (yet) paid: a delayed payment method still settling, or no payment taken.
  return 'unpaid';
}

/**
 * Stripe leaves a refused debit's session `unpaid` with its PaymentIntent back to `requires_payment_method`
 * (or cancelled); one still with the bank is `processing`.
 */
function debitRefused(session: Stripe.Checkout.Session): boolean {
  const intent = typeof session.payment_intent === 'object' ? session.payment_intent : null;
  return intent?.status === 'requires_payment_method' || intent?.status === 'canceled';
}

/** The bottles Stripe charged for (the line items); the metadata copy only when they are absent. */
function bottlesOf(session: Stripe.Checkout.Session): number | undefined {
  const items = session.line_items?.data ?? [];
  const charged = items.reduce((sum, item) => sum + (item.quantity ?? 0), 0);
  return charged > 0 ? charged : bottlesOfMetadata(session);
}

function bottlesOfMetadata(session: Stripe.Checkout.Session): number | undefined {
  const fromMetadata = Number(session.metadata?.quantity);
  return Number.isInteger(fromMetadata) && fromMetadata > 0 ? fromMetadata : undefined;
}

/** A standing order's key: the invoice its payment made (the session's own id until paid); undefined for a one-off. */
function standingOrderFirstInvoice(session: Stripe.Checkout.Session): string | undefined {
  if (session.mode !== 'subscription') return undefined;
  const invoice = session.invoice;
  return typeof invoice === 'string' ? invoice : (invoice?.id ?? session.id);
}

/** A standing order's session is `paid` only at exactly the server's price (fulfilment's rule). */
function standingOrderStatus(session: Stripe.Checkout.Session): CheckoutStatus['status'] {
  if (session.status === 'expired') return 'expired';
  if (session.status === 'open') return 'open';
  if (session.payment_status !== 'paid') return 'unpaid';
  const bottles = bottlesOfMetadata(session);
  const priced = bottles !== undefined && isAllowedQuantity(bottles) ? quoteOrder(bottles) : undefined;
  return priced !== undefined && session.currency === 'gbp' && session.amount_total === priced.totalPence
    ? 'paid'
    : 'in_review';
}
