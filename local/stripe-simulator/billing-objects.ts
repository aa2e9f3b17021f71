/**
 * Builders for Stripe Billing's objects (customers, subscriptions, invoices, test clocks), each
 * typed as the `stripe` package's own type, so the fields Stripe always sends are all here. They
 * follow the API version the SDK pins: a subscription's period is on its items
 * (`items.data[i].current_period_start/end`), an invoice names its subscription in
 * `parent.subscription_details.subscription` and its payment in `payments.data[0].payment`.
 */
import Stripe from 'stripe';
import { newId } from './ids';
import { type LineItemRecord, paymentIntentOf } from './objects';

/** A price of a subscription: recurring, with its amount always set. */
export type RecurringPrice = LineItemRecord['price'] & { recurring: Stripe.Price.Recurring };

export function buildCustomer(
  fields: { email: string | null; name: string | null; metadata: Stripe.Metadata },
  now: number,
): Stripe.Customer {
  return {
    id: newId.customer(),
    object: 'customer',
    address: null,
    balance: 0,
    created: now,
    currency: null,
    default_source: null,
    delinquent: false,
    description: null,
    email: fields.email,
    invoice_prefix: newId.invoicePrefix(),
    invoice_settings: {
      custom_fields: null,
      default_payment_method: null,
      footer: null,
      rendering_options: null,
    },
    livemode: false,
    metadata: fields.metadata,
    name: fields.name,
    next_invoice_sequence: 1,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
  };
}

/** The plan Stripe still shows beside each subscription item's price. */
function planOf(price: RecurringPrice): Stripe.Plan {
  return {
    id: price.id,
    object: 'plan',
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: 'per_unit',
    created: price.created,
    currency: price.currency,
    interval: price.recurring.interval,
    interval_count: price.recurring.interval_count,
    livemode: false,
    metadata: {},
    meter: null,
    nickname: null,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: 'licensed',
  };
}

export function buildSubscriptionItem(
  subscription: string,
  price: RecurringPrice,
  quantity: number,
  period: { start: number; end: number },
  now: number,
): Stripe.SubscriptionItem {
  return {
    id: newId.subscriptionItem(),
    object: 'subscription_item',
    billing_thresholds: null,
    created: now,
    current_period_end: period.end,
    current_period_start: period.start,
    current_trial: null,
    discounts: [],
    metadata: {},
    plan: planOf(price),
    price,
    quantity,
    subscription,
    tax_rates: [],
  };
}

export interface SubscriptionFields {
  id: string;
  customer: string;
  currency: string;
  items: Stripe.SubscriptionItem[];
  metadata: Stripe.Metadata;
  description: string | null;
  start: number;
  latestInvoice: string | null;
}

/** A new active subscription, charged automatically, anchored at its start (Stripe's default). */
export function buildSubscription(fields: SubscriptionFields): Stripe.Subscription {
  return {
    id: fields.id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: fields.start,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: 'classic' },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: null },
    collection_method: 'charge_automatically',
    created: fields.start,
    currency: fields.currency,
    customer: fields.customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: fields.description,
    discounts: [],
    ended_at: null,
    invoice_settings: {
      account_tax_ids: null,
      custom_fields: null,
      description: null,
      footer: null,
      issuer: { type: 'self' },
    },
    items: {
      object: 'list',
      data: fields.items,
      has_more: false,
      url: `/v1/subscription_items?subscription=${fields.id}`,
    },
    latest_invoice: fields.latestInvoice,
    livemode: false,
    managed_payments: null,
    metadata: fields.metadata,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: {
      payment_method_options: null,
      payment_method_types: null,
      save_default_payment_method: 'off',
    },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: fields.start,
    status: 'active',
    test_clock: null,
    transfer_data: null,
    trial_end: null,
    trial_settings: {
      end_behavior: { billing_cycle_anchor: null, missing_payment_method: 'create_invoice' },
    },
    trial_start: null,
  };
}

export type InvoiceOutcome = 'paid' | 'failed' | 'void';

export interface InvoiceFields {
  subscription: Stripe.Subscription;
  customer: Stripe.Customer;
  billingReason: 'subscription_create' | 'subscription_cycle';
  /** When the invoice is made and (unless voided) its payment attempted. */
  at: number;
  /** The period its lines pay for, and the usage period before it (Stripe's `period_start/end`). */
  linePeriod: { start: number; end: number };
  usagePeriod: { start: number; end: number };
  outcome: InvoiceOutcome;
  paymentIntent: string | null;
  number: string;
}

