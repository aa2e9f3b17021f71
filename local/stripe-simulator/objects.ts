/**
 * Builders for every object the simulator answers with, each typed as the `stripe` package's own
 * type, so a field the SDK says Stripe always sends cannot be left out. Fields this shop's
 * Checkout in `payment` mode never fills are present as Stripe sends them then: `null`, `[]` or
 * `false`. Objects are never mutated once built; a change makes a new object.
 */
import Stripe from 'stripe';
import { newId } from './ids';

export type PaymentMethodType = 'card' | 'bacs_debit';

export type LineItemRecord = Omit<Stripe.LineItem, 'price' | 'quantity'> & {
  price: Stripe.Price & { unit_amount: number };
  quantity: number;
};

/**
 * A stored Checkout Session: the SDK's type, narrowed where the simulator always fills a field,
 * and with `line_items` always present (as `expand[]=line_items` shows it). The API and events
 * leave `line_items` out unless expanded, exactly like Stripe.
 */
export type CheckoutSessionRecord = Omit<Stripe.Checkout.Session, NarrowedSessionField> & {
  amount_subtotal: number;
  amount_total: number;
  currency: string;
  metadata: Stripe.Metadata;
  status: Stripe.Checkout.Session.Status;
  line_items: Stripe.ApiList<LineItemRecord>;
};

type NarrowedSessionField =
  | 'amount_subtotal'
  | 'amount_total'
  | 'currency'
  | 'metadata'
  | 'status'
  | 'line_items';

export interface SessionInput {
  currency: string;
  lineItems: Array<{ name: string; description: string | null; unitAmount: number; quantity: number }>;
  shipping: { displayName: string; amount: number } | null;
  customerEmail: string | null;
  locale: string | null;
  clientReferenceId: string | null;
  metadata: Stripe.Metadata;
  expiresAt: number;
  successUrl: string | null;
  cancelUrl: string | null;
  submitMessage: string | null;
  /** Subscription mode: every line's price recurs every `intervalCount` weeks, and only cards pay. */
  recurring?: { interval: 'week'; intervalCount: number };
}

export interface BuiltSession {
  session: CheckoutSessionRecord;
  products: Stripe.Product[];
  shippingRate: Stripe.ShippingRate | null;
}

/**
 * A new open session. Stripe makes a Product and a Price for each `price_data` line and a
 * ShippingRate for `shipping_rate_data`, and prices the session from those alone.
 */
export function buildSession(
  input: SessionInput,
  now: number,
  payPageUrl: (id: string) => string,
): BuiltSession {
  const id = newId.session();
  const { lineItems, products } = buildLineItems(input, now);
  const subtotal = lineItems.reduce((sum, item) => sum + item.amount_subtotal, 0);
  const shippingRate = input.shipping && buildShippingRate(input.shipping, input.currency, now);
  const shipping = input.shipping?.amount ?? 0;
  const session: CheckoutSessionRecord = {
    id,
    object: 'checkout.session',
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: null,
    amount_subtotal: subtotal,
    amount_total: subtotal + shipping,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: input.cancelUrl,
    client_reference_id: input.clientReferenceId,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: now,
    currency: input.currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: customText(input.submitMessage),
    customer: null,
    customer_account: null,
    customer_creation: 'if_required',
    customer_details: null,
    customer_email: input.customerEmail,
    discounts: [],
    expires_at: input.expiresAt,
    integration_identifier: null,
    invoice: null,
    invoice_creation: null,
    line_items: {
      object: 'list',
      data: lineItems,
      has_more: false,
      url: `/v1/checkout/sessions/${id}/line_items`,
    },
    livemode: false,
    locale: input.locale,
    managed_payments: null,
    metadata: input.metadata,
    mode: input.recurring === undefined ? 'payment' : 'subscription',
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: 'if_required',
    payment_method_configuration_details: null,
    payment_method_options: null,
    // A card, and Bacs Direct Debit (settles days later); a subscription here takes cards only.
    payment_method_types: input.recurring === undefined ? ['card', 'bacs_debit'] : ['card'],
    payment_status: 'unpaid',
    permissions: null,
    phone_number_collection: { enabled: false },
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    ...shippingFields(shippingRate, shipping),
    status: 'open',
    submit_type: null,
    subscription: null,
    success_url: input.successUrl,
    total_details: { amount_discount: 0, amount_shipping: shipping, amount_tax: 0 },
    ui_mode: 'hosted_page',
    url: payPageUrl(id),
    wallet_options: null,
  };
  return { session, products, shippingRate };
}

