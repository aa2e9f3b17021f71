import type Stripe from 'stripe';
import { Billing, type BillingState } from './billing';
import type { SimulatorClock } from './clock';
import { invalidRequest, resourceMissing } from './errors';
import {
  type BuiltSession,
  buildCharge,
  buildPaymentIntent,
  buildRefund,
  type CheckoutSessionRecord,
  type EventSubject,
  type PaymentMethodType,
} from './objects';
import type { CreatedFilter } from './params';
import { formatAmount } from './payment-page-html';
import type { SubscriptionData } from './subscription-params';

/** Called on every change that makes Stripe send an event; resolves after the first delivery attempt. */
export type EventListener = (subject: EventSubject) => Promise<void>;

/** A test hook asked for a transition the object's state does not allow. */
export class StateError extends Error {
  override readonly name = 'SessionStateError';
}

export interface StoredSession {
  /** Creation order, to keep "newest first" stable among sessions created in the same second. */
  readonly seq: number;
  session: CheckoutSessionRecord;
  readonly shippingRate: Stripe.ShippingRate | null;
  readonly paymentIntentData: { metadata: Stripe.Metadata; description: string | null };
  /** A subscription's session (`mode=subscription`): what its subscription will carry. */
  readonly subscriptionData?: SubscriptionData | undefined;
}

export interface RefundRequest {
  paymentIntent?: string | undefined;
  charge?: string | undefined;
  amount?: number | undefined;
  reason?: Stripe.Refund.Reason | undefined;
  metadata?: Stripe.Metadata;
}

/** The store's objects as they are kept between runs (local/stripe-simulator/kept-state.ts). */
export interface StoreState {
  nextSeq: number;
  sessions: StoredSession[];
  products: Stripe.Product[];
  paymentIntents: Stripe.PaymentIntent[];
  charges: Stripe.Charge[];
  refunds: Stripe.Refund[];
  /** Customers, subscriptions, invoices and test clocks; absent from files kept before they existed. */
  billing?: BillingState | undefined;
}

/** Everything the simulator knows, and the state changes Stripe makes to it. */
export class Store {
  private readonly sessions = new Map<string, StoredSession>();
  private readonly products = new Map<string, Stripe.Product>();
  private readonly intents = new Map<string, Stripe.PaymentIntent>();
  private readonly charges = new Map<string, Stripe.Charge>();
  readonly refunds = new Map<string, Stripe.Refund>();
  /** Stripe Billing's objects; the PaymentIntents and Charges of their invoices live here. */
  readonly billing: Billing;
  private nextSeq = 0;

  constructor(
    private readonly emit: EventListener,
    private readonly clock: SimulatorClock,
  ) {
    this.billing = new Billing(clock, (intent, charge) => {
      this.intents.set(intent.id, intent);
      this.charges.set(charge.id, charge);
    });
  }

  /** Sends events one after another, each once the one before had its first delivery attempt. */
  emitInOrder(events: readonly EventSubject[]): Promise<void> {
    return events.reduce<Promise<void>>(
      (previous, event) => previous.then(() => this.emit(event)),
      Promise.resolve(),
    );
  }

  /** Every object, for keeping: stored objects are replaced on change, never mutated, so these are snapshots. */
  snapshot(): StoreState {
    return {
      nextSeq: this.nextSeq,
      sessions: [...this.sessions.values()].map((entry) => ({ ...entry })),
      products: [...this.products.values()],
      paymentIntents: [...this.intents.values()],
      charges: [...this.charges.values()],
      refunds: [...this.refunds.values()],
      billing: this.billing.snapshot(),
    };
  }

  /** Takes back what `snapshot` kept, at start, before any request. */
  restore(state: StoreState): void {
    for (const entry of state.sessions) this.sessions.set(entry.session.id, { ...entry });
    for (const product of state.products) this.products.set(product.id, product);
    for (const intent of state.paymentIntents) this.intents.set(intent.id, intent);
    for (const charge of state.charges) this.charges.set(charge.id, charge);
    for (const refund of state.refunds) this.refunds.set(refund.id, refund);
    this.nextSeq = Math.max(this.nextSeq, state.nextSeq);
    if (state.billing !== undefined) this.billing.restore(state.billing);
  }

