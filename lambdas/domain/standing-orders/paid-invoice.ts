import * as z from 'zod/mini';
import { type IsoDate, nextDispatchDate } from '../../../shared/dispatch';
import { normalisePostcode, parseUkPostcode } from '../../../shared/postcode';
import { quoteOrder } from '../../../shared/pricing';
import { ALLOWED_QUANTITIES, isAllowedQuantity } from '../../../shared/product';
import {
  REPEATS,
  type Repeat,
  standingDeliveryDay,
  standingDeliveryIndex,
} from '../../../shared/standing-order';
import { ENGLISH_MESSAGES } from '../../lib/zod-messages';
import { SHOP_CURRENCY } from '../checkout/checkout-check';
import { hasShopMarker, orderMetadataSchema, stripeMetadataSchema } from '../checkout/order-metadata';
import type { PaidCheckout } from '../checkout/paid-checkout';
import { REPEAT_KEY } from '../standing-deliveries/subscription-session';

const idOrObject = z.union([z.string(), z.object({ id: z.string() })]);

/**
 * Parsed, not cast. The subscription is under `parent.subscription_details` in our API version;
 * `subscription` before.
 */
const invoiceSchema = z.object({
  id: z.string().check(z.minLength(1)),
  livemode: z.boolean(),
  status: z.nullable(z.string()),
  currency: z.string(),
  amount_paid: z.number().check(z.int()),
  billing_reason: z.optional(z.nullable(z.string())),
  created: z.number().check(z.int()),
  customer: z.optional(z.nullable(idOrObject)),
  customer_email: z.optional(z.nullable(z.string())),
  status_transitions: z.optional(z.object({ paid_at: z.optional(z.nullable(z.number().check(z.int()))) })),
  subscription: z.optional(z.nullable(idOrObject)),
  parent: z.optional(
    z.nullable(
      z.object({
        subscription_details: z.optional(z.nullable(z.object({ subscription: idOrObject }))),
      }),
    ),
  ),
});
export type ParsedInvoice = z.output<typeof invoiceSchema>;

/** The subscription's metadata: the one-off order's (order-metadata.ts) plus the repeat. */
const standingMetadataSchema = z.extend(orderMetadataSchema, { [REPEAT_KEY]: z.enum(REPEATS) });

const subscriptionSchema = z.object({
  id: z.string().check(z.minLength(1)),
  status: z.string(),
  metadata: stripeMetadataSchema,
  /** When the subscription began: its first payment's moment, from which each period counts. */
  start_date: z.optional(z.number().check(z.int())),
  /** The next payment: top level in older API versions, on each item in the SDK's. */
  current_period_end: z.optional(z.number().check(z.int())),
  items: z.optional(
    z.object({ data: z.array(z.object({ current_period_end: z.optional(z.number().check(z.int())) })) }),
  ),
});

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : value?.id;

/** The invoice's subscription id, wherever the API version puts it; undefined for an invoice of none. */
export function invoiceSubscriptionId(input: unknown): string | undefined {
  const parsed = invoiceSchema.safeParse(input);
  if (!parsed.success) return undefined;
  return idOf(parsed.data.parent?.subscription_details?.subscription) ?? idOf(parsed.data.subscription);
}

/** The invoice's customer id (for its email when the invoice carries none). */
export function invoiceCustomerId(input: unknown): string | undefined {
  const parsed = invoiceSchema.safeParse(input);
  return parsed.success ? idOf(parsed.data.customer) : undefined;
}

/** A paid invoice of ours for exactly our price: the order it makes, and its standing order's facts. */
export interface PaidInvoice {
  /** The order's facts, as a one-off's: `sessionId` is the invoice id, the order's key. */
  checkout: PaidCheckout;
  subscriptionId: string;
  repeat: Repeat;
  /** The checkout's own payment (`subscription_create`): its bottles were reserved by the checkout. */
  first: boolean;
  paidAt: Date;
  /** The subscription's metadata as Stripe holds it: the checkout's reservation is read from it. */
  subscriptionMetadata: Readonly<Record<string, string>>;
  /** When the next payment is due (the subscription's period end), when Stripe said. */
  nextPaymentAt: Date | undefined;
  /** The first delivery's day (absent from a session made without one) and this one's index (0 the first). */
  delivery: { first: IsoDate | undefined; index: number };
}

export type InvoiceAssessment =
  | { kind: 'not-ours' }
  | { kind: 'not-paid'; status: string }
  | { kind: 'needs-review'; problems: string[] }
  | { kind: 'payable'; invoice: PaidInvoice };

/**
 * The subscription's `quantity`, unless a renewal was charged at exactly our price for the quantity before a
 * later change (its event arriving after it): then that one, so the money taken still makes its order.
 */
function billedQuantity(planned: number, invoice: ParsedInvoice): number {
  if (invoice.billing_reason === 'subscription_create' || !isAllowedQuantity(planned)) return planned;
  const charged = ALLOWED_QUANTITIES.find(
    (bottles) => isAllowedQuantity(bottles) && quoteOrder(bottles).totalPence === invoice.amount_paid,
  );
  return charged ?? planned;
}

