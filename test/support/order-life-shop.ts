import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { reconcileOrders } from '../../lambdas/domain/reconcile/reconcile-orders';
import { createAdminApiHandler, loadAdminDeps } from '../../lambdas/handlers/admin-api/handler';
import { createCheckoutHandler, loadCheckoutDeps } from '../../lambdas/handlers/create-checkout/handler';
import { createWebhookHandler } from '../../lambdas/handlers/stripe-webhook/handler';
import type { HttpLambda } from '../../local/api-gateway-adapter';
import { withJwtAuthorizer } from '../../local/jwt-authorizer';
import { penceToPounds, quoteOrder } from '../../shared/pricing';
import { PUBLIC_API_ROUTES } from '../../shared/public-routes';
import { apiGatewayEvent } from './api-gateway-event';
import { type FulfilmentHarness, startFulfilmentHarness, WEBHOOK_SECRET } from './fulfilment-harness';
import { signingKey, signToken, TEST_CLIENT_ID, TEST_ISSUER } from './jwt-tokens';
import { TEST_SHOP_ID } from './shop';
import { standInEnvironment } from './stand-ins';

/** One event the simulator sent, held back so the test decides when (and how often) it arrives. */
export interface HeldEvent {
  id: string;
  type: string;
  /** The bytes Stripe signed, pretty-printed as it sends them. */
  payload: string;
  /** The Checkout Session it is about (for `charge.refunded`, through its PaymentIntent). */
  sessionId: string | undefined;
}

/**
 * The shop of one model run, as deployed: a warm create-checkout container (its settings cached as
 * a Lambda's are), the webhook and the reconciler over the fulfilment harness's real clients, and
 * the admin Lambda behind the local JWT authorizer, all on one Stripe simulator, dynalite and SES
 * stand-in. Every event the simulator sends is caught by a local endpoint and held in `caught`:
 * the test delivers each, signed afresh, whenever and as often as it likes.
 */
export interface OrderLifeShop {
  h: FulfilmentHarness;
  /** Events sent since the last `takeCaught`, oldest first. */
  takeCaught(): Promise<HeldEvent[]>;
  checkout(quantity: 3 | 6 | 9): Promise<{ statusCode: number; sessionId?: string; reference?: string }>;
  deliver(event: HeldEvent): Promise<APIGatewayProxyStructuredResultV2>;
  admin(path: string, body: unknown): Promise<{ statusCode: number; body: unknown }>;
  reconcile(): Promise<void>;
  close(): Promise<void>;
}

export async function startOrderLifeShop(): Promise<OrderLifeShop> {
  const h = await startFulfilmentHarness();
  // The SES stand-in keeps one mailbox per process: each run starts with an empty one.
  await fetch(`${h.standIns.sesEndpoint}/clear-store`, { method: 'POST' });
  const caught: HeldEvent[] = [];
  const sessionOfIntent = (intent: unknown): string | undefined => {
    if (typeof intent !== 'string') return undefined;
    // The simulator's own view, not the shop's: which session a refunded charge paid for.
    return sessionIds.find((id) => h.simulator.getSession(id)?.payment_intent === intent);
  };
  const sessionIds: string[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const payload = Buffer.concat(chunks).toString('utf8');
      caught.push(heldEvent(payload, sessionOfIntent));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await listen(receiver);
  h.simulator.setWebhook({ url: `http://127.0.0.1:${portOf(receiver)}/hold`, secret: WEBHOOK_SECRET });

  const env = {
    STRIPE_LIVEMODE: 'false',
    STRIPE_SECRET_KEY: 'sk_test_order_life',
    STRIPE_API_BASE: h.simulator.url,
    SITE_URL: 'https://shop.test',
    SHOP_ID: TEST_SHOP_ID,
    ...standInEnvironment(h.standIns),
  };
  // One warm container for the whole run, as a busy Lambda is: settings read at most every 5 s.
  const checkoutHandler = createCheckoutHandler(() => loadCheckoutDeps(env));
  // The webhook as loadWebhookDeps wires it, refunds included (the harness's own leaves them out).
  const { deps } = h;
  const webhook = createWebhookHandler({
    fulfilment: deps,
    webhookSecret: WEBHOOK_SECRET,
    livemode: false,
    refunds: deps,
  });
  const key = signingKey();
  const token = signToken(key, { email: 'packer@live-aquatics.test' });
  const adminHandler: HttpLambda = withJwtAuthorizer(
    createAdminApiHandler(() => loadAdminDeps(env)),
    { issuer: TEST_ISSUER, clientId: TEST_CLIENT_ID, jwks: key.jwks },
  );

  return {
    h,
    async takeCaught() {
      await h.simulator.idle();
      return caught.splice(0);
    },
    async checkout(quantity) {
      const quote = quoteOrder(quantity);
      const result = await checkoutHandler(
        apiGatewayEvent({
          method: 'POST',
          path: PUBLIC_API_ROUTES.createCheckout.path,
          headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
          body: {
            name: 'Lou Life',
            email: `lou.${randomUUID().slice(0, 8)}@example.com`,
            phone: '07700 900456',
            address: '7 Mill Lane\nFrome',
            postcode: 'BA11 1AA',
            quantity,
            subtotal: penceToPounds(quote.subtotalPence),
            shipping: penceToPounds(quote.shippingPence),
            total: penceToPounds(quote.totalPence),
          },
        }),
      );
      const body = parseObject(result.body);
      const sessionId = typeof body.sessionId === 'string' ? body.sessionId : undefined;
      if (sessionId !== undefined) sessionIds.push(sessionId);
      const reference = typeof body.reference === 'string' ? body.reference : undefined;
      return { statusCode: result.statusCode ?? 0, sessionId, reference };
    },
    deliver: (event) => webhook(h.delivery(event.payload)),
    async admin(path, body) {
      const result = await adminHandler(
        apiGatewayEvent({
          method: 'POST',
          path,
          lowerCaseHeaders: true,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body,
        }),
      );
      return { statusCode: result.statusCode ?? 0, body: parseObject(result.body) };
    },
    async reconcile() {
      await reconcileOrders(h.deps);
    },
    async close() {
      h.simulator.setWebhook(undefined);
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
      await h.close();
    },
  };
}

function heldEvent(payload: string, sessionOfIntent: (intent: unknown) => string | undefined): HeldEvent {
  const event = parseObject(payload);
  const data = typeof event.data === 'object' && event.data !== null ? event.data : {};
  const object =
    'object' in data && typeof data.object === 'object' && data.object !== null ? data.object : {};
  const id = 'id' in object && typeof object.id === 'string' ? object.id : undefined;
  const intent = 'payment_intent' in object ? object.payment_intent : undefined;
  const type = String(event.type);
  return {
    id: String(event.id),
    type,
    payload,
    sessionId: type.startsWith('checkout.session.') ? id : sessionOfIntent(intent),
  };
}

function parseObject(text: string | undefined): Record<string, unknown> {
  const value: unknown = JSON.parse(text === undefined || text === '' ? '{}' : text);
  return typeof value === 'object' && value !== null ? { ...value } : {};
}

function listen(server: Server): Promise<void> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
}

function portOf(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('receiver is not on a TCP port');
  return address.port;
}