  addSession(
    built: BuiltSession,
    paymentIntentData: StoredSession['paymentIntentData'],
    subscriptionData?: SubscriptionData,
  ): StoredSession {
    for (const product of built.products) this.products.set(product.id, product);
    const entry = {
      seq: this.nextSeq++,
      session: built.session,
      shippingRate: built.shippingRate,
      paymentIntentData,
      ...(subscriptionData !== undefined && { subscriptionData }),
    };
    this.sessions.set(built.session.id, entry);
    return entry;
  }

  /** Looks a session up, first expiring it if its `expires_at` has passed (Stripe does this on its own clock). */
  findSession(id: string): StoredSession | undefined {
    const entry = this.sessions.get(id);
    if (entry !== undefined) this.expireIfDue(entry);
    return entry;
  }

  requireSession(id: string): StoredSession {
    return found(this.findSession(id), () => resourceMissing('checkout.session', id, 'session'));
  }

  /** Newest first, by `created` and then creation order. */
  listSessions(filter: {
    status?: string | undefined;
    created?: CreatedFilter;
    paymentIntent?: string | undefined;
  }): StoredSession[] {
    const { gt, gte, lt, lte } = filter.created ?? {};
    return [...this.sessions.values()]
      .filter((entry) => {
        this.expireIfDue(entry);
        const { status, created } = entry.session;
        return (
          (filter.status === undefined || status === filter.status) &&
          (filter.paymentIntent === undefined || entry.session.payment_intent === filter.paymentIntent) &&
          (gt === undefined || created > gt) &&
          (gte === undefined || created >= gte) &&
          (lt === undefined || created < lt) &&
          (lte === undefined || created <= lte)
        );
      })
      .sort((a, b) => b.session.created - a.session.created || b.seq - a.seq);
  }

  product(id: string): Stripe.Product | undefined {
    return this.products.get(id);
  }

  intent(id: string): Stripe.PaymentIntent | undefined {
    return this.intents.get(id);
  }

  requireIntent(id: string): Stripe.PaymentIntent {
    return found(this.intents.get(id), () => resourceMissing('payment_intent', id, 'intent'));
  }

  charge(id: string): Stripe.Charge | undefined {
    return this.charges.get(id);
  }

  requireCharge(id: string): Stripe.Charge {
    return found(this.charges.get(id), () => resourceMissing('charge', id, 'charge'));
  }

  requireRefund(id: string): Stripe.Refund {
    return found(this.refunds.get(id), () => resourceMissing('refund', id, 'refund'));
  }

  /** `POST /v1/checkout/sessions/:id/expire`. */
  expireByApi(id: string): StoredSession {
    const entry = this.requireSession(id);
    const { status } = entry.session;
    if (status !== 'open') {
      throw invalidRequest(
        `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of \`${status}\`.`,
      );
    }
    void this.expire(entry);
    return entry;
  }

  /**
   * Expires every open session whose `expires_at` has passed, as Stripe does on its own without
   * being asked, sending `checkout.session.expired` for each; `delivered` resolves after their
   * first delivery attempts.
   */
  expireDue(): { expired: string[]; delivered: Promise<void> } {
    const due = [...this.sessions.values()].filter((entry) => this.isDue(entry));
    const delivered = Promise.all(due.map((entry) => this.expire(entry)));
    return { expired: due.map((entry) => entry.session.id), delivered: delivered.then(() => undefined) };
  }

  /**
   * The customer pays. A card pays at once; a Bacs Direct Debit completes the session unpaid, with
   * the PaymentIntent `processing` and its charge `pending`, until `settle` (days later at Stripe).
   */
  complete(id: string, method: PaymentMethodType): { entry: StoredSession; delivered: Promise<void> } {
    const entry = this.requireForHook(id);
    const { session } = entry;
    if (session.status !== 'open')
      throw new StateError(`Checkout Session ${id} is ${session.status}, not open.`);
    if (session.mode === 'subscription') return this.completeSubscription(entry, method);
    const now = this.clock.nowSeconds();
    const created = buildPaymentIntent(session, entry.paymentIntentData, method, now);
    const charge = buildCharge(created, session.customer_email, method, now);
    const paid = charge.status === 'succeeded';
    this.charges.set(charge.id, charge);
    this.intents.set(created.id, {
      ...created,
      latest_charge: charge.id,
      status: paid ? 'succeeded' : 'processing',
      amount_received: paid ? created.amount : 0,
    });
    entry.session = {
      ...session,
      status: 'complete',
      payment_status: paid ? 'paid' : 'unpaid',
      payment_intent: created.id,
      ...completedDetails(session),
    };
    return {
      entry,
      delivered: this.emit({ type: 'checkout.session.completed', object: withoutLineItems(entry) }),
    };
  }

