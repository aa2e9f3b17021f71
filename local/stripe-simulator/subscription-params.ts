import type Stripe from 'stripe';
import { z } from 'zod';
import { invalidRequest } from './errors';
import type { FormObject } from './form-body';
import type { SessionInput } from './objects';
import {
  createdFilter,
  createSessionSchema,
  currency,
  expand,
  hash,
  integer,
  list,
  metadata,
  oneOf,
  optionalHash,
  SESSION_EXPANSIONS,
  sessionCurrency,
  sessionInputOf,
  text,
} from './params';

/*
 * The parameters of Stripe Billing's endpoints the simulator answers (standing orders, issue 50),
 * checked as params.ts checks the one-off checkout's: a parameter not named here is refused.
 */

const session = createSessionSchema.shape;

/** A line of a subscription's Checkout Session: `price_data` with `recurring`. */
const recurringLine = hash({
  price_data: hash({
    currency,
    unit_amount: integer({ min: 1, max: 99_999_999 }),
    product_data: hash({ name: text(), description: text(40_000).optional() }),
    recurring: hash({
      interval: oneOf(['day', 'week', 'month', 'year']),
      interval_count: integer({ min: 1, max: 156 }).optional(),
    }).optional(),
  }),
  quantity: integer({ min: 1, max: 999 }),
});

/**
 * `POST /v1/checkout/sessions` with `mode=subscription`. The simulator's page takes a subscription
 * by card alone, so the session must say so (`allowed_payment_method_types[]=card`): at Stripe,
 * without it, the account's other methods (a Bacs debit) would be offered too.
 */
export const createSubscriptionSessionSchema = z.strictObject({
  mode: oneOf(['subscription']),
  allowed_payment_method_types: list(oneOf(['card', 'bacs_debit'])),
  currency: session.currency,
  locale: session.locale,
  line_items: list(recurringLine),
  customer_email: session.customer_email,
  client_reference_id: session.client_reference_id,
  metadata,
  subscription_data: optionalHash({ metadata, description: text(500).optional() }),
  expires_at: session.expires_at,
  success_url: session.success_url,
  cancel_url: session.cancel_url,
  custom_text: session.custom_text,
  expand: expand(SESSION_EXPANSIONS),
});
export type CreateSubscriptionSessionParams = z.output<typeof createSubscriptionSessionSchema>;

/** What a subscription's session carries to the subscription its payment makes. */
export interface SubscriptionData {
  metadata: Stripe.Metadata;
  description: string | null;
}

/**
 * A one-off checkout's parameters sent with `mode=subscription` are refused on `mode`, as the
 * simulator always refused that mode for them: the shop sent the wrong mode, not a wrong line.
 */
export function refuseOneOffParamsInSubscriptionMode(form: FormObject): void {
  const oneOff = ['shipping_options', 'payment_intent_data'].filter((key) => form[key] !== undefined);
  if (oneOff.length > 0) {
    throw invalidRequest(
      `The Stripe simulator supports only mode=payment for ${oneOff.join(' and ')}; mode=subscription takes recurring line items and subscription_data.`,
      { param: 'mode' },
    );
  }
}

/** The checks across parameters of a subscription's session, and the session they describe. */
export function subscriptionSessionInput(
  params: CreateSubscriptionSessionParams,
  now: number,
): { input: SessionInput; subscriptionData: SubscriptionData } {
  const lineItems = params.line_items ?? [];
  if (lineItems.length === 0) {
    throw invalidRequest('Missing required param: line_items.', {
      param: 'line_items',
      code: 'parameter_missing',
    });
  }
  const methods = params.allowed_payment_method_types ?? [];
  if (methods.length !== 1 || methods[0] !== 'card') {
    throw invalidRequest(
      'The Stripe simulator takes subscriptions by card only: send allowed_payment_method_types[]=card.',
      { param: 'allowed_payment_method_types' },
    );
  }
  const currency = sessionCurrency(params.currency, lineItems);
  const recurring = sharedRecurring(lineItems);
  return {
    input: { ...sessionInputOf(params, lineItems, now), currency, shipping: null, recurring },
    subscriptionData: {
      metadata: params.subscription_data?.metadata ?? {},
      description: params.subscription_data?.description ?? null,
    },
  };
}

