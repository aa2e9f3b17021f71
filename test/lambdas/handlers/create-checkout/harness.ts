import { createServer } from 'node:http';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type Stripe from 'stripe';
import { z } from 'zod';
import {
  type CheckoutHandlerDeps,
  createCheckoutHandler,
} from '../../../../lambdas/handlers/create-checkout/handler';
import { logger } from '../../../../lambdas/lib/logger';
import { createStripeClient } from '../../../../lambdas/lib/stripe';
import { type StripeSimulator, startStripeSimulator } from '../../../../local/stripe-simulator/server';
import type { CheckoutRequestBody } from '../../../../shared/checkout-request';
import { PUBLIC_API_ROUTES } from '../../../../shared/public-routes';
import { apiGatewayEvent, jsonBody } from '../../../support/api-gateway-event';
import { captureLogs } from '../../../support/logs';
import { TEST_SHOP_ID } from '../../../support/shop';
import { type StandIns, standInEnvironment } from '../../../support/stand-ins';

/** Test-mode values for the simulator: not secrets. */
export const SITE_URL = 'https://shop.test';
export const TEST_SECRET_KEY = 'sk_test_simulator_checkout';
/** Short, so a delayed simulator response becomes a timeout quickly. */
export const CLIENT_TIMEOUT_MS = 400;

/** A valid order for 3 bottles; personal data distinctive enough to search the logs for. */
export const validOrder = {
  name: 'Zoë Testperson',
  email: 'zoe.testperson@example.co.uk',
  phone: '07700 900123',
  address: '1 Pondside Lane\nLittle Wetton',
  postcode: 'sw1a1aa',
  quantity: 3,
  subtotal: 9.75,
  shipping: 4.95,
  total: 14.7,
} satisfies CheckoutRequestBody;

export const ORDERS = [
  { quantity: 3, subtotal: 9.75, total: 14.7, pence: 1470 },
  { quantity: 6, subtotal: 19.5, total: 24.45, pence: 2445 },
  { quantity: 9, subtotal: 29.25, total: 34.2, pence: 3420 },
] as const;

export interface Harness {
  sim: StripeSimulator;
  /** The real SDK against the simulator, as the handler's deps use it (no retries, short timeout). */
  stripe: Stripe;
  handle: CheckoutHandler;
  /** Another handler on the same simulator: the harness's defaults with `overrides` on top. */
  handlerWith: (overrides: Partial<CheckoutHandlerDeps>) => CheckoutHandler;
  close: () => Promise<void>;
}

type CheckoutHandler = ReturnType<typeof createCheckoutHandler>;

export async function startHarness(overrides: Partial<CheckoutHandlerDeps> = {}): Promise<Harness> {
  // Quiet by default; tests that assert on log lines use withLogs().
  logger.setLogLevel('SILENT');
  const sim = await startStripeSimulator({ port: 0 });
  const stripe = createStripeClient(TEST_SECRET_KEY, {
    apiBase: sim.url,
    timeoutMs: CLIENT_TIMEOUT_MS,
    maxNetworkRetries: 0,
  });
  const handlerWith = (more: Partial<CheckoutHandlerDeps>): CheckoutHandler =>
    createCheckoutHandler({
      stripe,
      siteUrl: SITE_URL,
      cutoffHours: 36,
      shopId: TEST_SHOP_ID,
      publicApiKey: undefined,
      ...overrides,
      ...more,
    });
  // A handler built for each request (cheap with the deps given), so each test runs the handler's
  // own wiring too, not a copy built before it: mutation testing sees that code as the test's.
  const handle: CheckoutHandler = (event) => handlerWith({})(event);
  return { sim, stripe, handle, handlerWith, close: () => sim.close() };
}