  /**
   * A subscription's session paid by card: its customer, subscription and first invoice are made,
   * then `checkout.session.completed`, `invoice.paid` and `invoice.payment_succeeded` go in order.
   */
  private completeSubscription(
    entry: StoredSession,
    method: PaymentMethodType,
  ): { entry: StoredSession; delivered: Promise<void> } {
    const { session } = entry;
    if (method !== 'card') throw new StateError(`Checkout Session ${session.id} takes a card only.`);
    const data = entry.subscriptionData ?? { metadata: {}, description: null };
    const { customer, subscription, invoice } = this.billing.subscribe(session, data);
    entry.session = {
      ...session,
      status: 'complete',
      payment_status: 'paid',
      customer: customer.id,
      subscription: subscription.id,
      invoice: invoice.id,
      ...completedDetails(session),
    };
    const delivered = this.emitInOrder([
      { type: 'checkout.session.completed', object: withoutLineItems(entry) },
      { type: 'invoice.paid', object: invoice },
      { type: 'invoice.payment_succeeded', object: invoice },
    ]);
    return { entry, delivered };
  }

  /** A delayed payment settles: the debit is collected (`succeeded`) or bounces (`failed`). */
  settle(id: string, outcome: 'succeeded' | 'failed'): { entry: StoredSession; delivered: Promise<void> } {
    const entry = this.requireForHook(id);
    const { status, payment_status, payment_intent } = entry.session;
    const intent = typeof payment_intent === 'string' ? this.intents.get(payment_intent) : undefined;
    const charge =
      typeof intent?.latest_charge === 'string' ? this.charges.get(intent.latest_charge) : undefined;
    if (status !== 'complete' || intent?.status !== 'processing' || charge === undefined) {
      throw new StateError(
        `Checkout Session ${id} has no payment waiting to settle (status ${status}, payment_status ${payment_status}).`,
      );
    }
    if (outcome === 'succeeded') {
      this.intents.set(intent.id, { ...intent, status: 'succeeded', amount_received: intent.amount });
      this.charges.set(charge.id, {
        ...charge,
        status: 'succeeded',
        paid: true,
        captured: true,
        amount_captured: charge.amount,
      });
      entry.session = { ...entry.session, payment_status: 'paid' };
    } else {
      const message = 'The Direct Debit could not be collected from the customer’s bank account.';
      this.intents.set(intent.id, {
        ...intent,
        status: 'requires_payment_method',
        last_payment_error: { type: 'invalid_request_error', code: 'payment_method_unactivated', message },
      });
      this.charges.set(charge.id, {
        ...charge,
        status: 'failed',
        failure_code: 'debit_not_authorized',
        failure_message: message,
      });
    }
    const type =
      outcome === 'succeeded'
        ? 'checkout.session.async_payment_succeeded'
        : 'checkout.session.async_payment_failed';
    return { entry, delivered: this.emit({ type, object: withoutLineItems(entry) }) };
  }

  /**
   * Refunds a succeeded charge, found by its PaymentIntent or its id, in full unless `amount` says
   * less, and sends `charge.refunded`. Refuses what Stripe refuses: nothing left to refund, more
   * than is left, a payment that has not succeeded.
   */
  refund(request: RefundRequest): { refund: Stripe.Refund; delivered: Promise<void> } {
    const charge = this.chargeToRefund(request);
    const remaining = charge.amount - charge.amount_refunded;
    if (remaining === 0) {
      throw invalidRequest(`Charge ${charge.id} has already been refunded.`, {
        code: 'charge_already_refunded',
      });
    }
    const amount = request.amount ?? remaining;
    if (amount > remaining) {
      const money = (pence: number) => formatAmount(pence, charge.currency);
      throw invalidRequest(
        charge.amount_refunded === 0
          ? `Refund amount (${money(amount)}) is greater than charge amount (${money(charge.amount)})`
          : `Refund amount (${money(amount)}) is greater than unrefunded amount on charge (${money(remaining)})`,
        { param: 'amount' },
      );
    }
    const refund = buildRefund(
      charge,
      amount,
      request.reason ?? null,
      request.metadata ?? {},
      this.clock.nowSeconds(),
    );
    this.refunds.set(refund.id, refund);
    const amountRefunded = charge.amount_refunded + amount;
    const refunded = {
      ...charge,
      amount_refunded: amountRefunded,
      refunded: amountRefunded === charge.amount,
    };
    this.charges.set(charge.id, refunded);
    return { refund, delivered: this.emit({ type: 'charge.refunded', object: refunded }) };
  }

