import * as z from 'zod/mini';
import { type Quote, quoteOrder } from '../../../shared/pricing';
import { isAllowedQuantity } from '../../../shared/product';
import { ENGLISH_MESSAGES } from '../../lib/zod-messages';
import { isShopSession, orderMetadataSchema, stripeMetadataSchema } from './order-metadata';

/** The one currency the shop sells in. */
export const SHOP_CURRENCY = 'gbp';

const lineItemSchema = z.object({
  quantity: z.nullable(z.number().check(z.int())),
  amount_subtotal: z.number().check(z.int()),
  amount_total: z.number().check(z.int()),
  currency: z.string(),
  price: z.nullable(z.object({ unit_amount: z.nullable(z.number().check(z.int())) })),
});

/** The charge: `created` is when Stripe took it, its method's type the promised day, refunds what's left. */
const chargeSchema = z.object({
  created: z.number().check(z.int()),
  payment_method_details: z.optional(z.nullable(z.object({ type: z.string() }))),
  /** What has been refunded of it (pence), and whether in full: a Dashboard refund may come before our order. */
  amount_refunded: z.optional(z.number().check(z.int())),
  refunded: z.optional(z.boolean()),
});

/** Expanded `payment_intent.latest_charge`: a delayed method's turns `succeeded` days after completion. */
const paymentIntentSchema = z.object({
  id: z.string(),
  status: z.optional(z.string()),
  latest_charge: z.optional(z.nullable(z.union([z.string(), chargeSchema]))),
});

/**
 * The session fields fulfilment relies on (`line_items` expanded), parsed, not cast; statuses stay open
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
  metadata: stripeMetadataSchema,
  payment_intent: z.optional(z.nullable(z.union([z.string(), paymentIntentSchema]))),
  shipping_cost: z.optional(z.nullable(z.object({ amount_total: z.number().check(z.int()) }))),
  /** Our words by the pay button, as Stripe showed them (create-checkout-session.ts payStepMessage). */
  custom_text: z.optional(
    z.nullable(z.object({ submit: z.optional(z.nullable(z.object({ message: z.string() }))) })),
  ),
  line_items: z.optional(z.object({ data: z.array(lineItemSchema), has_more: z.boolean() })),
});

type Session = z.output<typeof sessionSchema>;
type OrderMetadata = z.output<typeof orderMetadataSchema>;

export type CheckoutCheck =
  | { kind: 'not-ours' }
  | { kind: 'not-paid'; paymentStatus: string; status: string | null }
  /** Paid, ours, but not something we priced or can post: never fulfilled automatically. */
  | { kind: 'needs-review'; problems: string[] }
  /** Paid, ours, and exactly what we priced: the parsed session and what an order is made of. */
  | { kind: 'payable'; session: Session; details: OrderMetadata; quote: Quote; email: string };

function quoteFor(quantity: number): Quote | undefined {
  return isAllowedQuantity(quantity) ? quoteOrder(quantity) : undefined;
}

/**
 * Whether a retrieved session is ours, paid and exactly what we priced (amount, currency, unit price ×
 * quantity, shipping, 3, 6 or 9 bottles): only then is there an order. Pure. Kept apart from paid-checkout.ts
 * so the status lookup's bundle carries no postcode code.
 */
export function checkCheckoutSession(input: unknown, shopId: string): CheckoutCheck {
  if (!isShopSession(input, shopId)) return { kind: 'not-ours' };

  const parsed = sessionSchema.safeParse(input, ENGLISH_MESSAGES);
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
  const details = orderMetadataSchema.safeParse(session.metadata ?? {}, ENGLISH_MESSAGES);
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
  return { kind: 'payable', session, details: details.data, quote, email };
}
