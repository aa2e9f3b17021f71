import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type Stripe from 'stripe';
import type { FulfilmentDeps } from '../../lambdas/domain/fulfilment/fulfil-checkout';
import { createWebhookHandler } from '../../lambdas/handlers/stripe-webhook/handler';
import { logger } from '../../lambdas/lib/logger';
import { createStripeClient } from '../../lambdas/lib/stripe';
import { loadFulfilmentRuntime } from '../../lambdas/runtime';
import { type StripeSimulator, startStripeSimulator } from '../../local/stripe-simulator/server';
import { orderReference } from '../../shared/checkout-status';
import { createCheckoutSession, type SessionOptions } from './checkout-sessions';
import { TEST_SHOP_ID } from './shop';
import { STAND_IN_REGION, type StandIns, type StoredEmail, startStandIns } from './stand-ins';
import {
  type CheckoutEventType,
  type DeliveryOptions,
  eventPayload,
  stripeEvent,
  webhookDelivery,
} from './stripe-events';

export const WEBHOOK_SECRET = 'whsec_test_fulfilment';
export const MERCHANT_EMAIL = 'merchant@live-aquatics.test';
export const SELLER_EMAIL = 'hello@live-aquatics.test';
/** The shop's address, where a customer whose Direct Debit failed is sent to order again. */
export const SITE_URL = 'https://shop.test';
/** Seals the order pages' links the emails carry (ADR 0037). */
export const ORDER_PAGE_SECRET = 'test-order-page-secret-at-least-32-chars';

