import type Stripe from 'stripe';
import type { CheckoutRequest } from '../../../shared/checkout-request';
import { formatDispatchDate, type IsoDate } from '../../../shared/dispatch';
import { NO_CANCELLATION_STATEMENT } from '../../../shared/live-animals';
import { formatGbp, type Quote } from '../../../shared/pricing';
import { DAPHNIA, PRODUCT_NAME } from '../../../shared/product';
import { REPEAT_WEEKS, type Repeat } from '../../../shared/standing-order';

/** The metadata key of a standing order's repeat, on its session and its subscription. */
export const REPEAT_KEY = 'repeat';

/** Refused in requests mode: a request is priced once, by hand; a standing order pays by itself. */
export const STANDING_ORDER_IN_REQUESTS_MODE =
  'Standing orders are not taken while the shop takes order requests. Please choose "Once" to send a request.';

/** Stripe's name of the delivery line on every payment of a standing order. */
export const DELIVERY_LINE_NAME = 'UK delivery by Royal Mail 1st Class';

/**
 * A standing order's session parameters when the body asked for a repeat (issue 50, ADR 0058), else the
 * one-off's untouched: subscription mode, card only (a Bacs debit settles after the cut-off), the server's
 * price as recurring lines, the one-off's metadata with the repeat on session and subscription. Pure.
 */
export function withStandingOrder(
  params: Stripe.Checkout.SessionCreateParams,
  input: Pick<CheckoutRequest, 'repeat'>,
  quote: Quote,
  dispatchDate: IsoDate,
): Stripe.Checkout.SessionCreateParams {
  const { repeat } = input;
  if (repeat === undefined) return params;
  const recurring = { interval: 'week' as const, interval_count: REPEAT_WEEKS[repeat] };
  const metadata = { ...params.metadata, [REPEAT_KEY]: repeat };
  // shipping_options and payment_intent_data are payment mode's only: the delivery is a line here.
  const { shipping_options: _shipping, payment_intent_data: _intent, ...common } = params;
  return {
    ...common,
    mode: 'subscription',
    // Card only: a Bacs debit settles days later, after the delivery's packing cut-off.
    allowed_payment_method_types: ['card'],
    line_items: [
      {
        price_data: {
          currency: 'gbp',
          unit_amount: quote.unitPricePence,
          recurring,
          product_data: {
            name: `${PRODUCT_NAME} (${DAPHNIA.bottleSize} bottle)`,
            description: `About ${DAPHNIA.countMin}-${DAPHNIA.countMax} live ${DAPHNIA.unit} per bottle.`,
          },
        },
        quantity: quote.bottles,
      },
      {
        price_data: {
          currency: 'gbp',
          unit_amount: quote.shippingPence,
          recurring,
          product_data: { name: DELIVERY_LINE_NAME },
        },
        quantity: 1,
      },
    ],
    metadata,
    subscription_data: {
      metadata,
      description: `${quote.bottles} x ${PRODUCT_NAME} (${DAPHNIA.bottleSize}) ${REPEAT_PHRASE[repeat]}`,
    },
    custom_text: { submit: { message: standingPayStepMessage(dispatchDate, repeat, quote.totalPence) } },
  };
}

const REPEAT_PHRASE: Readonly<Record<Repeat, string>> = {
  weekly: 'every week',
  fortnightly: 'every 2 weeks',
};

/**
 * The first dispatch day, each payment's cost and when it is taken (same weekday and time, so before that
 * delivery's cut-off), the weather caveat and the live-goods statement.
 */
export function standingPayStepMessage(dispatchDate: IsoDate, repeat: Repeat, totalPence: number): string {
  return [
    `First dispatch on ${formatDispatchDate(dispatchDate)} by Royal Mail 1st Class; most orders arrive the next day.`,
    `Then ${formatGbp(totalPence)} is taken from your card ${REPEAT_PHRASE[repeat]} at this time of day, each payment dispatched on the next dispatch day, until you cancel.`,
    'Freezing or extreme weather can delay dispatch.',
    NO_CANCELLATION_STATEMENT,
  ].join(' ');
}
