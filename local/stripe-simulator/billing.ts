/**
 * Stripe Billing as the simulator plays it (standing orders, issue 50): the customer, subscription
 * and first invoice a subscription's Checkout Session makes when paid, then a renewal invoice each
 * time the simulator's clock passes a subscription's period end: paid, failed (a test hook), or
 * voided while `pause_collection` is `void`. Each invoice is made and charged at its period's
 * boundary (`created` = `status_transitions.paid_at` = the old period's end), however much later
 * the clock reached it; several periods passed at once make one invoice each, in time order.
 * Simplified: no invoice drafts an hour before payment, no retries of a failed invoice (the next
 * period's invoice is attempted as usual), no prorations, one clock for everything.
 */
import type Stripe from 'stripe';
import {
  buildCustomer,
  buildInvoice,
  buildInvoicePaymentIntent,
  buildSubscription,
  buildSubscriptionItem,
  type InvoiceOutcome,
  type RecurringPrice,
} from './billing-objects';
import type { SimulatorClock } from './clock';
import { invalidRequest, resourceMissing } from './errors';
import { newId } from './ids';
import { buildCharge, type CheckoutSessionRecord, type EventSubject } from './objects';
import type { SubscriptionData, UpdateSubscriptionParams } from './subscription-params';

export interface StoredSubscription {
  readonly seq: number;
  subscription: Stripe.Subscription;
  /** How many of its next renewals are declined (`failNextRenewal`). */
  failRenewals: number;
}

/** Billing's objects as they are kept between runs (kept-state.ts). */
export interface BillingState {
  nextSeq: number;
  customers: Stripe.Customer[];
  subscriptions: StoredSubscription[];
  invoices: Array<{ seq: number; invoice: Stripe.Invoice }>;
  testClocks: Stripe.TestHelpers.TestClock[];
}

/** Records an invoice's PaymentIntent and Charge where the payments API finds them (the store). */
export type RecordPayment = (intent: Stripe.PaymentIntent, charge: Stripe.Charge) => void;

const WEEK_SECONDS = 7 * 24 * 60 * 60;

export class Billing {
  readonly customers = new Map<string, Stripe.Customer>();
  readonly subscriptions = new Map<string, StoredSubscription>();
  readonly invoices = new Map<string, { seq: number; invoice: Stripe.Invoice }>();
  readonly testClocks = new Map<string, Stripe.TestHelpers.TestClock>();
  private nextSeq = 0;

  constructor(
    private readonly clock: SimulatorClock,
    private readonly recordPayment: RecordPayment,
  ) {}

  snapshot(): BillingState {
    return {
      nextSeq: this.nextSeq,
      customers: [...this.customers.values()],
      subscriptions: [...this.subscriptions.values()].map((entry) => ({ ...entry })),
      invoices: [...this.invoices.values()],
      testClocks: [...this.testClocks.values()],
    };
  }

  restore(state: BillingState): void {
    for (const customer of state.customers) this.customers.set(customer.id, customer);
    for (const entry of state.subscriptions) this.subscriptions.set(entry.subscription.id, { ...entry });
    for (const entry of state.invoices) this.invoices.set(entry.invoice.id, entry);
    for (const clock of state.testClocks) this.testClocks.set(clock.id, clock);
    this.nextSeq = Math.max(this.nextSeq, state.nextSeq);
  }

  addCustomer(fields: {
    email: string | null;
    name: string | null;
    metadata: Stripe.Metadata;
  }): Stripe.Customer {
    const customer = buildCustomer(fields, this.clock.nowSeconds());
    this.customers.set(customer.id, customer);
    return customer;
  }

  requireCustomer(id: string): Stripe.Customer {
    return found(this.customers.get(id), () => resourceMissing('customer', id, 'customer'));
  }

  requireSubscription(id: string): StoredSubscription {
    return found(this.subscriptions.get(id), () => resourceMissing('subscription', id, 'subscription'));
  }

  requireInvoice(id: string): Stripe.Invoice {
    return found(this.invoices.get(id)?.invoice, () => resourceMissing('invoice', id, 'invoice'));
  }

