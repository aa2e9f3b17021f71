import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { orderPageKeys, orderPageToken } from '../../lambdas/domain/order-page-token';
import { reconcileOrders } from '../../lambdas/domain/reconcile/reconcile-orders';
import { readStandingOrder } from '../../lambdas/domain/storage/standing-orders';
import { createAdminApiHandler, loadAdminDeps } from '../../lambdas/handlers/admin-api/handler';
import { createCheckoutHandler, loadCheckoutDeps } from '../../lambdas/handlers/create-checkout/handler';
import { createOrderPageHandler, loadOrderPageDeps } from '../../lambdas/handlers/order-page/handler';
import type { HttpLambda } from '../../local/api-gateway-adapter';
import { withJwtAuthorizer } from '../../local/jwt-authorizer';
import { penceToPounds, quoteOrder } from '../../shared/pricing';
import { PUBLIC_API_ROUTES } from '../../shared/public-routes';
import type { Repeat } from '../../shared/standing-order';
import { apiGatewayEvent } from './api-gateway-event';
import {
  type FulfilmentHarness,
  MERCHANT_EMAIL,
  ORDER_PAGE_SECRET,
  SITE_URL,
  startFulfilmentHarness,
  WEBHOOK_SECRET,
} from './fulfilment-harness';
import { signingKey, signToken, TEST_CLIENT_ID, TEST_ISSUER } from './jwt-tokens';
import { TEST_SHOP_ID } from './shop';
import { standInEnvironment } from './stand-ins';

/** One event the simulator sent, held back so the test decides when (and how often) it arrives. */
export interface CaughtEvent {
  id: string;
  type: string;
  /** The bytes Stripe signed. */
  payload: string;
}

/** What a handler answered: its status and its JSON body. */
export interface Answer {
  statusCode: number;
  body: Record<string, unknown>;
}

/**
 * The shop of one model run of standing orders (issue 50): create-checkout, the webhook, the
 * order page's function, the admin API behind the local JWT authorizer and the reconciler, all on
 * one clock (`h.deps.now`) that moves with the Stripe simulator's test clock, over dynalite and
 * the SES stand-in. Every event the simulator sends is caught and held: the test delivers each,
 * signed afresh, whenever and as often as it likes.
 */
export interface StandingOrderLifeShop {
  h: FulfilmentHarness;
  /** Events sent since the last call, oldest first. */
  takeCaught(): Promise<CaughtEvent[]>;
  /** A standing order checked out as the page does, and paid by card at once: its subscription. */
  subscribe(bottles: 3 | 6 | 9, repeat: Repeat): Promise<{ statusCode: number; subscriptionId?: string }>;
  deliver(event: CaughtEvent): Promise<APIGatewayProxyStructuredResultV2>;
  /** The token of the standing order's page, as its emails carry it. */
  pageToken(subscriptionId: string): Promise<string>;
  view(token: string): Promise<Answer>;
  change(body: Record<string, unknown>): Promise<Answer>;
  admin(path: string, body: unknown): Promise<Answer>;
  reconcile(): Promise<void>;
  /** The code's clock and Stripe's moved forward together (renewals made, charged or voided). */
  advance(ms: number): Promise<void>;
  close(): Promise<void>;
}

