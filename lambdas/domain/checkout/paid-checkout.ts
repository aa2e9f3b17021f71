import { orderReference } from '../../../shared/checkout-status';
import { type IsoDate, nextDispatchDate } from '../../../shared/dispatch';
import { normalisePostcode, parseUkPostcode } from '../../../shared/postcode';
import type { Quote } from '../../../shared/pricing';
import { ACTORS, historyEntry } from '../storage/history';
import type { OrderItem } from '../storage/order';
import { dispatchDayKey, dispatchSortKey, orderKey, referenceKeyOf } from '../storage/orders-table';
import { type CheckoutCheck, checkCheckoutSession, SHOP_CURRENCY } from './checkout-check';

/** Payment methods Stripe settles at once: an order paid by one never waited for a bank. */
const IMMEDIATE_METHODS: ReadonlySet<string> = new Set(['card', 'link']);

/** A paid session of ours whose amounts match our price table: everything an order needs. */
export interface PaidCheckout {
  sessionId: string;
  paymentIntentId: string | undefined;
  livemode: boolean;
  quote: Quote;
  currency: typeof SHOP_CURRENCY;
  customer: { name: string; email: string; phone: string; address: string; postcode: string };
  /** The dispatch date shown before paying, if recorded: the card's, or the later one for a debit. */
  promisedDispatchDate: string | undefined;
  /**
   * Paid by other than a card (or Link), or a method Stripe did not name: a delayed payment that may have had
   * a pending record and page key (ADR 0047). Absent in orders made by hand (tests, seeds).
   */
  delayedPayment?: boolean | undefined;
  /** The words by Stripe's pay button (`custom_text.submit`): dispatch dates and the live-goods statement. */
  termsShown?: string | undefined;
  /** When the customer started the checkout (the session's `created`). */
  checkoutCreatedAt: Date;
  /** The latest charge's `created`, when retrieved with `payment_intent.latest_charge` expanded. */
  paidAt?: Date | undefined;
  /**
   * What Stripe refunded already (in the Dashboard, before a late `completed`): `full` when all of it. Absent
   * when nothing was, or the charge was not expanded.
   */
  refund?: { amountPence: number; full: boolean } | undefined;
}

export type CheckoutAssessment =
  | Exclude<CheckoutCheck, { kind: 'payable' }>
  | { kind: 'payable'; checkout: PaidCheckout };

/** checkCheckoutSession (ours, paid, exactly what we priced), and for a payable session its checkout. */
export function assessCheckoutSession(input: unknown, shopId: string): CheckoutAssessment {
  const check = checkCheckoutSession(input, shopId);
  if (check.kind !== 'payable') return check;
  const { session, details, quote, email } = check;
  const intent = typeof session.payment_intent === 'object' ? session.payment_intent : undefined;
  const charge =
    typeof intent?.latest_charge === 'object' && intent.latest_charge !== null
      ? intent.latest_charge
      : undefined;
  const method = charge?.payment_method_details?.type;
  const paidByDebit = method === 'bacs_debit';
  const postcode = parseUkPostcode(details.postcode);
  const termsShown = session.custom_text?.submit?.message;
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
        name: details.name,
        email,
        phone: details.phone,
        address: details.address,
        // Validated at checkout; normalise again rather than trust, and never refuse a paid order over it.
        postcode: postcode.ok ? postcode.postcode : normalisePostcode(details.postcode),
      },
      promisedDispatchDate: (paidByDebit ? details.debit_dispatch_date : undefined) ?? details.dispatch_date,
      delayedPayment: method === undefined || !IMMEDIATE_METHODS.has(method),
      ...(termsShown !== undefined && { termsShown }),
      checkoutCreatedAt: new Date(session.created * 1000),
      paidAt: charge === undefined ? undefined : new Date(charge.created * 1000),
      ...(charge?.amount_refunded !== undefined &&
        charge.amount_refunded > 0 && {
          refund: { amountPence: charge.amount_refunded, full: charge.refunded === true },
        }),
    },
  };
}

/** The shop was not taking paid checkouts when the order was recorded: its mode, and since when. */
export interface PauseMark {
  mode: 'paused' | 'requests';
  since: string | undefined;
}

export interface OrderTimes {
  /** When the order is recorded: now. */
  now: Date;
  /** The event's `created`, if known; the charge's own time comes first, `now` when Stripe told neither. */
  paidAt?: Date | undefined;
  cutoffHours: number;
  /** No day before this one (a delayed payment's promised day, ADR 0047); absent, the next from `now`. */
  earliestDispatch?: IsoDate | undefined;
}

/** Where the order's bottles were sold (lambdas/domain/capacity/session-capacity.ts). */
export interface OrderSale {
  date: IsoDate;
  hold: string;
  full?: { sold: number; capacity: number } | undefined;
}

/**
 * Maps a paid, checked Checkout Session to its order item (pure). The dispatch date is recomputed from the
 * moment the order is recorded, not taken from the metadata: a payment after the cut-off, or an order heard
 * of late, goes to the following week, as a date already past would be a broken promise. `pause`: recorded
 * while not taking paid checkouts, kept with the flag (docs/decisions/0021-orders-paid-while-paused.md).
 * `sale`: the bottles reserved (ADR 0023), sold on the order's dispatch date (moved by session-capacity.ts).
 */
export function toOrderItem(
  checkout: PaidCheckout,
  times: OrderTimes,
  pause?: PauseMark,
  sale?: OrderSale,
): OrderItem {
  const reference = orderReference(checkout.sessionId);
  const paidAt = (checkout.paidAt ?? times.paidAt ?? times.now).toISOString();
  const dispatchDate =
    sale?.date ?? times.earliestDispatch ?? nextDispatchDate(times.now, { cutoffHours: times.cutoffHours });
  const status = 'paid' as const;
  return {
    pk: orderKey(checkout.sessionId),
    reference,
    referenceKey: referenceKeyOf(reference),
    sessionId: checkout.sessionId,
    paymentIntentId: checkout.paymentIntentId,
    livemode: checkout.livemode,
    status,
    bottles: checkout.quote.bottles,
    unitPricePence: checkout.quote.unitPricePence,
    subtotalPence: checkout.quote.subtotalPence,
    shippingPence: checkout.quote.shippingPence,
    totalPence: checkout.quote.totalPence,
    currency: checkout.currency,
    customerName: checkout.customer.name,
    customerEmail: checkout.customer.email,
    customerPhone: checkout.customer.phone,
    deliveryAddress: checkout.customer.address,
    postcode: checkout.customer.postcode,
    promisedDispatchDate: checkout.promisedDispatchDate,
    ...(checkout.termsShown !== undefined && { termsShown: checkout.termsShown }),
    dispatchDate,
    checkoutCreatedAt: checkout.checkoutCreatedAt.toISOString(),
    paidAt,
    createdAt: times.now.toISOString(),
    confirmationEmailState: 'pending',
    merchantNoticeEmailState: 'pending',
    gsi1pk: dispatchDayKey(dispatchDate),
    gsi1sk: dispatchSortKey(status, paidAt, reference),
    history: [historyEntry(paidAt, ACTORS.stripe, 'paid')],
    ...(pause && {
      placedWhilePaused: true,
      pausedMode: pause.mode,
      ...(pause.since !== undefined && { pausedSince: pause.since }),
    }),
    ...(sale && {
      capacityHold: sale.hold,
      capacityDate: sale.date,
      ...(sale.full && { dispatchDayFull: sale.full }),
    }),
  };
}