  /**
   * A subscription's Checkout Session is paid by card: its customer, its subscription (active,
   * first period from now) and its first invoice, paid now. Answers what the session then names.
   */
  subscribe(
    session: CheckoutSessionRecord,
    data: SubscriptionData,
  ): { customer: Stripe.Customer; subscription: Stripe.Subscription; invoice: Stripe.Invoice } {
    const now = this.clock.nowSeconds();
    const customer = this.addCustomer({ email: session.customer_email, name: null, metadata: {} });
    const id = newId.subscription();
    const items = session.line_items.data.map((line) => {
      const price = line.price as RecurringPrice;
      const period = { start: now, end: now + periodSeconds(price) };
      return buildSubscriptionItem(id, price, line.quantity, period, now);
    });
    const subscription = buildSubscription({
      id,
      customer: customer.id,
      currency: session.currency,
      items,
      metadata: data.metadata,
      description: data.description,
      start: now,
      latestInvoice: null,
    });
    const invoice = this.invoice(subscription, 'subscription_create', now, 'paid', { start: now, end: now });
    const active = { ...subscription, latest_invoice: invoice.id };
    this.subscriptions.set(id, { seq: this.nextSeq++, subscription: active, failRenewals: 0 });
    return {
      customer: this.requireCustomer(customer.id),
      subscription: active,
      invoice: publicInvoice(invoice),
    };
  }

  /** Makes (and charges, unless voided) one invoice of a subscription at `at`, and keeps it. */
  private invoice(
    subscription: Stripe.Subscription,
    billingReason: 'subscription_create' | 'subscription_cycle',
    at: number,
    outcome: InvoiceOutcome,
    usagePeriod: { start: number; end: number },
  ): Stripe.Invoice {
    const customer = this.requireCustomer(customerId(subscription));
    const [first] = subscription.items.data;
    const linePeriod = { start: first?.current_period_start ?? at, end: first?.current_period_end ?? at };
    const amount = subscription.items.data.reduce(
      (sum, item) => sum + (item.price.unit_amount ?? 0) * (item.quantity ?? 1),
      0,
    );
    let paymentIntent: string | null = null;
    if (outcome !== 'void') {
      const description =
        billingReason === 'subscription_create' ? 'Subscription creation' : 'Subscription update';
      const created = buildInvoicePaymentIntent(
        { amount, currency: subscription.currency, customer: customer.id, description },
        outcome === 'paid',
        at,
      );
      const charge = buildCharge(created, customer.email, 'card', at);
      const declined: Partial<Stripe.Charge> = {
        status: 'failed',
        paid: false,
        captured: false,
        amount_captured: 0,
        failure_code: 'card_declined',
        failure_message: 'Your card was declined.',
      };
      this.recordPayment(
        { ...created, latest_charge: charge.id },
        outcome === 'paid' ? charge : { ...charge, ...declined },
      );
      paymentIntent = created.id;
    }
    const sequence = customer.next_invoice_sequence ?? 1;
    this.customers.set(customer.id, { ...customer, next_invoice_sequence: sequence + 1 });
    const number = `${customer.invoice_prefix ?? 'INV'}-${String(sequence).padStart(4, '0')}`;
    const invoice = buildInvoice({
      subscription,
      customer,
      billingReason,
      at,
      linePeriod,
      usagePeriod,
      outcome,
      paymentIntent,
      number,
    });
    this.invoices.set(invoice.id, { seq: this.nextSeq++, invoice });
    return invoice;
  }

  /** A test hook: the next `times` renewals of this subscription are declined. */
  failNextRenewal(id: string, times: number): void {
    const entry = this.subscriptions.get(id);
    if (entry === undefined) throw new Error(`No such subscription: ${id}`);
    entry.failRenewals += times;
  }

  /**
   * Renews every active or past-due subscription whose period has ended on the simulator's clock,
   * one period at a time in time order across subscriptions, and answers the events to send.
   */
  renewDue(): EventSubject[] {
    const events: EventSubject[] = [];
    const now = this.clock.nowSeconds();
    for (;;) {
      const due = [...this.subscriptions.values()]
        .filter((entry) => isRenewing(entry.subscription) && periodEnd(entry.subscription) <= now)
        .sort((a, b) => periodEnd(a.subscription) - periodEnd(b.subscription) || a.seq - b.seq)[0];
      if (due === undefined) return events;
      events.push(...this.renew(due));
    }
  }

