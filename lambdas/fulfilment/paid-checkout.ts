import * as z from 'zod/mini';
import { normalisePostcode, parseUkPostcode } from '../../shared/postcode';
import { type Quote, quoteOrder } from '../../shared/pricing';
import { isAllowedQuantity } from '../../shared/product';
import { hasShopMarker } from '../lib/order-metadata';
import '../lib/zod-locale';

/** The one currency the shop sells in. */
export const SHOP_CURRENCY = 'gbp';

const metadataSchema = z.optional(z.nullable(z.record(z.string(), z.string())));

const lineItemSchema = z.object({
  quantity: z.nullable(z.number().check(z.int())),
  amount_subtotal: z.number().check(z.int()),
  amount_total: z.number().check(z.int()),
  currency: z.string(),
  price: z.nullable(z.object({ unit_amount: z.nullable(z.number().check(z.int())) })),
});

/** The charge that took the money: its `created` is when Stripe recorded the payment. */
const chargeSchema = z.object({ created: z.number().check(z.int()) });

/**
 * The session's PaymentIntent, when expanded (`payment_intent.latest_charge`): for a delayed
 * method its status turns `succeeded` when the money arrives, days after the session completed.
 */
const paymentIntentSchema = z.object({
  id: z.string(),
  status: z.optional(z.string()),
  latest_charge: z.optional(z.nullable(z.union([z.string(), chargeSchema]))),
});

/**
 * The fields of a Checkout Session (retrieved with `expand: ['line_items']`) that fulfilment
 * relies on, parsed rather than cast: this is data from outside. Status strings stay open
 * strings so a value Stripe adds later reads as "not paid", not as a crash.
 */
const sessionSchema = z.object({
  id: z.string().check(z.minLength(1)),
  object: z.literal('checkout.session'),
  livemode: z.boolean(),
  created: z.number().check(z.int()),
  status: z.nullable(z.string()),
  payment_status: z.string(),
  amount_total: z.nullable(z.number().check(z.int())),
  currency: z.nullable(z.string()),
  customer_email: z.optional(z.nullable(z.string())),
  customer_details: z.optional(z.nullable(z.object({ email: z.optional(z.nullable(z.string())) }))),
  metadata: metadataSchema,
  payment_intent: z.optional(z.nullable(z.union([z.string(), paymentIntentSchema]))),
  shipping_cost: z.optional(z.nullable(z.object({ amount_total: z.number().check(z.int()) }))),
  line_items: z.optional(z.object({ data: z.array(lineItemSchema), has_more: z.boolean() })),
});

/**
 * What create-checkout stored in metadata (lambdas/lib/order-metadata.ts), after its own
 * validation with shared/checkout-request. `phone` is absent when the customer gave none.
 */
const orderMetadataSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1)),
  phone: z._default(z.optional(z.string().check(z.trim())), ''),
  address: z.string().check(z.trim(), z.minLength(1)),
  postcode: z.string().check(z.trim(), z.minLength(1)),
  quantity: z.string().check(z.regex(/^\d{1,2}$/)),
  dispatch_date: z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/))),
});

/** A paid session of ours whose amounts match our price table: everything an order needs. */
export interface PaidCheckout {
  sessionId: string;
  paymentIntentId: string | undefined;
  livemode: boolean;
  quote: Quote;
  currency: typeof SHOP_CURRENCY;
  customer: { name: string; email: string; phone: string; address: string; postcode: string };
  /** The dispatch date the customer was shown before paying, when the session recorded it. */
  promisedDispatchDate: string | undefined;
  /** When the customer started the checkout (the session's `created`). */
  checkoutCreatedAt: Date;
  /**
   * When Stripe recorded the payment: the PaymentIntent's latest charge's `created`, when the
   * session was retrieved with `payment_intent.latest_charge` expanded; else undefined.
   */
  paidAt?: Date | undefined;
}

export type CheckoutAssessment =
  | { kind: 'not-ours' }
  | { kind: 'not-paid'; paymentStatus: string; status: string | null }
  /** Paid, ours, but not something we priced or can post: never fulfilled automatically. */
  | { kind: 'needs-review'; problems: string[] }
  | { kind: 'payable'; checkout: PaidCheckout };

function quoteFor(quantity: number): Quote | undefined {
  return isAllowedQuantity(quantity) ? quoteOrder(quantity) : undefined;
}