export async function startStandingOrderLifeShop(): Promise<StandingOrderLifeShop> {
  const h = await startFulfilmentHarness();
  // The SES stand-in keeps one mailbox per process: each run starts with an empty one.
  await fetch(`${h.standIns.sesEndpoint}/clear-store`, { method: 'POST' });
  const caught: CaughtEvent[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const payload = Buffer.concat(chunks).toString('utf8');
      const event = parseObject(payload);
      caught.push({ id: String(event.id), type: String(event.type), payload });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  h.simulator.setWebhook({ url: `http://127.0.0.1:${portOf(receiver)}/hold`, secret: WEBHOOK_SECRET });

  const env = {
    STRIPE_LIVEMODE: 'false',
    STRIPE_SECRET_KEY: 'sk_test_standing_life',
    STRIPE_API_BASE: h.simulator.url,
    SITE_URL,
    SHOP_ID: TEST_SHOP_ID,
    MERCHANT_EMAIL,
    ORDER_PAGE_SECRET,
    ...standInEnvironment(h.standIns),
  };
  const now = h.deps.now;
  // Every function reads the one moved clock, as the deployed ones all read the same time.
  const checkout = createCheckoutHandler(async () => ({ ...(await loadCheckoutDeps(env)), now }));
  const page = createOrderPageHandler({ ...(await loadOrderPageDeps(env)), now });
  const key = signingKey();
  const token = signToken(key, { email: 'packer@live-aquatics.test' });
  const adminHandler: HttpLambda = withJwtAuthorizer(
    createAdminApiHandler(async () => ({ ...(await loadAdminDeps(env)), now })),
    { issuer: TEST_ISSUER, clientId: TEST_CLIENT_ID, jwks: key.jwks },
  );
  const keys = orderPageKeys(ORDER_PAGE_SECRET);
  const answer = (result: APIGatewayProxyStructuredResultV2): Answer => ({
    statusCode: result.statusCode ?? 0,
    body: parseObject(result.body),
  });

  return {
    h,
    async takeCaught() {
      await h.simulator.idle();
      return caught.splice(0);
    },
    async subscribe(bottles, repeat) {
      const quote = quoteOrder(bottles);
      const result = await checkout(
        apiGatewayEvent({
          method: 'POST',
          path: PUBLIC_API_ROUTES.createCheckout.path,
          headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
          body: {
            name: 'Sam Standing',
            email: `sam.${randomUUID().slice(0, 8)}@example.com`,
            phone: '07700 900654',
            address: '3 Pond Row\nWells',
            postcode: 'BA5 2AA',
            quantity: bottles,
            subtotal: penceToPounds(quote.subtotalPence),
            shipping: penceToPounds(quote.shippingPence),
            total: penceToPounds(quote.totalPence),
            repeat,
          },
        }),
      );
      const sessionId = parseObject(result.body).sessionId;
      if (typeof sessionId !== 'string') return { statusCode: result.statusCode ?? 0 };
      await h.simulator.completeSession(sessionId);
      const subscription = h.simulator.getSession(sessionId)?.subscription;
      const subscriptionId = typeof subscription === 'string' ? subscription : subscription?.id;
      return { statusCode: result.statusCode ?? 0, ...(subscriptionId !== undefined && { subscriptionId }) };
    },
    deliver: (event) => h.webhook(h.delivery(event.payload)),
    async pageToken(subscriptionId) {
      const record = await readStandingOrder(h.deps.table, subscriptionId);
      if (record === undefined) throw new Error(`no standing order ${subscriptionId}`);
      return orderPageToken(subscriptionId, record.pageKey, keys);
    },
    async view(pageToken) {
      return answer(
        await page(
          apiGatewayEvent({
            method: 'GET',
            path: PUBLIC_API_ROUTES.orderPage.path,
            queryStringParameters: { token: pageToken },
          }),
        ),
      );
    },
    async change(body) {
      return answer(
        await page(
          apiGatewayEvent({
            method: 'POST',
            path: PUBLIC_API_ROUTES.orderPageStandingOrder.path,
            headers: { 'content-type': 'application/json' },
            body,
          }),
        ),
      );
    },
    async admin(path, body) {
      return answer(
        await adminHandler(
          apiGatewayEvent({
            method: 'POST',
            path,
            lowerCaseHeaders: true,
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body,
          }),
        ),
      );
    },
    async reconcile() {
      await reconcileOrders(h.deps);
    },
    async advance(ms) {
      h.clock.advance(ms);
      await h.simulator.advanceClock(ms);
    },
    async close() {
      h.simulator.setWebhook(undefined);
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
      await h.close();
    },
  };
}

function parseObject(text: string | undefined): Record<string, unknown> {
  const value: unknown = JSON.parse(text === undefined || text === '' ? '{}' : text);
  return typeof value === 'object' && value !== null ? { ...value } : {};
}

function portOf(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('receiver is not on a TCP port');
  return address.port;
}
