import type Stripe from 'stripe';
import { z } from 'zod';
import type { BillingState } from './billing';
import type { KeptIdempotencyKey } from './idempotency';
import type { CheckoutSessionRecord } from './objects';
import type { StoredSession, StoreState } from './store';

/**
 * What the simulator keeps between runs of `npm start` (docs/decisions/0046): its objects, the
 * webhook endpoints, the finished idempotency keys and the Direct Debits waiting to settle. The
 * simulator wrote every object itself, so each is checked for its kind and id, not field by field.
 */
export interface KeptSimulatorState {
  version: 1;
  store: StoreState;
  webhookEndpoints: Array<{ endpoint: Stripe.WebhookEndpoint; seq: number }>;
  idempotencyKeys: KeptIdempotencyKey[];
  /** Direct Debits paid "settles later": each settles at `dueAtMs` on the simulator's clock. */
  pendingSettlements: Array<{ sessionId: string; outcome: 'succeeded' | 'failed'; dueAtMs: number }>;
}

/** A Stripe object of one kind (`object`), with its id: the shape the simulator wrote. */
function stripeObject<T>(kind: string) {
  return z.custom<T>(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      'object' in value &&
      value.object === kind &&
      'id' in value &&
      typeof value.id === 'string',
    { message: `not a ${kind}` },
  );
}

const storedSessionSchema: z.ZodType<StoredSession> = z.object({
  seq: z.number().int(),
  session: stripeObject<CheckoutSessionRecord>('checkout.session'),
  shippingRate: stripeObject<Stripe.ShippingRate>('shipping_rate').nullable(),
  paymentIntentData: z.object({
    metadata: z.record(z.string(), z.string()),
    description: z.string().nullable(),
  }),
  subscriptionData: z
    .object({ metadata: z.record(z.string(), z.string()), description: z.string().nullable() })
    .optional(),
});

const billingStateSchema: z.ZodType<BillingState> = z.object({
  nextSeq: z.number().int(),
  customers: z.array(stripeObject<Stripe.Customer>('customer')),
  subscriptions: z.array(
    z.object({
      seq: z.number().int(),
      subscription: stripeObject<Stripe.Subscription>('subscription'),
      failRenewals: z.number().int(),
    }),
  ),
  invoices: z.array(z.object({ seq: z.number().int(), invoice: stripeObject<Stripe.Invoice>('invoice') })),
  testClocks: z.array(stripeObject<Stripe.TestHelpers.TestClock>('test_helpers.test_clock')),
});

export const keptSimulatorStateSchema: z.ZodType<KeptSimulatorState> = z.object({
  version: z.literal(1),
  store: z.object({
    nextSeq: z.number().int(),
    sessions: z.array(storedSessionSchema),
    products: z.array(stripeObject<Stripe.Product>('product')),
    paymentIntents: z.array(stripeObject<Stripe.PaymentIntent>('payment_intent')),
    charges: z.array(stripeObject<Stripe.Charge>('charge')),
    refunds: z.array(stripeObject<Stripe.Refund>('refund')),
    billing: billingStateSchema.optional(),
  }),
  webhookEndpoints: z.array(
    z.object({ endpoint: stripeObject<Stripe.WebhookEndpoint>('webhook_endpoint'), seq: z.number().int() }),
  ),
  idempotencyKeys: z.array(
    z.object({
      key: z.string(),
      fingerprint: z.string(),
      endpoint: z.string(),
      createdAt: z.number(),
      response: z.object({ status: z.number().int(), body: z.string() }),
    }),
  ),
  pendingSettlements: z.array(
    z.object({ sessionId: z.string(), outcome: z.enum(['succeeded', 'failed']), dueAtMs: z.number() }),
  ),
});
