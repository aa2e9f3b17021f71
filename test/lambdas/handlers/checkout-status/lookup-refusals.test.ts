import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createStatusHandler, handler } from '../../../../lambdas/handlers/checkout-status/handler';
import { jsonBody } from '../../../support/api-gateway-event';
import { bundledInputs } from '../../../support/bundle';
import { CLIENT_TIMEOUT_MS, SITE_URL, TEST_SECRET_KEY, withLogs } from '../create-checkout/harness';
import { type StatusHarness, startStatusHarness, statusAnswer, statusEvent } from './harness';

// Everything the success page's lookup refuses: malformed, unknown and foreign ids are one 404
// (nothing to probe), Stripe failing is a generic 502, missing configuration a 503.

let harness: StatusHarness;

beforeAll(async () => {
  harness = await startStatusHarness();
});
afterAll(() => harness.close());
afterEach(() => {
  harness.sim.clearFaults();
  vi.unstubAllEnvs();
});

const NOT_FOUND = { error: 'Order not found.' };

describe('checkout-status: 404 for anything that is not one of our sessions', () => {
  it.each([
    ['empty', ''],
    ['not a session id', 'hello'],
    ['too short', 'cs_test_abc'],
    ['a path', 'cs_test_aaaaaaaaaa/../../v1/customers'],
    ['markup', 'cs_live_<script>alert(1)</script>'],
    ['a PaymentIntent id', 'pi_3Oabcdefghijklmnop'],
    ['an id with a newline', 'cs_test_abcdefghijkl\n'],
    ['an id over 200 characters', `cs_test_${'a'.repeat(201)}`],
  ])('success lookup of a malformed id (%s): 404, without asking Stripe', async (_label, id) => {
    // A pending fault proves Stripe was not called: it is still there for the next lookup.
    const ours = await harness.createSession();
    harness.sim.injectFault({ status: 500, times: 1, pathPrefix: '/v1/checkout/sessions/' });

    const result = await harness.status(statusEvent(id));

    expect(result.statusCode).toBe(404);
    expect(jsonBody(result)).toEqual(NOT_FOUND);
    expect((await harness.status(statusEvent(ours))).statusCode).toBe(502);
  });

  it('answers a request without session_id with 404, logged as malformed', async () => {
    const { result, logged } = await withLogs(() => harness.status(statusEvent()));

    expect(result.statusCode).toBe(404);
    expect(jsonBody(result)).toEqual(NOT_FOUND);
    // The operator tells a typo from a probe of real ids by the reason; the id itself is not logged.
    expect(logged).toContain('"reason":"malformed"');
  });

  it('success lookup of an unknown id: 404', async () => {
    const unknownId = 'cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuV';

    const { result, logged } = await withLogs(() => harness.status(statusEvent(unknownId)));

    expect(result.statusCode).toBe(404);
    expect(jsonBody(result)).toEqual(NOT_FOUND);
    expect(logged).toContain('"reason":"missing"');
  });

  it.each([
    ['no metadata', {}],
    ['another shop', { shop: 'another-shop' }],
    ['a look-alike marker', { shop: 'Live-Aquatics' }],
  ])('answers a session that is not ours (%s) with 404, even when paid', async (_label, metadata) => {
    const foreign = await harness.stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [
        { price_data: { currency: 'gbp', unit_amount: 500, product_data: { name: 'Other' } }, quantity: 1 },
      ],
      success_url: `${SITE_URL}/success?session_id={CHECKOUT_SESSION_ID}`,
      metadata,
    });
    await harness.sim.completeSession(foreign.id);

    const { result, logged } = await withLogs(() => harness.status(statusEvent(foreign.id)));

    expect(result.statusCode).toBe(404);
    expect(jsonBody(result)).toEqual(NOT_FOUND);
    expect(logged).toContain('"reason":"not-ours"');
  });

  it('answers POST with 405', async () => {
    const event = statusEvent(await harness.createSession());
    event.requestContext.http = { ...event.requestContext.http, method: 'POST' };

    const result = await harness.status(event);

    expect(result.statusCode).toBe(405);
  });
});