/** A subscription's invoice, finalised and paid, failed (still open) or voided at `at`. */
export function buildInvoice(fields: InvoiceFields): Stripe.Invoice {
  const { subscription, customer, at, outcome } = fields;
  const id = newId.invoice();
  const lines = subscription.items.data.map((item) =>
    buildInvoiceLine(id, subscription, item, fields.linePeriod),
  );
  const total = lines.reduce((sum, line) => sum + line.amount, 0);
  const paid = outcome === 'paid';
  return {
    ...invoiceDefaults(),
    id,
    object: 'invoice',
    amount_due: total,
    amount_paid: paid ? total : 0,
    amount_remaining: outcome === 'failed' ? total : 0,
    attempt_count: outcome === 'void' ? 0 : 1,
    attempted: outcome !== 'void',
    billing_reason: fields.billingReason,
    created: at,
    currency: subscription.currency,
    customer: customer.id,
    customer_email: customer.email,
    customer_name: customer.name ?? null,
    effective_at: at,
    lines: { object: 'list', data: lines, has_more: false, url: `/v1/invoices/${id}/lines` },
    metadata: {},
    number: fields.number,
    parent: {
      quote_details: null,
      subscription_details: { metadata: subscription.metadata, subscription: subscription.id },
      type: 'subscription_details',
    },
    payments: invoicePayments(id, fields.paymentIntent, total, subscription.currency, outcome, at),
    period_end: fields.usagePeriod.end,
    period_start: fields.usagePeriod.start,
    status: outcome === 'failed' ? 'open' : outcome,
    status_transitions: {
      finalized_at: at,
      marked_uncollectible_at: null,
      paid_at: paid ? at : null,
      voided_at: outcome === 'void' ? at : null,
    },
    subtotal: total,
    subtotal_excluding_tax: total,
    total,
    total_excluding_tax: total,
  };
}

/** The fields every invoice here has alike (no tax, no discounts, nothing paid off Stripe). */
function invoiceDefaults() {
  return {
    account_country: 'GB',
    account_name: 'Stripe simulator',
    account_tax_ids: null,
    amount_overpaid: 0,
    amount_shipping: 0,
    application: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    collection_method: 'charge_automatically',
    custom_fields: null,
    customer_account: null,
    customer_address: null,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    ending_balance: 0,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: null,
    invoice_pdf: null,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    livemode: false,
    next_payment_attempt: null,
    on_behalf_of: null,
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    test_clock: null,
    total_discount_amounts: [],
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: null,
  } satisfies Partial<Stripe.Invoice>;
}

function buildInvoiceLine(
  invoice: string,
  subscription: Stripe.Subscription,
  item: Stripe.SubscriptionItem,
  period: { start: number; end: number },
): Stripe.InvoiceLineItem {
  const quantity = item.quantity ?? 1;
  const amount = (item.price.unit_amount ?? 0) * quantity;
  const product = typeof item.price.product === 'string' ? item.price.product : item.price.product.id;
  return {
    id: newId.invoiceLine(),
    object: 'line_item',
    amount,
    currency: subscription.currency,
    description: `${quantity} × (at ${item.price.unit_amount ?? 0} / ${item.price.recurring?.interval ?? 'week'})`,
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice,
    livemode: false,
    metadata: {},
    parent: {
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: null,
        proration: false,
        proration_details: { credited_items: null },
        subscription: subscription.id,
        subscription_item: item.id,
      },
      type: 'subscription_item_details',
    },
    period,
    pretax_credit_amounts: [],
    pricing: {
      price_details: { price: item.price.id, product },
      type: 'price_details',
      unit_amount_decimal: item.price.unit_amount_decimal,
    },
    quantity,
    quantity_decimal: Stripe.Decimal.from(quantity),
    subscription: subscription.id,
    subtotal: amount,
    taxes: [],
  };
}

/** The invoice's payment attempt, naming its PaymentIntent (none for a voided invoice). */
function invoicePayments(
  invoice: string,
  paymentIntent: string | null,
  amount: number,
  currency: string,
  outcome: InvoiceOutcome,
  at: number,
): Stripe.ApiList<Stripe.InvoicePayment> {
  const data: Stripe.InvoicePayment[] =
    paymentIntent === null
      ? []
      : [
          {
            id: newId.invoicePayment(),
            object: 'invoice_payment',
            amount_paid: outcome === 'paid' ? amount : null,
            amount_requested: amount,
            created: at,
            currency,
            invoice,
            is_default: true,
            livemode: false,
            payment: { payment_intent: paymentIntent, type: 'payment_intent' },
            status: outcome === 'paid' ? 'paid' : 'open',
            status_transitions: { canceled_at: null, paid_at: outcome === 'paid' ? at : null },
          },
        ];
  return { object: 'list', data, has_more: false, url: `/v1/invoice_payments?invoice=${invoice}` };
}

/** The PaymentIntent of a subscription's invoice, charged off-session to the saved card. */
export function buildInvoicePaymentIntent(
  invoice: { amount: number; currency: string; customer: string; description: string },
  succeeded: boolean,
  now: number,
): Stripe.PaymentIntent {
  return paymentIntentOf(
    {
      amount: invoice.amount,
      amount_received: succeeded ? invoice.amount : 0,
      capture_method: 'automatic',
      currency: invoice.currency,
      customer: invoice.customer,
      description: invoice.description,
      last_payment_error: succeeded
        ? null
        : {
            type: 'card_error',
            code: 'card_declined',
            decline_code: 'generic_decline',
            message: 'Your card was declined.',
          },
      metadata: {},
      payment_method_types: ['card'],
      setup_future_usage: 'off_session',
      status: succeeded ? 'succeeded' : 'requires_payment_method',
    },
    now,
  );
}

export function buildTestClock(
  frozenTime: number,
  name: string | null,
  now: number,
): Stripe.TestHelpers.TestClock {
  return {
    id: newId.testClock(),
    object: 'test_helpers.test_clock',
    created: now,
    // Stripe deletes a test clock 30 days after it is made.
    deletes_after: now + 30 * 24 * 60 * 60,
    frozen_time: frozenTime,
    livemode: false,
    name,
    status: 'ready',
    status_details: {},
  };
}
