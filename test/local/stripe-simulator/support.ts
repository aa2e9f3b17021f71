import { createServer, type IncomingHttpHeaders } from 'node:http';
import Stripe from 'stripe';
import type { StripeSimulator } from '../../../local/stripe-simulator/server';

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

/** What the shop's create-checkout Lambda sends for 3 bottles (3 × £3.25 + £4.95 delivery = £14.70). */
export function shopSessionParams(
  overrides: Partial<Stripe.Checkout.SessionCreateParams> = {},
): Stripe.Checkout.SessionCreateParams {
  return {
    mode: 'payment',
    currency: 'gbp',
    locale: 'en-GB',
    line_items: [
      {
        price_data: {
          currency: 'gbp',
          unit_amount: 325,
          product_data: {
            name: 'Daphnia Magna',
            description: 'Live Daphnia magna, 250ml bottle',
            metadata: { sku: 'daphnia-magna-250ml' },
          },
        },
        quantity: 3,
      },
    ],
    shipping_options: [
      {
        shipping_rate_data: {
          type: 'fixed_amount',
          fixed_amount: { amount: 495, currency: 'gbp' },
          display_name: 'Royal Mail Tracked 24',
          delivery_estimate: {
            minimum: { unit: 'business_day', value: 1 },
            maximum: { unit: 'business_day', value: 2 },
          },
        },
      },
    ],
    customer_email: 'zoe@example.com',
    client_reference_id: 'order-123',
    metadata: { shop: 'live-aquatics', bottles: '3' },
    payment_intent_data: { metadata: { shop: 'live-aquatics' }, description: 'Daphnia Magna × 3' },
    success_url: 'http://localhost:3000/success?session_id={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://localhost:3000/?checkout=cancelled',
    custom_text: { submit: { message: 'Live cultures are dispatched on Mondays.' } },
    ...overrides,
  };
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