  /** One period boundary of one subscription: cancel at period end, resume, then invoice. */
  private renew(entry: StoredSubscription): EventSubject[] {
    const before = entry.subscription;
    const boundary = periodEnd(before);
    if (before.cancel_at_period_end) {
      entry.subscription = { ...before, status: 'canceled', ended_at: boundary };
      return [{ type: 'customer.subscription.deleted', object: entry.subscription }];
    }
    const events: EventSubject[] = [];
    let current = before;
    const resumesAt = before.pause_collection?.resumes_at;
    if (typeof resumesAt === 'number' && resumesAt <= boundary) {
      current = { ...before, pause_collection: null };
      events.push({
        type: 'customer.subscription.updated',
        object: current,
        previousAttributes: { pause_collection: before.pause_collection },
      });
    }
    const [first] = current.items.data;
    const usagePeriod = { start: first?.current_period_start ?? boundary, end: boundary };
    const next = (item: Stripe.SubscriptionItem) => ({
      ...item,
      current_period_start: boundary,
      current_period_end: boundary + periodSeconds(item.price),
    });
    const renewed = { ...current, items: { ...current.items, data: current.items.data.map(next) } };
    const outcome = renewalOutcome(entry, current);
    const invoice = this.invoice(renewed, 'subscription_cycle', boundary, outcome, usagePeriod);
    const status = outcome === 'failed' ? 'past_due' : outcome === 'paid' ? 'active' : current.status;
    entry.subscription = { ...renewed, latest_invoice: invoice.id, status };
    const shown = publicInvoice(invoice);
    if (outcome === 'void') return [...events, { type: 'invoice.voided', object: shown }];
    events.push(
      ...(outcome === 'paid'
        ? ([
            { type: 'invoice.paid', object: shown },
            { type: 'invoice.payment_succeeded', object: shown },
          ] as const)
        : ([{ type: 'invoice.payment_failed', object: shown }] as const)),
    );
    if (status !== current.status) {
      events.push({
        type: 'customer.subscription.updated',
        object: entry.subscription,
        previousAttributes: { status: current.status },
      });
    }
    return events;
  }

  /** `DELETE /v1/subscriptions/:id`: canceled now; no more renewals. */
  cancel(id: string): { subscription: Stripe.Subscription; events: EventSubject[] } {
    const entry = this.requireSubscription(id);
    const before = entry.subscription;
    if (before.status === 'canceled') {
      throw invalidRequest(`This subscription (${id}) has already been canceled.`, { param: 'subscription' });
    }
    const now = this.clock.nowSeconds();
    entry.subscription = {
      ...before,
      status: 'canceled',
      canceled_at: now,
      ended_at: now,
      cancellation_details: {
        comment: before.cancellation_details?.comment ?? null,
        feedback: before.cancellation_details?.feedback ?? null,
        feedback_option: before.cancellation_details?.feedback_option ?? null,
        reason: 'cancellation_requested',
      },
    };
    return {
      subscription: entry.subscription,
      events: [{ type: 'customer.subscription.deleted', object: entry.subscription }],
    };
  }
}

/**
 * `POST /v1/subscriptions/:id`: pause or resume collection, cancel at the period's end or not,
 * change metadata, or change an item's quantity for the next invoices (no proration). Sends
 * `customer.subscription.updated` with the fields' previous values when anything changed.
 */
export function updateSubscription(
  entry: StoredSubscription,
  params: UpdateSubscriptionParams,
  now: number,
): EventSubject[] {
  const before = entry.subscription;
  checkUpdate(before, params, now);
  const changes: Partial<Stripe.Subscription> = {};
  const { pause_collection: pause, cancel_at_period_end: cancelAtEnd, metadata, items } = params;
  if (pause !== undefined) {
    changes.pause_collection =
      pause === '' ? null : { behavior: 'void', resumes_at: pause.resumes_at ?? null };
  }
  if (cancelAtEnd !== undefined) {
    changes.cancel_at_period_end = cancelAtEnd === 'true';
    changes.cancel_at = cancelAtEnd === 'true' ? periodEnd(before) : null;
    changes.canceled_at = cancelAtEnd === 'true' ? now : null;
  }
  if (metadata !== undefined) changes.metadata = mergedMetadata(before.metadata, metadata);
  if (items !== undefined && items.length > 0) {
    const quantities = new Map(items.map((item) => [item.id, item.quantity]));
    const data = before.items.data.map((item) => ({
      ...item,
      quantity: quantities.get(item.id) ?? item.quantity,
    }));
    changes.items = { ...before.items, data };
  }
  const previous = Object.fromEntries(
    Object.entries(changes)
      .filter(
        ([key, value]) => JSON.stringify(value) !== JSON.stringify(before[key as keyof Stripe.Subscription]),
      )
      .map(([key]) => [key, before[key as keyof Stripe.Subscription]]),
  );
  entry.subscription = { ...before, ...changes };
  if (Object.keys(previous).length === 0) return [];
  return [
    { type: 'customer.subscription.updated', object: entry.subscription, previousAttributes: previous },
  ];
}

