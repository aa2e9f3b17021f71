import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createCheckoutHandler, handler } from '../../../../lambdas/handlers/create-checkout/handler';
import { ConfigError } from '../../../../lambdas/lib/config';
import { createStripeClient } from '../../../../lambdas/lib/stripe';
import { jsonBody } from '../../../support/api-gateway-event';
import { standInEnvironment, startStandIns } from '../../../support/stand-ins';
import {
  CLIENT_TIMEOUT_MS,
  checkoutEvent,
  createdSession,
  type Harness,
  PERSONAL_DATA,
  startHarness,
  TEST_SECRET_KEY,
  withLogs,
} from './harness';

// Stripe or our own configuration failing: the customer gets a generic body (the page's "Checkout
// Failed" text), the log gets the detail, and neither gets personal data or a secret.

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());
afterEach(() => {
  harness.sim.clearFaults();
  vi.unstubAllEnvs();
});

function expectNoLeak(body: string | undefined): void {
  for (const detail of [
    'Simulated',
    'api_error',
    'Stripe',
    'timeout',
    'stack',
    'sk_test',
    ...PERSONAL_DATA,
  ]) {
    expect(body ?? '').not.toContain(detail);
  }
}

describe('create-checkout: Stripe failing', () => {
  it.each([500, 502, 503, 429])(
    'Stripe error %i: a generic 502 body, the detail in the log, no secret or PII',
    async (status) => {
      harness.sim.injectFault({ status, pathPrefix: '/v1/checkout/sessions' });

      const { result, logged } = await withLogs(() => harness.handle(checkoutEvent()));

      expect(result.statusCode).toBe(502);
      expect(result.headers?.['cache-control']).toBe('no-store');
      expect(jsonBody(result)).toEqual({ error: 'Unable to process your order. Please try again.' });
      expectNoLeak(result.body);
      expect(logged).toContain('"statusCode":502');
      expect(logged).toContain(`"statusCode":${status}`);
      for (const value of [...PERSONAL_DATA, TEST_SECRET_KEY]) expect(logged).not.toContain(value);
    },
  );

  it("answers Stripe refusing the request (a 400 that is our fault, not the customer's) with 502", async () => {
    harness.sim.injectFault({ status: 400, pathPrefix: '/v1/checkout/sessions' });

    const { result, logged } = await withLogs(() => harness.handle(checkoutEvent()));

    expect(result.statusCode).toBe(502);
    expect(logged).toContain('StripeInvalidRequestError');
  });

  it(`answers a Stripe slower than the client timeout (${CLIENT_TIMEOUT_MS} ms) with 502`, async () => {
    harness.sim.injectFault({ delayMs: CLIENT_TIMEOUT_MS + 600, pathPrefix: '/v1/checkout/sessions' });
    const started = Date.now();

    const { result, logged } = await withLogs(() => harness.handle(checkoutEvent()));

    expect(Date.now() - started).toBeLessThan(CLIENT_TIMEOUT_MS + 500);
    expect(result.statusCode).toBe(502);
    expect(jsonBody(result)).toEqual({ error: 'Unable to process your order. Please try again.' });
    expect(logged).toContain('StripeConnectionError');
  });

  it('answers a rejected secret key with 502 and never logs the key', async () => {
    const badKey = 'sk_live_should_never_be_logged';
    const stripe = createStripeClient(badKey, { apiBase: harness.sim.url, maxNetworkRetries: 0 });
    const handle = harness.handlerWith({ stripe });

    const { result, logged } = await withLogs(() => handle(checkoutEvent()));

    expect(result.statusCode).toBe(502);
    expect(logged).toContain('StripeAuthenticationError');
    expect(logged).not.toContain('should_never_be_logged');
  });

  it('recovers on the next request once Stripe is back', async () => {
    harness.sim.injectFault({ status: 500, times: 1, pathPrefix: '/v1/checkout/sessions' });

    const failed = await harness.handle(checkoutEvent());
    const next = await harness.handle(checkoutEvent());

    expect(failed.statusCode).toBe(502);
    expect(createdSession(next).sessionId).toMatch(/^cs_test_/);
  });
});

describe('create-checkout: configuration and unexpected errors', () => {
  it('answers 503 when the dependencies cannot be loaded', async () => {
    const handle = createCheckoutHandler(() => Promise.reject(new ConfigError(['SITE_URL: Invalid URL'])));

    const { result, logged } = await withLogs(() => handle(checkoutEvent()));

    expect(result.statusCode).toBe(503);
    expect(jsonBody(result)).toEqual({
      error: 'The shop is temporarily unavailable. Please try again in a few minutes.',
    });
    expect(logged).toContain('SITE_URL: Invalid URL');
  });

  it('answers 503 when Secrets Manager fails, whatever it throws', async () => {
    const handle = createCheckoutHandler(() => Promise.reject(new Error('AccessDeniedException')));

    const result = await handle(checkoutEvent());

    expect(result.statusCode).toBe(503);
    expectNoLeak(result.body);
  });

  it('answers an unexpected error with a generic 500, the detail in the log only', async () => {
    const handle = harness.handlerWith({
      now: () => {
        throw new RangeError('clock exploded');
      },
    });

    const { result, logged } = await withLogs(() => handle(checkoutEvent()));

    expect(result.statusCode).toBe(500);
    expect(jsonBody(result)).toEqual({ error: 'Something went wrong. Please try again.' });
    expect(result.body).not.toContain('clock');
    expect(logged).toContain('clock exploded');
  });
});

describe('create-checkout: the deployed entry point, configured from the environment', () => {
  it('answers 503 while configuration is missing, then works once it is there (no cached failure)', async () => {
    vi.stubEnv('SITE_URL', undefined);
    vi.stubEnv('STRIPE_SECRET_ID', undefined);
    vi.stubEnv('STRIPE_SECRET_KEY', TEST_SECRET_KEY);
    vi.stubEnv('STRIPE_API_BASE', harness.sim.url);
    vi.stubEnv('SHOP_ID', 'LiveAquatics-test');
    vi.stubEnv('STRIPE_LIVEMODE', 'false');
    vi.stubEnv('PUBLIC_API_KEY', undefined);
    // The shop's settings item is read on every checkout: the table and sender of a real stack.
    const standIns = await startStandIns();
    onTestFinished(() => standIns.close());
    for (const [name, value] of Object.entries(standInEnvironment(standIns))) {
      vi.stubEnv(name, value);
    }

    const { result: missing, logged } = await withLogs(() => handler(checkoutEvent()));
    vi.stubEnv('SITE_URL', 'https://configured.example/');
    const configured = await handler(checkoutEvent());

    expect(missing.statusCode).toBe(503);
    expect(logged).toContain('SITE_URL');
    const { sessionId } = createdSession(configured);
    expect(harness.sim.getSession(sessionId)).toMatchObject({
      success_url: 'https://configured.example/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://configured.example/',
    });
  });
});