/**
 * Decides, from a Checkout Session retrieved from Stripe with its line items, whether it is ours,
 * paid, and exactly what we priced (amount, currency, unit price × quantity, shipping, quantity of
 * 3, 6 or 9): Invariant 1 of docs/payments-and-reliability. Pure: no I/O, so every rule is a unit test.
 */
export function assessCheckoutSession(input: unknown, shopId: string): CheckoutAssessment {
  const metadata = metadataSchema.safeParse(
    typeof input === 'object' && input !== null && 'metadata' in input ? input.metadata : undefined,
  );
  if (!metadata.success || !hasShopMarker(metadata.data, shopId)) return { kind: 'not-ours' };

  const parsed = sessionSchema.safeParse(input);
  if (!parsed.success) {
    return {
      kind: 'needs-review',
      problems: parsed.error.issues.map((i) => `session.${i.path.join('.')}: ${i.message}`),
    };
  }
  const session = parsed.data;
  const intent = typeof session.payment_intent === 'object' ? session.payment_intent : undefined;
  // A delayed method (Bacs Direct Debit) completes the session unpaid; when the money arrives its
  // PaymentIntent succeeds. Either says the money is ours.
  const paid =
    session.payment_status === 'paid' || (session.status === 'complete' && intent?.status === 'succeeded');
  if (!paid) {
    return { kind: 'not-paid', paymentStatus: session.payment_status, status: session.status };
  }

  const problems: string[] = [];
  const details = orderMetadataSchema.safeParse(session.metadata ?? {});
  if (!details.success)
    problems.push(...details.error.issues.map((i) => `metadata.${i.path.join('.')}: ${i.message}`));

  const items = session.line_items;
  const item = items?.data[0];
  if (!items || !item || items.data.length !== 1 || items.has_more) {
    problems.push(`expected exactly one line item, got ${items ? items.data.length : 'none'}`);
  }
  const quantity = item?.quantity ?? Number.NaN;
  const quote = quoteFor(quantity);
  if (!quote) problems.push(`quantity ${quantity} is not 3, 6 or 9`);
  if (details.success && Number(details.data.quantity) !== quantity) {
    problems.push(`metadata quantity ${details.data.quantity} differs from line item quantity ${quantity}`);
  }
  if (session.currency !== SHOP_CURRENCY)
    problems.push(`currency ${session.currency} is not ${SHOP_CURRENCY}`);
  if (item && item.currency !== SHOP_CURRENCY) problems.push(`line item currency ${item.currency}`);
  if (quote && item) {
    if (item.price?.unit_amount !== quote.unitPricePence) {
      problems.push(`unit amount ${item.price?.unit_amount} is not ${quote.unitPricePence}`);
    }
    if (item.amount_total !== quote.subtotalPence) {
      problems.push(`line item total ${item.amount_total} is not ${quote.subtotalPence}`);
    }
  }
  if (quote && session.shipping_cost?.amount_total !== quote.shippingPence) {
    problems.push(`shipping ${session.shipping_cost?.amount_total} is not ${quote.shippingPence}`);
  }
  if (quote && session.amount_total !== quote.totalPence) {
    problems.push(`amount_total ${session.amount_total} is not ${quote.totalPence}`);
  }
  const email = session.customer_details?.email ?? session.customer_email ?? undefined;
  if (!email) problems.push('no customer email');

  if (problems.length > 0 || !details.success || !quote || !email) {
    return { kind: 'needs-review', problems };
  }
  const postcode = parseUkPostcode(details.data.postcode);
  return {
    kind: 'payable',
    checkout: {
      sessionId: session.id,
      paymentIntentId:
        typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id,
      livemode: session.livemode,
      quote,
      currency: SHOP_CURRENCY,
      customer: {
        name: details.data.name,
        email,
        phone: details.data.phone,
        address: details.data.address,
        // Validated at checkout; normalise again rather than trust, and never refuse a paid order over it.
        postcode: postcode.ok ? postcode.postcode : normalisePostcode(details.data.postcode),
      },
      promisedDispatchDate: details.data.dispatch_date,
      checkoutCreatedAt: new Date(session.created * 1000),
      paidAt:
        typeof intent?.latest_charge === 'object' && intent.latest_charge !== null
          ? new Date(intent.latest_charge.created * 1000)
          : undefined,
    },
  };
}