  private chargeToRefund({ paymentIntent, charge: chargeId }: RefundRequest): Stripe.Charge {
    if (paymentIntent === undefined && chargeId === undefined) {
      throw invalidRequest('You must pass either a `charge` or a `payment_intent` to create a refund.', {
        code: 'parameter_missing',
      });
    }
    if (paymentIntent === undefined) {
      const charge = found(this.charges.get(chargeId ?? ''), () =>
        resourceMissing('charge', chargeId ?? '', 'charge', 400),
      );
      if (charge.status !== 'succeeded') {
        throw invalidRequest(`Charge ${charge.id} has not succeeded, so it cannot be refunded.`, {
          param: 'charge',
        });
      }
      return charge;
    }
    const intent = found(this.intents.get(paymentIntent), () =>
      resourceMissing('payment_intent', paymentIntent, 'payment_intent', 400),
    );
    const latest =
      typeof intent.latest_charge === 'string' ? this.charges.get(intent.latest_charge) : undefined;
    if (latest === undefined || latest.status !== 'succeeded') {
      throw invalidRequest(`This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, {
        param: 'payment_intent',
      });
    }
    if (chargeId !== undefined && chargeId !== latest.id) {
      throw invalidRequest(`Charge ${chargeId} does not belong to PaymentIntent ${intent.id}.`, {
        param: 'charge',
      });
    }
    return latest;
  }

  patchSession(id: string, patch: Partial<CheckoutSessionRecord>): void {
    const entry = this.requireForHook(id);
    // The id is the key of the store; everything else may be bent to simulate tampering or old sessions.
    entry.session = { ...entry.session, ...patch, id: entry.session.id };
  }

  patchPaymentIntent(id: string, patch: Partial<Stripe.PaymentIntent>): void {
    const intent = found(this.intents.get(id), () => new StateError(`No such PaymentIntent: ${id}`));
    this.intents.set(id, { ...intent, ...patch, id });
  }

  private requireForHook(id: string): StoredSession {
    return found(this.findSession(id), () => new StateError(`No such Checkout Session: ${id}`));
  }

  private expireIfDue(entry: StoredSession): void {
    if (this.isDue(entry)) void this.expire(entry);
  }

  private isDue({ session }: StoredSession): boolean {
    return session.status === 'open' && session.expires_at <= this.clock.nowSeconds();
  }

  private expire(entry: StoredSession): Promise<void> {
    entry.session = { ...entry.session, status: 'expired', url: null };
    return this.emit({ type: 'checkout.session.expired', object: withoutLineItems(entry) });
  }
}

/** The session as the API and events show it unless `line_items` is expanded. */
export function withoutLineItems({ session }: StoredSession): Stripe.Checkout.Session {
  const { line_items: _lineItems, ...rest } = session;
  return rest;
}

/** The stored object, or the error its absence is (Stripe's resource_missing, or a test's mistake). */
function found<T>(value: T | undefined, missing: () => Error): T {
  if (value === undefined) throw missing();
  return value;
}

/** What Checkout fills in on completing any session: the customer's email as the session had it, no more. */
function completedDetails(session: Stripe.Checkout.Session) {
  return {
    collected_information: { business_name: null, individual_name: null, shipping_details: null },
    customer_details: {
      address: null,
      business_name: null,
      email: session.customer_email,
      individual_name: null,
      name: null,
      phone: null,
      tax_exempt: 'none',
      tax_ids: [],
    },
    url: null,
  } satisfies Partial<Stripe.Checkout.Session>;
}
