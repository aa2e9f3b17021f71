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
  const postcode = parseUkPostcode(details.postcode);
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
      promisedDispatchDate: details.dispatch_date,
      checkoutCreatedAt: new Date(session.created * 1000),
      paidAt:
        typeof intent?.latest_charge === 'object' && intent.latest_charge !== null
          ? new Date(intent.latest_charge.created * 1000)
          : undefined,
    },
  };
}