describe('checkout-status: Stripe and configuration failing', () => {
  it.each([500, 503, 429])('answers a Stripe %i with a generic 502', async (status) => {
    const sessionId = await harness.createSession();
    harness.sim.injectFault({ status, pathPrefix: `/v1/checkout/sessions/${sessionId}` });

    const { result, logged } = await withLogs(() => harness.status(statusEvent(sessionId)));

    expect(result.statusCode).toBe(502);
    expect(result.headers?.['cache-control']).toBe('no-store');
    expect(jsonBody(result)).toEqual({
      error: 'Unable to check your payment right now. Please refresh the page in a moment.',
    });
    expect(logged).toContain(`"statusCode":${status}`);
    expect(logged).toContain('"route":"checkout-status"');
  });

  it(`answers a Stripe slower than the client timeout (${CLIENT_TIMEOUT_MS} ms) with 502`, async () => {
    const sessionId = await harness.createSession();
    harness.sim.injectFault({
      delayMs: CLIENT_TIMEOUT_MS + 600,
      pathPrefix: `/v1/checkout/sessions/${sessionId}`,
    });

    const result = await harness.status(statusEvent(sessionId));

    expect(result.statusCode).toBe(502);
    expect(jsonBody(result)).toEqual({
      error: 'Unable to check your payment right now. Please refresh the page in a moment.',
    });
  });

  it('answers a session of ours that lost its dispatch date with 502, not a made-up answer', async () => {
    const sessionId = await harness.createSession();
    const { dispatch_date: _dropped, ...metadata } = harness.sim.getSession(sessionId)?.metadata ?? {};
    harness.sim.patchSession(sessionId, { metadata });

    const { result, logged } = await withLogs(() => harness.status(statusEvent(sessionId)));

    expect(result.statusCode).toBe(502);
    expect(logged).toContain('unreadable_session');
  });

  it('answers 503 when its dependencies cannot be loaded', async () => {
    const status = createStatusHandler(() => Promise.reject(new Error('secrets unavailable')));

    const result = await status(statusEvent('cs_test_a1B2c3D4e5F6g7H8i9J0'));

    expect(result.statusCode).toBe(503);
    expect(jsonBody(result)).toEqual({
      error: 'The shop is temporarily unavailable. Please try again in a few minutes.',
    });
  });

  it('works as the deployed entry point, configured from the environment', async () => {
    vi.stubEnv('STRIPE_SECRET_ID', undefined);
    vi.stubEnv('STRIPE_SECRET_KEY', TEST_SECRET_KEY);
    vi.stubEnv('STRIPE_API_BASE', harness.sim.url);
    vi.stubEnv('SHOP_ID', 'LiveAquatics-test');
    vi.stubEnv('STRIPE_LIVEMODE', undefined);
    const sessionId = await harness.createSession();

    const missing = await handler(statusEvent(sessionId));
    vi.stubEnv('STRIPE_LIVEMODE', 'false');
    const configured = await handler(statusEvent(sessionId));

    expect(missing.statusCode).toBe(503);
    expect(statusAnswer(configured).status).toBe('open');
  });

  it('success lookup cannot send email: no SES client in its bundle (it reads a page key by GetItem, the only action its role has: test/infra)', async () => {
    const inputs = await bundledInputs('lambdas/handlers/checkout-status/handler.ts');

    expect(inputs.some((path) => path.includes('lambdas/handlers/checkout-status/handler.ts'))).toBe(true);
    expect(inputs.filter((path) => /client-ses|client-sesv2/.test(path))).toEqual([]);
    // The order page link's read, and nothing of the domain's writers.
    expect(inputs).toContain('lambdas/domain/checkout/order-page-link.ts');
    expect(inputs.filter((path) => /conditional-writes|send-once|fulfil-checkout/.test(path))).toEqual([]);
  });

  it('bundles fulfilment’s payable rule without the order mapping or the postcode code', async () => {
    const inputs = await bundledInputs('lambdas/handlers/checkout-status/handler.ts');

    expect(inputs).toContain('lambdas/domain/checkout/checkout-check.ts');
    expect(inputs.filter((path) => /paid-checkout|postcode/.test(path))).toEqual([]);
  });
});
