import { invalidRequest, resourceMissing } from './errors';
import { newPaymentIntentId, nowSeconds } from './ids';
import type { RangeFilter } from './params';
import { buildSession } from './session-factory';
import type { CreateSessionInput } from './session-params';
import type {
  CheckoutSessionRecord,
  PaymentIntentRecord,
  ProductRecord,
  SessionStatus,
  ShippingRateRecord,
} from './session-types';

export type SessionEventType =
  | 'checkout.session.completed'
  | 'checkout.session.expired'
  | 'checkout.session.async_payment_succeeded'
  | 'checkout.session.async_payment_failed';

/** Called on every state change that makes Stripe send an event; resolves after the first delivery attempt. */
export type SessionEventListener = (type: SessionEventType, session: CheckoutSessionRecord) => Promise<void>;

/** A test hook asked for a transition the session's state does not allow. */
export class SessionStateError extends Error {
  override readonly name = 'SessionStateError';
}

export interface StoredSession {
  /** Creation order, to keep "newest first" stable among sessions created in the same second. */
  readonly seq: number;
  record: CheckoutSessionRecord;
  readonly shippingRate: ShippingRateRecord | null;
  readonly paymentIntent: { metadata: Record<string, string>; description: string | null };
  paymentIntentStatus: PaymentIntentRecord['status'];
  paymentIntentCreated: number | null;
}

export interface SessionFilter {
  status?: SessionStatus | undefined;
  created?: RangeFilter | undefined;
}

export class SessionStore {
  private readonly sessions = new Map<string, StoredSession>();
  private readonly products = new Map<string, ProductRecord>();
  private readonly publicUrl: string;
  private readonly onEvent: SessionEventListener;
  private nextSeq = 0;

  constructor(publicUrl: string, onEvent: SessionEventListener) {
    this.publicUrl = publicUrl;
    this.onEvent = onEvent;
  }

  create(input: CreateSessionInput, now: number): CheckoutSessionRecord {
    const { record, shippingRate, products } = buildSession(input, now, this.publicUrl);
    for (const product of products) this.products.set(product.id, product);
    this.sessions.set(record.id, {
      seq: this.nextSeq++,
      record,
      shippingRate,
      paymentIntent: input.paymentIntent,
      paymentIntentStatus: 'requires_payment_method',
      paymentIntentCreated: null,
    });
    return record;
  }

  /** Looks a session up, first expiring it if its `expires_at` has passed (Stripe does this on its own clock). */
  find(id: string): StoredSession | undefined {
    const entry = this.sessions.get(id);
    if (entry !== undefined) this.expireIfDue(entry);
    return entry;
  }

  /** Like `find`, but answers Stripe's 404 for an unknown id. */
  require(id: string): StoredSession {
    const entry = this.find(id);
    if (entry === undefined) throw resourceMissing('checkout.session', id, 'session');
    return entry;
  }

  /** Newest first, by `created` and then creation order. */
  list(filter: SessionFilter): StoredSession[] {
    const matches = [...this.sessions.values()].filter((entry) => {
      this.expireIfDue(entry);
      const { status, created } = entry.record;
      if (filter.status !== undefined && status !== filter.status) return false;
      const range = filter.created;
      if (range === undefined) return true;
      return (
        (range.gt === undefined || created > range.gt) &&
        (range.gte === undefined || created >= range.gte) &&
        (range.lt === undefined || created < range.lt) &&
        (range.lte === undefined || created <= range.lte)
      );
    });
    return matches.sort((a, b) => b.record.created - a.record.created || b.seq - a.seq);
  }

  product(id: string): ProductRecord | undefined {
    return this.products.get(id);
  }

  /** `POST /v1/checkout/sessions/:id/expire`. */
  expireByApi(id: string): StoredSession {
    const entry = this.require(id);
    const { status } = entry.record;
    if (status !== 'open') {
      throw invalidRequest(
        `This Checkout Session has a status of \`${status}\`. Only Checkout Sessions with a status of \`open\` can be expired.`,
        { param: 'session' },
      );
    }
    void this.expire(entry);
    return entry;
  }

  /** The customer pays. `unpaid` stands for a delayed method (e.g. a bank debit) that settles later. */
  complete(id: string, paymentStatus: 'paid' | 'unpaid'): { entry: StoredSession; delivered: Promise<void> } {
    const entry = this.requireForHook(id);
    if (entry.record.status !== 'open') {
      throw new SessionStateError(`Checkout Session ${id} is ${entry.record.status}, not open.`);
    }
    const now = nowSeconds();
    entry.paymentIntentCreated = now;
    entry.paymentIntentStatus = paymentStatus === 'paid' ? 'succeeded' : 'processing';
    entry.record = {
      ...entry.record,
      status: 'complete',
      payment_status: paymentStatus,
      payment_intent: newPaymentIntentId(),
      collected_information: { business_name: null, individual_name: null, shipping_details: null },
      customer_details: {
        address: null,
        email: entry.record.customer_email,
        name: null,
        phone: null,
        tax_exempt: 'none',
        tax_ids: [],
      },
      url: null,
    };
    return { entry, delivered: this.onEvent('checkout.session.completed', entry.record) };
  }

  settle(id: string, outcome: 'succeeded' | 'failed'): { entry: StoredSession; delivered: Promise<void> } {
    const entry = this.requireForHook(id);
    const { status, payment_status } = entry.record;
    if (status !== 'complete' || payment_status !== 'unpaid' || entry.paymentIntentStatus !== 'processing') {
      throw new SessionStateError(
        `Checkout Session ${id} has no payment waiting to settle (status ${status}, payment_status ${payment_status}).`,
      );
    }
    entry.paymentIntentStatus = outcome === 'succeeded' ? 'succeeded' : 'requires_payment_method';
    if (outcome === 'succeeded') entry.record = { ...entry.record, payment_status: 'paid' };
    const type = `checkout.session.async_payment_${outcome}` as const;
    return { entry, delivered: this.onEvent(type, entry.record) };
  }

  patch(id: string, patch: Partial<CheckoutSessionRecord>): void {
    const entry = this.requireForHook(id);
    // The id is the key of the store; everything else may be bent to simulate tampering or old sessions.
    entry.record = { ...entry.record, ...patch, id: entry.record.id };
  }

  private requireForHook(id: string): StoredSession {
    const entry = this.find(id);
    if (entry === undefined) throw new SessionStateError(`No such Checkout Session: ${id}`);
    return entry;
  }

  private expireIfDue(entry: StoredSession): void {
    if (entry.record.status === 'open' && entry.record.expires_at <= nowSeconds()) void this.expire(entry);
  }

  private expire(entry: StoredSession): Promise<void> {
    entry.record = { ...entry.record, status: 'expired', url: null };
    return this.onEvent('checkout.session.expired', entry.record);
  }
}

export function paymentIntentOf(entry: StoredSession): PaymentIntentRecord | null {
  const { record } = entry;
  if (record.payment_intent === null) return null;
  return {
    id: record.payment_intent,
    object: 'payment_intent',
    amount: record.amount_total,
    amount_received: entry.paymentIntentStatus === 'succeeded' ? record.amount_total : 0,
    created: entry.paymentIntentCreated ?? record.created,
    currency: record.currency,
    description: entry.paymentIntent.description,
    livemode: false,
    metadata: entry.paymentIntent.metadata,
    payment_method_types: record.payment_method_types,
    receipt_email: null,
    status: entry.paymentIntentStatus,
  };
}