/** A POST to the checkout route as API Gateway delivers it (header names lower-cased). */
export function checkoutEvent(
  options: { body?: unknown; headers?: Record<string, string>; isBase64Encoded?: boolean } = {},
): APIGatewayProxyEventV2 {
  return apiGatewayEvent({
    method: 'POST',
    path: PUBLIC_API_ROUTES.createCheckout.path,
    headers: { 'Content-Type': 'application/json', ...options.headers },
    lowerCaseHeaders: true,
    body: 'body' in options ? options.body : validOrder,
    ...(options.isBase64Encoded !== undefined && { isBase64Encoded: options.isBase64Encoded }),
  });
}

/** Every session the simulator holds: "creating nothing" is checked against this. */
export async function allSessionIds(stripe: Stripe): Promise<string[]> {
  const ids: string[] = [];
  for await (const session of stripe.checkout.sessions.list({ limit: 100 })) ids.push(session.id);
  return ids;
}

/** Runs the handler and reports the sessions the simulator gained meanwhile ("creates nothing" checks). */
export async function handleCountingSessions(
  harness: Harness,
  event: APIGatewayProxyEventV2,
): Promise<{ result: Awaited<ReturnType<Harness['handle']>>; newSessions: string[] }> {
  const before = new Set(await allSessionIds(harness.stripe));
  const result = await harness.handle(event);
  const newSessions = (await allSessionIds(harness.stripe)).filter((id) => !before.has(id));
  return { result, newSessions };
}

/**
 * Runs `act` and returns what it wrote to the log (through the shared `captureLogs`, so the real
 * serialised lines), as one string for "contains" and "never contains" assertions.
 */
export async function withLogs<T>(act: () => Promise<T>): Promise<{ result: T; logged: string }> {
  const box: { run?: Promise<T> } = {};
  const lines = await captureLogs(() => {
    box.run = act();
    return box.run;
  });
  if (box.run === undefined) throw new Error('captureLogs did not run the action');
  return { result: await box.run, logged: JSON.stringify(lines) };
}

/** The personal data of `validOrder` that must never reach a log line or an error body. */
export const PERSONAL_DATA = [
  validOrder.name,
  validOrder.email,
  validOrder.phone,
  'Pondside',
  'SW1A',
] as const;

const createdSchema = z.strictObject({ url: z.url(), sessionId: z.string().startsWith('cs_test_') });

/** The 200 answer, checked to be exactly `{ url, sessionId }`. */
export function createdSession(result: { statusCode?: number | undefined; body?: string | undefined }): {
  url: string;
  sessionId: string;
} {
  if (result.statusCode !== 200) throw new Error(`expected 200, got ${result.statusCode}: ${result.body}`);
  return createdSchema.parse(jsonBody(result));
}

/**
 * A webhook endpoint that records what reaches it, for "sends nothing" checks that can fail: the
 * simulator delivers every event there, and each test first proves that an event does arrive.
 */
export async function recordingWebhookEndpoint(): Promise<{
  endpoint: { url: string; secret: string };
  received: string[];
  close: () => Promise<void>;
}> {
  const received: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      received.push(typeof body === 'object' && body !== null && 'type' in body ? String(body.type) : '?');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('endpoint is not on a TCP port');
  return {
    endpoint: { url: `http://127.0.0.1:${address.port}/webhook`, secret: 'whsec_recording' },
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * create-checkout's environment as the stack sets it (and the runtime's region), on this
 * harness's simulator and the given stand-ins: for tests that build it as Lambda does.
 */
export function checkoutEnvironment(
  harness: Pick<Harness, 'sim'>,
  standIns: Pick<StandIns, 'tableName' | 'dynamoEndpoint' | 'sesEndpoint'>,
): Record<string, string> {
  return {
    STRIPE_LIVEMODE: 'false',
    STRIPE_SECRET_KEY: TEST_SECRET_KEY,
    STRIPE_API_BASE: harness.sim.url,
    SITE_URL: 'https://shop.test',
    SHOP_ID: TEST_SHOP_ID,
    ...standInEnvironment(standIns),
  };
}