/** Every line recurs, on the same interval (Stripe's rule), and the simulator's is weekly. */
function sharedRecurring(
  lineItems: CreateSubscriptionSessionParams['line_items'] & object,
): NonNullable<SessionInput['recurring']> {
  const intervals = lineItems.map(({ price_data: price }, index) => {
    const { recurring } = price;
    if (recurring === undefined) {
      throw invalidRequest(
        'The Stripe simulator supports only recurring prices in mode=subscription: give every line price_data[recurring].',
        { param: `line_items[${index}][price_data][recurring]` },
      );
    }
    if (recurring.interval !== 'week') {
      throw invalidRequest('The Stripe simulator supports only recurring[interval]=week.', {
        param: `line_items[${index}][price_data][recurring][interval]`,
      });
    }
    return recurring.interval_count ?? 1;
  });
  const [intervalCount = 1] = intervals;
  if (intervals.some((count) => count !== intervalCount)) {
    throw invalidRequest(
      'All prices on a subscription must have the same `recurring.interval` and `recurring.interval_count`.',
      { param: 'line_items' },
    );
  }
  return { interval: 'week', intervalCount };
}

/** `pause_collection`: a hash, or `''` to clear it. */
const pauseCollection = z.union([
  z.literal(''),
  hash({
    behavior: oneOf(['keep_as_draft', 'mark_uncollectible', 'void']),
    resumes_at: integer().optional(),
  }),
]);

/** Metadata on update: `metadata=''` clears it, `metadata[key]=''` removes one key. */
const metadataUpdate = z
  .union([
    z.literal(''),
    z.record(z.string(), z.string({ error: 'Invalid metadata: values must be strings' })),
  ])
  .optional();

export const SUBSCRIPTION_EXPANSIONS = ['customer', 'latest_invoice'];

export const updateSubscriptionSchema = z.strictObject({
  pause_collection: pauseCollection.optional(),
  cancel_at_period_end: oneOf(['true', 'false']).optional(),
  metadata: metadataUpdate,
  items: list(hash({ id: text(), quantity: integer({ min: 0, max: 999 }).optional() })),
  proration_behavior: oneOf(['always_invoice', 'create_prorations', 'none']).optional(),
  expand: expand(SUBSCRIPTION_EXPANSIONS),
});
export type UpdateSubscriptionParams = z.output<typeof updateSubscriptionSchema>;

export const cancelSubscriptionSchema = z.strictObject({
  invoice_now: oneOf(['true', 'false']).optional(),
  prorate: oneOf(['true', 'false']).optional(),
  expand: expand(SUBSCRIPTION_EXPANSIONS),
});

const cursor = { limit: integer({ min: 1, max: 100 }).optional(), starting_after: text().optional() };

export const listSubscriptionsSchema = z.strictObject({
  customer: text().optional(),
  status: oneOf([
    'active',
    'all',
    'canceled',
    'ended',
    'incomplete',
    'incomplete_expired',
    'past_due',
    'paused',
    'trialing',
    'unpaid',
  ]).optional(),
  created: createdFilter,
  ...cursor,
  expand: expand(SUBSCRIPTION_EXPANSIONS.map((path) => `data.${path}`)),
});

export const INVOICE_EXPANSIONS = ['customer', 'parent.subscription_details.subscription', 'payments'];

export const listInvoicesSchema = z.strictObject({
  customer: text().optional(),
  subscription: text().optional(),
  status: oneOf(['draft', 'open', 'paid', 'uncollectible', 'void']).optional(),
  created: createdFilter,
  ...cursor,
  expand: expand(INVOICE_EXPANSIONS.map((path) => `data.${path}`)),
});

export const createCustomerSchema = z.strictObject({
  email: session.customer_email,
  name: text(256).optional(),
  description: text().optional(),
  metadata,
  test_clock: text().optional(),
  expand: expand([]),
});

export const createTestClockSchema = z.strictObject({
  frozen_time: integer(),
  name: text(300).optional(),
  expand: expand([]),
});

export const advanceTestClockSchema = z.strictObject({ frozen_time: integer(), expand: expand([]) });
