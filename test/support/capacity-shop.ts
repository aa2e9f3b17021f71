import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { CapacitySettings } from '../../lambdas/domain/storage/capacity-settings';
import type { CapacityDay } from '../../lambdas/domain/storage/capacity-store';
import { capacityStoreFromTable } from '../../lambdas/domain/storage/capacity-table';
import { writeCapacitySettings } from '../../lambdas/domain/storage/settings-store';
import { createCheckoutHandler, loadCheckoutDeps } from '../../lambdas/handlers/create-checkout/handler';
import { type IsoDate, nextDispatchDate } from '../../shared/dispatch';
import { penceToPounds, quoteOrder } from '../../shared/pricing';
import { PUBLIC_API_ROUTES } from '../../shared/public-routes';
import { apiGatewayEvent } from './api-gateway-event';
import { type FulfilmentHarness, startFulfilmentHarness } from './fulfilment-harness';
import { TEST_SHOP_ID } from './shop';
import { standInEnvironment } from './stand-ins';
import type { CheckoutEventType } from './stripe-events';

/**
 * The shop as deployed, for the dispatch days' bottles: create-checkout built from its environment
 * (its signed-fetch reservation and settings read), and the webhook and reconciler over the
 * fulfilment harness's real clients, all on one simulator, dynalite and SES stand-in.
 */
export interface CapacityShop {
  h: FulfilmentHarness;
  /**
   * POSTs a checkout through create-checkout, as the page does (its own idempotency key unless
   * given; a customer address of its own unless `email`; `viewer`, the address CloudFront passes).
   */
  checkout(
    quantity?: 3 | 6 | 9,
    key?: string,
    from?: { email?: string; viewer?: string },
  ): Promise<APIGatewayProxyStructuredResultV2 & { sessionId?: string }>;
  /**
   * One warm create-checkout container, as a Lambda keeps between requests: its cached settings
   * are what a pause has to reach. Posts as `checkout` does.
   */
  warmContainer(): CapacityShop['checkout'];
  /** Delivers one event of a session to the webhook, signed now, as Stripe would send it. */
  deliver(type: CheckoutEventType, sessionId: string): Promise<APIGatewayProxyStructuredResultV2>;
  /** Pays a session on the simulator's page (card, or a debit left pending) and delivers `completed`. */
  pay(sessionId: string, paymentStatus?: 'paid' | 'unpaid'): Promise<APIGatewayProxyStructuredResultV2>;
  setCapacity(settings: CapacitySettings): Promise<void>;
  /** A day's counters, read consistently. */
  day(date: IsoDate): Promise<CapacityDay>;
  /** The first dispatch day for an order placed now (the stack's cut-off: 36 hours). */
  firstDay(): IsoDate;
  /** The metadata create-checkout put on a session. */
  metadata(sessionId: string): Record<string, string>;
  close(): Promise<void>;
}

export async function startCapacityShop(): Promise<CapacityShop> {
  const h = await startFulfilmentHarness();
  const env = {
    STRIPE_LIVEMODE: 'false',
    STRIPE_SECRET_KEY: 'sk_test_capacity',
    STRIPE_API_BASE: h.simulator.url,
    SITE_URL: 'https://shop.test',
    SHOP_ID: TEST_SHOP_ID,
    ...standInEnvironment(h.standIns),
  };
  // A fresh container for each request, so a test's new settings are read at once (a warm one
  // would act on them within SETTINGS_MAX_AGE_MS).
  const handle: ReturnType<typeof createCheckoutHandler> = (event) =>
    createCheckoutHandler(() => loadCheckoutDeps(env))(event);
  const post =
    (container: ReturnType<typeof createCheckoutHandler>): CapacityShop['checkout'] =>
    async (quantity = 3, key = randomUUID(), from = {}) => {
      const quote = quoteOrder(quantity);
      const result = await container(
        apiGatewayEvent({
          method: 'POST',
          path: PUBLIC_API_ROUTES.createCheckout.path,
          headers: {
            'content-type': 'application/json',
            'idempotency-key': key,
            ...(from.viewer !== undefined && { 'cloudfront-viewer-address': `${from.viewer}:51234` }),
          },
          body: {
            name: 'Cara Capacity',
            email: from.email ?? `cara.${randomUUID().slice(0, 8)}@example.com`,
            phone: '07700 900789',
            address: '4 Weir Walk\nBath',
            postcode: 'BA1 1AA',
            quantity,
            subtotal: penceToPounds(quote.subtotalPence),
            shipping: penceToPounds(quote.shippingPence),
            total: penceToPounds(quote.totalPence),
          },
        }),
      );
      const body: unknown = JSON.parse(result.body ?? '{}');
      const sessionId =
        typeof body === 'object' && body !== null && 'sessionId' in body && typeof body.sessionId === 'string'
          ? body.sessionId
          : undefined;
      return { ...result, sessionId };
    };
  const table = { client: h.standIns.inspector, tableName: h.standIns.tableName };
  const store = capacityStoreFromTable(table);
  const deliver = async (type: CheckoutEventType, sessionId: string) =>
    h.webhook(h.delivery(await h.eventFor(type, sessionId)));
  return {
    h,
    checkout: post(handle),
    warmContainer: () => post(createCheckoutHandler(() => loadCheckoutDeps(env))),
    deliver,
    async pay(sessionId, paymentStatus = 'paid') {
      await h.simulator.completeSession(sessionId, { paymentStatus });
      return deliver('checkout.session.completed', sessionId);
    },
    async setCapacity(settings) {
      await writeCapacitySettings(table, settings, new Date());
    },
    day: (date) => store.read(date),
    firstDay: () => nextDispatchDate(new Date(), { cutoffHours: 36 }),
    metadata(sessionId) {
      const metadata = h.simulator.getSession(sessionId)?.metadata;
      if (!metadata) throw new Error(`no session ${sessionId}`);
      return { ...metadata };
    },
    close: () => h.close(),
  };
}
