import { createServer, type IncomingHttpHeaders } from 'node:http';
import Stripe from 'stripe';
import { buildSessionParams } from '../../../lambdas/domain/checkout/create-checkout-session';
import type { StripeSimulator } from '../../../local/stripe-simulator/server';
import { checkoutRequestSchema } from '../../../shared/checkout-request';
import { quoteOrder } from '../../../shared/pricing';

export const SECRET_KEY = 'sk_test_simulator';
export const WEBHOOK_SECRET = 'whsec_test_simulator';

/** The real SDK pointed at the simulator; no retries unless a test asks, so each call is one request. */
export function stripeFor(simulator: StripeSimulator, config: Stripe.StripeConfig = {}): Stripe {
  return new Stripe(SECRET_KEY, {
    host: '127.0.0.1',
    port: simulator.port,
    protocol: 'http',
    maxNetworkRetries: 0,
    ...config,
  });
}

/**
 * What the shop's create-checkout sends for 3 bottles (3 × £3.25 + £4.95 delivery = £14.70),
 * made by its own parameter builder, so these tests exercise the parameters production sends.
 */
export function shopSessionParams(
  overrides: Partial<Stripe.Checkout.SessionCreateParams> = {},
): Stripe.Checkout.SessionCreateParams {
  const order = checkoutRequestSchema.parse({
    name: 'Zoë Brontë',
    email: 'zoe@example.com',
    phone: '07700 900123',
    address: '1 Pond Lane\nBristol',
    postcode: 'BS1 4DJ',
    quantity: 3,
    subtotal: 9.75,
    shipping: 4.95,
    total: 14.7,
  });
  const params = buildSessionParams({
    input: order,
    quote: quoteOrder(3),
    siteUrl: 'http://localhost:3000',
    shopId: 'live-aquatics',
    clientReferenceId: 'ord_test_123',
    dispatchDate: '2026-11-30',
    debitDispatchDate: '2026-12-07',
    expiresAt: Math.floor(Date.now() / 1000) + 3600,
  });
  return { ...params, ...overrides };
}

/** Awaits a promise that must reject, and hands back the rejection for typed assertions. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('Expected the promise to reject, but it resolved');
}

export interface ReceivedWebhook {
  rawBody: string;
  headers: IncomingHttpHeaders;
  signature: string;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  close(): Promise<void>;
}

/** A stand-in for the shop's webhook endpoint: answers `statuses` in turn (then 200) and keeps each raw body. */
export async function startWebhookReceiver(statuses: number[] = []): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const queue = [...statuses];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const signature = request.headers['stripe-signature'];
      received.push({
        rawBody: Buffer.concat(chunks).toString('utf8'),
        headers: request.headers,
        signature: typeof signature === 'string' ? signature : '',
      });
      response.writeHead(queue.shift() ?? 200, { 'Content-Type': 'application/json' });
      response.end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string')
    throw new Error('Webhook receiver is not on a TCP port');
  return {
    url: `http://127.0.0.1:${address.port}/functions/v1/stripe-webhook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