export interface FulfilmentHarness {
  simulator: StripeSimulator;
  standIns: StandIns;
  /** The test's own Stripe client: creates sessions; not counted as the code's Stripe calls. */
  stripe: Stripe;
  /** The real dependencies of the code under test, built from an environment like Lambda's. */
  deps: FulfilmentDeps;
  /** The AWS clients inside `deps`, to inject faults into. */
  clients: Awaited<ReturnType<typeof loadFulfilmentRuntime>>['clients'];
  /** The webhook handler over `deps`. */
  webhook(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2>;
  /** The code's clock (`deps.now`), which tests can move forward. */
  /**
   * `freeze` stops the code's clock on a whole second, so a test that signs "301 s ahead" is still
   * 301 s ahead when the code reads the clock, however slow the machine.
   */
  clock: { nowSeconds(): number; advance(ms: number): void; freeze(): void; reset(): void };
  /** EMF lines the code wrote. */
  metricLines: string[];
  /** Requests the code under test made to Stripe. */
  stripeCalls(): number;
  /** A session created like create-checkout does, then paid in the simulator. */
  paidSession(options?: SessionOptions): Promise<Stripe.Checkout.Session>;
  /** A signed-ready event payload for a session, as Stripe would send it now. */
  eventFor(type: CheckoutEventType, sessionId: string, options?: { livemode?: boolean }): Promise<string>;
  /** The `charge.refunded` payload Stripe sends after a refund of a session's payment: its charge, now. */
  chargeRefundedEventFor(sessionId: string): Promise<string>;
  /** A delivery of `payload`, signed now (or at `timestamp`) with the endpoint's secret. */
  delivery(payload: string, options?: Partial<DeliveryOptions>): APIGatewayProxyEventV2;
  ordersFor(sessionId: string): Promise<Array<Record<string, unknown>>>;
  emailsFor(sessionId: string): Promise<{ confirmation: StoredEmail[]; merchantNotice: StoredEmail[] }>;
  /** How many orders and emails of each kind a session has: "exactly once" at a glance. */
  counts(sessionId: string): Promise<{ orders: number; confirmation: number; merchantNotice: number }>;
  close(): Promise<void>;
}

/**
 * The real pieces, wired as in production: the Stripe simulator behind the real SDK, dynalite and
 * the SES stand-in behind the real AWS SDK clients, and the handlers' own dependency loader fed
 * an environment. Events are not delivered by the simulator (no endpoint) unless a test sets one,
 * so each test decides exactly which deliveries the webhook sees.
 */
export async function startFulfilmentHarness(
  /** More of the functions' environment (the VAPID pair, say); the rest is as above. */
  moreEnv: Record<string, string> = {},
): Promise<FulfilmentHarness> {
  // Quiet by default; a test that asserts on log lines turns them on with captureLogs().
  logger.setLogLevel('SILENT');
  const [simulator, standIns] = await Promise.all([
    startStripeSimulator({ port: 0, webhookRetryDelaysMs: [] }),
    startStandIns(),
  ]);
  const runtime = await loadFulfilmentRuntime({
    STRIPE_LIVEMODE: 'false',
    STRIPE_SECRET_KEY: 'sk_test_fulfilment',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: simulator.url,
    ORDERS_TABLE_NAME: standIns.tableName,
    DYNAMODB_ENDPOINT: standIns.dynamoEndpoint,
    SES_ENDPOINT: standIns.sesEndpoint,
    AWS_REGION: STAND_IN_REGION,
    SES_FROM_ADDRESS: 'orders@live-aquatics.test',
    MERCHANT_EMAIL,
    SELLER_NAME: 'Live Aquatics Ltd',
    SELLER_ADDRESS: '1 Pond Lane\nBristol BS1 4DJ',
    SELLER_EMAIL,
    SELLER_COMPANY_NUMBER: '01234567',
    SITE_URL,
    SHOP_ID: TEST_SHOP_ID,
    ORDER_PAGE_SECRET,
    ...moreEnv,
  });
  let offsetMs = 0;
  let frozenAtMs: number | undefined;
  const metricLines: string[] = [];
  const deps: FulfilmentDeps = {
    ...runtime.deps,
    now: () => new Date((frozenAtMs ?? Date.now()) + offsetMs),
    metrics: (line) => metricLines.push(line),
  };
  let stripeCalls = 0;
  deps.stripe.on('request', () => {
    stripeCalls += 1;
  });
  const clock = {
    nowSeconds: () => Math.floor(deps.now().getTime() / 1000),
    advance: (ms: number) => {
      offsetMs += ms;
    },
    freeze: () => {
      frozenAtMs = Math.floor(Date.now() / 1000) * 1000;
    },
    reset: () => {
      offsetMs = 0;
      frozenAtMs = undefined;
    },
  };
  const stripe = createStripeClient('sk_test_harness', { apiBase: simulator.url, maxNetworkRetries: 0 });
  // Built for each delivery, so each test runs the handler's wiring too, not a copy built before it.
  // The refund recorder is wired as loadWebhookDeps wires it: over fulfilment's own dependencies.
  const webhook = (event: APIGatewayProxyEventV2) =>
    createWebhookHandler({ fulfilment: deps, webhookSecret: WEBHOOK_SECRET, livemode: false, refunds: deps })(
      event,
    );
  const ordersFor = async (sessionId: string) =>
    (await standIns.orderItems()).filter(
      (item) => item.sessionId === sessionId && String(item.pk).startsWith('ORDER#'),
    );
  const emailsFor = async (sessionId: string) => {
    const reference = orderReference(sessionId);
    const emails = (await standIns.emails()).filter((email) => email.subject.includes(reference));
    return {
      confirmation: emails.filter((email) => !email.destination.to.includes(MERCHANT_EMAIL)),
      merchantNotice: emails.filter((email) => email.destination.to.includes(MERCHANT_EMAIL)),
    };
  };

  return {
    simulator,
    standIns,
    stripe,
    deps,
    clients: runtime.clients,
    webhook,
    clock,
    metricLines,
    stripeCalls: () => stripeCalls,
    async paidSession(options) {
      const session = await createCheckoutSession(stripe, options);
      await simulator.completeSession(session.id);
      return session;
    },
    async eventFor(type, sessionId, options = {}) {
      const session = await stripe.checkout.sessions.retrieve(sessionId);
      return eventPayload(
        stripeEvent(type, session, { created: clock.nowSeconds(), livemode: options.livemode }),
      );
    },
    async chargeRefundedEventFor(sessionId) {
      const session = await stripe.checkout.sessions.retrieve(sessionId, {
        expand: ['payment_intent.latest_charge'],
      });
      const intent = session.payment_intent;
      const charge = typeof intent === 'object' ? intent?.latest_charge : undefined;
      if (typeof charge !== 'object' || charge === null) throw new Error(`${sessionId} has no charge`);
      return eventPayload(stripeEvent('charge.refunded', charge, { created: clock.nowSeconds() }));
    },
    delivery(payload, options = {}) {
      return webhookDelivery(payload, { secret: WEBHOOK_SECRET, timestamp: clock.nowSeconds(), ...options });
    },
    ordersFor,
    emailsFor,
    async counts(sessionId) {
      const emails = await emailsFor(sessionId);
      return {
        orders: (await ordersFor(sessionId)).length,
        confirmation: emails.confirmation.length,
        merchantNotice: emails.merchantNotice.length,
      };
    },
    async close() {
      await Promise.all([simulator.close(), standIns.close()]);
    },
  };
}