/** The session's line items, each with the product and price Stripe makes from its price_data. */
function buildLineItems(
  input: SessionInput,
  now: number,
): { lineItems: LineItemRecord[]; products: Stripe.Product[] } {
  const products: Stripe.Product[] = [];
  const lineItems = input.lineItems.map((item): LineItemRecord => {
    const product = buildProduct(item.name, item.description, now);
    products.push(product);
    const amount = item.unitAmount * item.quantity;
    return {
      id: newId.lineItem(),
      object: 'item',
      adjustable_quantity: null,
      amount_discount: 0,
      amount_subtotal: amount,
      amount_tax: 0,
      amount_total: amount,
      currency: input.currency,
      description: item.name,
      metadata: {},
      price: buildPrice(product.id, item.unitAmount, input.currency, now, input.recurring),
      quantity: item.quantity,
    };
  });
  return { lineItems, products };
}

/** The texts the hosted page shows: only the one above the pay button is ever set. */
function customText(submitMessage: string | null): CheckoutSessionRecord['custom_text'] {
  return {
    after_submit: null,
    shipping_address: null,
    submit: submitMessage === null ? null : { message: submitMessage },
    terms_of_service_acceptance: null,
  };
}

/** What a session says of its one shipping rate: its cost and the option offered. */
function shippingFields(
  shippingRate: Stripe.ShippingRate | null,
  shipping: number,
): Pick<CheckoutSessionRecord, 'shipping_cost' | 'shipping_options'> {
  return {
    shipping_cost:
      shippingRate === null
        ? null
        : {
            amount_subtotal: shipping,
            amount_tax: 0,
            amount_total: shipping,
            shipping_rate: shippingRate.id,
          },
    shipping_options:
      shippingRate === null ? [] : [{ shipping_amount: shipping, shipping_rate: shippingRate.id }],
  };
}

function buildProduct(name: string, description: string | null, now: number): Stripe.Product {
  return {
    id: newId.product(),
    object: 'product',
    active: false,
    created: now,
    description,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: {},
    name,
    package_dimensions: null,
    shippable: null,
    tax_details: null,
    type: 'service',
    updated: now,
    url: null,
  };
}

function buildPrice(
  product: string,
  unitAmount: number,
  currency: string,
  now: number,
  recurring?: SessionInput['recurring'],
): LineItemRecord['price'] {
  return {
    id: newId.price(),
    object: 'price',
    active: false,
    billing_scheme: 'per_unit',
    created: now,
    currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: null,
    metadata: {},
    nickname: null,
    product,
    recurring:
      recurring === undefined
        ? null
        : {
            interval: recurring.interval,
            interval_count: recurring.intervalCount,
            meter: null,
            trial_period_days: null,
            usage_type: 'licensed',
          },
    tax_behavior: 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: recurring === undefined ? 'one_time' : 'recurring',
    unit_amount: unitAmount,
    unit_amount_decimal: Stripe.Decimal.from(unitAmount),
  };
}

function buildShippingRate(
  { displayName, amount }: { displayName: string; amount: number },
  currency: string,
  now: number,
): Stripe.ShippingRate {
  return {
    id: newId.shippingRate(),
    object: 'shipping_rate',
    active: false,
    created: now,
    delivery_estimate: null,
    display_name: displayName,
    fixed_amount: { amount, currency },
    livemode: false,
    metadata: {},
    tax_behavior: 'unspecified',
    tax_code: null,
    type: 'fixed_amount',
  };
}

export function buildPaymentIntent(
  session: CheckoutSessionRecord,
  data: { metadata: Stripe.Metadata; description: string | null },
  method: PaymentMethodType,
  now: number,
): Stripe.PaymentIntent {
  return paymentIntentOf(
    {
      amount: session.amount_total,
      capture_method: 'automatic_async',
      currency: session.currency,
      description: data.description,
      metadata: data.metadata,
      payment_method_types: [method],
      status: 'processing',
    },
    now,
  );
}

/** What a PaymentIntent's maker decides; the rest is as Stripe leaves it for the shop's payments. */
export type PaymentIntentFields = Pick<
  Stripe.PaymentIntent,
  'amount' | 'capture_method' | 'currency' | 'description' | 'metadata' | 'payment_method_types' | 'status'
> &
  Partial<
    Pick<Stripe.PaymentIntent, 'amount_received' | 'customer' | 'last_payment_error' | 'setup_future_usage'>
  >;

/** A PaymentIntent, a checkout's or a subscription invoice's, with Stripe's fields in Stripe's order. */
export function paymentIntentOf(fields: PaymentIntentFields, now: number): Stripe.PaymentIntent {
  return {
    id: newId.paymentIntent(),
    object: 'payment_intent',
    allowed_payment_method_types: null,
    amount: fields.amount,
    amount_capturable: 0,
    amount_received: fields.amount_received ?? 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: fields.capture_method,
    client_secret: null,
    confirmation_method: 'automatic',
    created: now,
    currency: fields.currency,
    customer: fields.customer ?? null,
    customer_account: null,
    description: fields.description,
    excluded_payment_method_types: null,
    last_payment_error: fields.last_payment_error ?? null,
    latest_charge: null,
    livemode: false,
    managed_payments: null,
    metadata: fields.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: null,
    payment_method_types: fields.payment_method_types,
    payment_record: null,
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: fields.setup_future_usage ?? null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: fields.status,
    transfer_group: null,
  };
}