/** What Stripe (or the simulator, which plays less of Billing) refuses in an update. */
function checkUpdate(subscription: Stripe.Subscription, params: UpdateSubscriptionParams, now: number): void {
  const { pause_collection: pause, items, proration_behavior: proration } = params;
  if (subscription.status === 'canceled') {
    const others = Object.keys(params).filter((key) => key !== 'metadata' && key !== 'expand');
    if (others.length > 0) {
      throw invalidRequest('A canceled subscription can only update its cancellation_details and metadata.', {
        param: others[0],
      });
    }
  }
  if (pause !== undefined && pause !== '') {
    if (pause.behavior !== 'void') {
      throw invalidRequest('The Stripe simulator supports only pause_collection[behavior]=void.', {
        param: 'pause_collection[behavior]',
      });
    }
    if (pause.resumes_at !== undefined && pause.resumes_at <= now) {
      throw invalidRequest('pause_collection[resumes_at] must be in the future.', {
        param: 'pause_collection[resumes_at]',
      });
    }
  }
  (items ?? []).forEach((item, index) => {
    if (!subscription.items.data.some(({ id }) => id === item.id)) {
      throw resourceMissing('subscription_item', item.id, `items[${index}][id]`, 400);
    }
    if (item.quantity === undefined) {
      throw invalidRequest("The Stripe simulator changes only an item's quantity: give items[i][quantity].", {
        param: `items[${index}][quantity]`,
      });
    }
  });
  if ((items ?? []).length > 0 && proration !== 'none') {
    throw invalidRequest(
      'The Stripe simulator supports only proration_behavior=none for a change of items.',
      {
        param: 'proration_behavior',
      },
    );
  }
}

/** Stripe's metadata update: keys merge, `''` as a value removes its key, `''` for all clears it. */
function mergedMetadata(current: Stripe.Metadata, update: '' | Record<string, string>): Stripe.Metadata {
  if (update === '') return {};
  const merged: Stripe.Metadata = { ...current };
  for (const [key, value] of Object.entries(update)) {
    if (value === '') delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/** An invoice as events carry it: without `payments`, which Stripe includes only when expanded. */
export function publicInvoice(invoice: Stripe.Invoice): Stripe.Invoice {
  const { payments: _payments, ...shown } = invoice;
  return shown;
}

/** The simulator makes no final invoice when a subscription is canceled. */
export function cancelSubscriptionInvoiceCheck(params: {
  invoice_now?: string | undefined;
  prorate?: string | undefined;
}): void {
  for (const param of ['invoice_now', 'prorate'] as const) {
    if (params[param] === 'true') {
      throw invalidRequest(
        `The Stripe simulator does not support ${param}=true when canceling a subscription.`,
        {
          param,
        },
      );
    }
  }
}

function renewalOutcome(entry: StoredSubscription, subscription: Stripe.Subscription): InvoiceOutcome {
  if (subscription.pause_collection?.behavior === 'void') return 'void';
  if (entry.failRenewals > 0) {
    entry.failRenewals -= 1;
    return 'failed';
  }
  return 'paid';
}

/** Subscriptions that keep making invoices: active ones, and past-due ones (Stripe keeps trying). */
function isRenewing(subscription: Stripe.Subscription): boolean {
  return subscription.status === 'active' || subscription.status === 'past_due';
}

export function periodEnd(subscription: Stripe.Subscription): number {
  return subscription.items.data[0]?.current_period_end ?? Number.POSITIVE_INFINITY;
}

function periodSeconds(price: Stripe.Price): number {
  return (price.recurring?.interval_count ?? 1) * WEEK_SECONDS;
}

export function customerId(subscription: Stripe.Subscription): string {
  const { customer } = subscription;
  return typeof customer === 'string' ? customer : customer.id;
}

function found<T>(value: T | undefined, missing: () => Error): T {
  if (value === undefined) throw missing();
  return value;
}
