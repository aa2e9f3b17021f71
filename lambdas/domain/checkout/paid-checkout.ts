import { normalisePostcode, parseUkPostcode } from '../../../shared/postcode';
import type { Quote } from '../../../shared/pricing';
import { type CheckoutCheck, checkCheckoutSession, SHOP_CURRENCY } from './checkout-check';

/** A paid session of ours whose amounts match our price table: everything an order needs. */
export interface PaidCheckout {
  sessionId: string;
  paymentIntentId: string | undefined;
  livemode: boolean;
  quote: Quote;
  currency: typeof SHOP_CURRENCY;
  customer: { name: string; email: string; phone: string; address: string; postcode: string };
  /**
   * The dispatch date the customer was shown before paying, when the session recorded it: the
   * card's, or for a payment by Bacs Direct Debit the later one given for a debit.
   */
  promisedDispatchDate: string | undefined;
  /**
   * The words Stripe's page showed by the pay button (`custom_text.submit`): the dispatch dates
   * and the live-goods no-cancellation statement the customer saw before paying.
   */
  termsShown?: string | undefined;
  /** When the customer started the checkout (the session's `created`). */
  checkoutCreatedAt: Date;
  /**
   * When Stripe recorded the payment: the PaymentIntent's latest charge's `created`, when the
   * session was retrieved with `payment_intent.latest_charge` expanded; else undefined.
   */
  paidAt?: Date | undefined;
  /**
   * What Stripe has refunded of the charge already (a refund in the Dashboard before the order was
   * recorded: its `completed` late): `full` when all of it. Absent when nothing was refunded, or
   * the charge was not expanded.
   */
  refund?: { amountPence: number; full: boolean } | undefined;
}

export type CheckoutAssessment =
  | Exclude<CheckoutCheck, { kind: 'payable' }>
  | { kind: 'payable'; checkout: PaidCheckout };

/**
 * checkCheckoutSession (ours, paid, exactly what we priced), and for a payable session the
 * checkout an order is made of.
 */
export function assessCheckoutSession(input: unknown, shopId: string): CheckoutAssessment {
  const check = checkCheckoutSession(input, shopId);
  if (check.kind !== 'payable') return check;
  const { session, details, quote, email } = check;
  const intent = typeof session.payment_intent === 'object' ? session.payment_intent : undefined;
  const charge =
    typeof intent?.latest_charge === 'object' && intent.latest_charge !== null
      ? intent.latest_charge
      : undefined;
  const paidByDebit = charge?.payment_method_details?.type === 'bacs_debit';
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