/** The charge a payment makes: `succeeded` for a card, `pending` for a debit until it settles. */
export function buildCharge(
  intent: Stripe.PaymentIntent,
  email: string | null,
  method: PaymentMethodType,
  now: number,
): Stripe.Charge {
  const succeeded = method === 'card';
  return {
    id: newId.charge(),
    object: 'charge',
    amount: intent.amount,
    amount_captured: succeeded ? intent.amount : 0,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: null,
    billing_details: { address: null, email, name: null, phone: null, tax_id: null },
    calculated_statement_descriptor: null,
    captured: succeeded,
    created: now,
    currency: intent.currency,
    customer: null,
    description: intent.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    fraud_details: {},
    livemode: false,
    metadata: intent.metadata,
    on_behalf_of: null,
    outcome: null,
    paid: succeeded,
    payment_intent: intent.id,
    payment_method: null,
    payment_method_details: { type: method },
    receipt_email: null,
    receipt_number: null,
    receipt_url: null,
    refunded: false,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: succeeded ? 'succeeded' : 'pending',
    transfer_data: null,
    transfer_group: null,
  };
}

export function buildRefund(
  charge: Stripe.Charge,
  amount: number,
  reason: Stripe.Refund.Reason | null,
  metadata: Stripe.Metadata,
  now: number,
): Stripe.Refund {
  return {
    id: newId.refund(),
    object: 'refund',
    amount,
    balance_transaction: null,
    charge: charge.id,
    created: now,
    currency: charge.currency,
    customer: null,
    customer_account: null,
    metadata,
    payment_intent: typeof charge.payment_intent === 'string' ? charge.payment_intent : null,
    payment_method: null,
    reason,
    receipt_number: null,
    source_transfer_reversal: null,
    // Card refunds succeed at once in test mode.
    status: 'succeeded',
    transfer_reversal: null,
  };
}

export type SessionEventType = Extract<Stripe.Event.Type, `checkout.session.${string}`>;

export type InvoiceEventType = Extract<
  Stripe.Event.Type,
  'invoice.paid' | 'invoice.payment_succeeded' | 'invoice.payment_failed' | 'invoice.voided'
>;
export type SubscriptionEventType = Extract<
  Stripe.Event.Type,
  'customer.subscription.updated' | 'customer.subscription.deleted'
>;

/** What an event is about: a Checkout Session, the Charge a refund changed, an invoice or a subscription. */
export type EventSubject =
  | { type: SessionEventType; object: Stripe.Checkout.Session }
  | { type: 'charge.refunded'; object: Stripe.Charge }
  | { type: InvoiceEventType; object: Stripe.Invoice }
  | {
      type: SubscriptionEventType;
      object: Stripe.Subscription;
      /** For `customer.subscription.updated`: the changed fields' values before the change. */
      previousAttributes?: Partial<Stripe.Subscription>;
    };

export function buildEvent(subject: EventSubject, now: number): Stripe.Event {
  const base: Omit<Stripe.EventBase, 'type' | 'data'> = {
    id: newId.event(),
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: now,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
  };
  switch (subject.type) {
    case 'charge.refunded':
      return { ...base, type: subject.type, data: { object: subject.object } };
    case 'invoice.paid':
    case 'invoice.payment_succeeded':
    case 'invoice.payment_failed':
    case 'invoice.voided':
      return { ...base, type: subject.type, data: { object: subject.object } };
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const previous = subject.previousAttributes;
      const data = {
        object: subject.object,
        ...(previous !== undefined && { previous_attributes: previous }),
      };
      return { ...base, type: subject.type, data };
    }
    default:
      return { ...base, type: subject.type, data: { object: subject.object } };
  }
}

export function buildList<T>(data: T[], hasMore: boolean, url: string): Stripe.ApiList<T> {
  return { object: 'list', data, has_more: hasMore, url };
}

/**
 * The simulator's own account (`GET /v1/account`), a UK standard account, with the payment
 * capabilities it was given: setup reads `bacs_debit_payments` there.
 */
export function buildAccount(
  id: string,
  capabilities: Stripe.Account.Capabilities,
  created: number,
): Stripe.Account {
  return {
    id,
    object: 'account',
    business_profile: null,
    business_type: 'company',
    capabilities,
    charges_enabled: true,
    country: 'GB',
    created,
    default_currency: 'gbp',
    details_submitted: true,
    email: null,
    metadata: {},
    payouts_enabled: true,
    settings: null,
    type: 'standard',
  };
}