/**
 * Whether an invoice and its subscription are a paid payment of our standing order at exactly our price
 * (bottles x 325 + 495 pence). Pure. `email`: the invoice's, else its customer's.
 */
export function assessInvoice(
  invoiceInput: unknown,
  subscriptionInput: unknown,
  shopId: string,
  email?: string | undefined,
): InvoiceAssessment {
  const subscription = subscriptionSchema.safeParse(subscriptionInput, ENGLISH_MESSAGES);
  if (!subscription.success || !hasShopMarker(subscription.data.metadata, shopId))
    return { kind: 'not-ours' };
  const parsed = invoiceSchema.safeParse(invoiceInput, ENGLISH_MESSAGES);
  if (!parsed.success) return { kind: 'needs-review', problems: issues('invoice', parsed.error.issues) };
  const invoice = parsed.data;
  if (invoice.status !== 'paid') return { kind: 'not-paid', status: invoice.status ?? 'none' };
  const metadata = standingMetadataSchema.safeParse(subscription.data.metadata ?? {}, ENGLISH_MESSAGES);
  if (!metadata.success) return { kind: 'needs-review', problems: issues('metadata', metadata.error.issues) };
  const quantity = billedQuantity(Number(metadata.data.quantity), invoice);
  const problems: string[] = [];
  if (invoiceSubscriptionId(invoice) !== subscription.data.id)
    problems.push('invoice of another subscription');
  if (!isAllowedQuantity(quantity)) problems.push(`quantity ${quantity} is not 3, 6 or 9`);
  const quote = isAllowedQuantity(quantity) ? quoteOrder(quantity) : undefined;
  if (invoice.currency !== SHOP_CURRENCY)
    problems.push(`currency ${invoice.currency} is not ${SHOP_CURRENCY}`);
  if (quote && invoice.amount_paid !== quote.totalPence) {
    problems.push(`amount_paid ${invoice.amount_paid} is not ${quote.totalPence}`);
  }
  const customerEmail = invoice.customer_email ?? email;
  if (!customerEmail) problems.push('no customer email');
  if (problems.length > 0 || !quote || !customerEmail) return { kind: 'needs-review', problems };
  const details = metadata.data;
  const paidAt = new Date((invoice.status_transitions?.paid_at ?? invoice.created) * 1000);
  const first = invoice.billing_reason === 'subscription_create';
  const postcode = parseUkPostcode(details.postcode);
  const periodEnd =
    subscription.data.current_period_end ?? subscription.data.items?.data[0]?.current_period_end;
  return {
    kind: 'payable',
    invoice: {
      checkout: {
        sessionId: invoice.id,
        paymentIntentId: undefined,
        livemode: invoice.livemode,
        quote,
        currency: SHOP_CURRENCY,
        customer: {
          name: details.name,
          email: customerEmail,
          phone: details.phone,
          address: details.address,
          postcode: postcode.ok ? postcode.postcode : normalisePostcode(details.postcode),
        },
        // Only the first payment was shown a day before paying: the checkout's.
        promisedDispatchDate: first ? details.dispatch_date : undefined,
        delayedPayment: false,
        checkoutCreatedAt: new Date(invoice.created * 1000),
        paidAt,
      },
      subscriptionId: subscription.data.id,
      repeat: details[REPEAT_KEY],
      first,
      paidAt,
      subscriptionMetadata: subscription.data.metadata ?? {},
      nextPaymentAt: periodEnd === undefined ? undefined : new Date(periodEnd * 1000),
      delivery: {
        first: details.dispatch_date,
        index: first
          ? 0
          : standingDeliveryIndex(
              subscription.data.start_date ?? invoice.created,
              invoice.created,
              details[REPEAT_KEY],
            ),
      },
    },
  };
}

/**
 * Its delivery's own week (standingDeliveryDay), or when recorded after that day's cut-off (a late event, the
 * reconciler) the first day an order recorded now can go: never a day already packed.
 */
export function invoiceDispatchDay(
  paid: Pick<PaidInvoice, 'paidAt' | 'repeat' | 'delivery'>,
  now: Date,
  cutoffHours: number,
): IsoDate {
  const { first, index } = paid.delivery;
  const due =
    first === undefined
      ? nextDispatchDate(paid.paidAt, { cutoffHours })
      : standingDeliveryDay({ first, repeat: paid.repeat, index, paidAt: paid.paidAt }, { cutoffHours });
  const nowDay = nextDispatchDate(now, { cutoffHours });
  // ISO dates compare as strings.
  return due.localeCompare(nowDay) > 0 ? due : nowDay;
}

function issues(prefix: string, list: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string[] {
  return list.map((issue) => `${prefix}.${issue.path.map(String).join('.')}: ${issue.message}`);
}
