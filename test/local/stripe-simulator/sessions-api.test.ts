import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StripeSimulator, startStripeSimulator } from '../../../local/stripe-simulator/server';
import { rejectionOf, SECRET_KEY, shopSessionParams, stripeFor } from './support';

const PUBLIC_URL = 'http://localhost:12111';

describe('Checkout Sessions API through the real stripe SDK', () => {
  let simulator: StripeSimulator;
  let stripe: Stripe;

  beforeAll(async () => {
    simulator = await startStripeSimulator({ port: 0, publicUrl: PUBLIC_URL });
    stripe = stripeFor(simulator);
  });
  afterAll(() => simulator.close());

  it('creates an open, unpaid session priced from its line items and delivery', async () => {
    const before = Math.floor(Date.now() / 1000);

    const session = await stripe.checkout.sessions.create(shopSessionParams());

    expect(session.id).toMatch(/^cs_test_[A-Za-z0-9]{58}$/);
    expect(session).toMatchObject({
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      payment_intent: null,
      livemode: false,
      currency: 'gbp',
      amount_subtotal: 975,
      amount_total: 1470,
      total_details: { amount_discount: 0, amount_shipping: 495, amount_tax: 0 },
      customer_email: 'zoe@example.com',
      client_reference_id: 'ord_test_123',
      metadata: { shop: 'live-aquatics', quantity: '3', dispatch_date: '2026-11-30', postcode: 'BS1 4DJ' },
      locale: 'en-GB',
      url: `${PUBLIC_URL}/c/pay/${session.id}`,
      custom_text: {
        submit: {
          message: expect.stringMatching(/^Dispatch on Monday 30 November by Royal Mail 1st Class;/),
        },
      },
    });
    expect(session.shipping_cost).toMatchObject({
      amount_total: 495,
      shipping_rate: expect.stringMatching(/^shr_/),
    });
    expect(session.created).toBeGreaterThanOrEqual(before);
    // Like Stripe, line items are left out unless expanded.
    expect(session.line_items).toBeUndefined();
  });

  it('sends every field the SDK type says a session always carries, as null when this shop leaves it unused', async () => {
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());

    const response = await fetch(`${simulator.url}/v1/checkout/sessions/${id}`, {
      headers: { Authorization: `Bearer ${SECRET_KEY}` },
    });
    const json: Record<string, unknown> = await response.json();

    for (const field of [
      'adaptive_pricing',
      'allowed_payment_method_types',
      'consent',
      'consent_collection',
      'currency_conversion',
      'customer_account',
      'integration_identifier',
      'invoice_creation',
      'managed_payments',
      'origin_context',
      'payment_method_configuration_details',
      'payment_method_options',
      'permissions',
      'saved_payment_method_options',
      'wallet_options',
    ]) {
      expect(json).toHaveProperty(field, null);
    }
  });

  it('defaults expires_at to 24 hours after creation', async () => {
    const session = await stripe.checkout.sessions.create({ ...shopSessionParams(), expires_at: undefined });

    expect(session.expires_at).toBe(session.created + 24 * 60 * 60);
  });

  it('expands line_items on retrieve, with the price and (on request) the product', async () => {
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());

    const session = await stripe.checkout.sessions.retrieve(id, {
      expand: ['line_items.data.price.product'],
    });

    expect(session.line_items).toMatchObject({
      object: 'list',
      has_more: false,
      url: `/v1/checkout/sessions/${id}/line_items`,
    });
    const [item] = session.line_items?.data ?? [];
    expect(item).toMatchObject({
      object: 'item',
      quantity: 3,
      amount_subtotal: 975,
      amount_total: 975,
      currency: 'gbp',
      description: 'Daphnia Magna (250ml bottle)',
      price: { object: 'price', unit_amount: 325, currency: 'gbp', type: 'one_time' },
    });
    expect(item?.price?.unit_amount_decimal?.toString()).toBe('325');
    expect(item?.price?.product).toMatchObject({
      object: 'product',
      name: 'Daphnia Magna (250ml bottle)',
      description: 'About 100-300 live daphnia per bottle.',
    });
  });

  it('answers an unknown session id with a typed 404 resource_missing error', async () => {
    const error = await rejectionOf(stripe.checkout.sessions.retrieve('cs_test_doesnotexist'));

    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      message: "No such checkout.session: 'cs_test_doesnotexist'",
    });
  });

  it('expires an open session once, then refuses to expire it again', async () => {
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());

    const expired = await stripe.checkout.sessions.expire(id);
    const again = await rejectionOf(stripe.checkout.sessions.expire(id));

    expect(expired).toMatchObject({ id, status: 'expired', payment_status: 'unpaid', url: null });
    expect(again).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(again).toMatchObject({ statusCode: 400, message: expect.stringContaining('status of `expired`') });
  });

  it('expires a session whose expires_at has passed when it is next read', async () => {
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());
    simulator.patchSession(id, { expires_at: Math.floor(Date.now() / 1000) - 1 });

    const session = await stripe.checkout.sessions.retrieve(id);

    expect(session.status).toBe('expired');
  });

  it('refuses a live or missing API key with Stripe authentication errors', async () => {
    const live = new Stripe('sk_live_0123456789abcdef', {
      host: '127.0.0.1',
      port: simulator.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });

    const liveError = await rejectionOf(live.checkout.sessions.create(shopSessionParams()));
    const anonymous = await fetch(`${simulator.url}/v1/checkout/sessions`);

    expect(liveError).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(liveError).toMatchObject({
      statusCode: 401,
      message: expect.stringContaining('Invalid API Key provided'),
    });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({
      error: {
        type: 'invalid_request_error',
        message: expect.stringContaining('You did not provide an API key'),
      },
    });
  });

  it('answers endpoints it does not simulate with a Stripe-shaped 404', async () => {
    const error = await rejectionOf(stripe.customers.list());

    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({
      statusCode: 404,
      message: expect.stringContaining('Unrecognized request URL (GET: /v1/customers)'),
    });
  });
});

describe('listing sessions', () => {
  let simulator: StripeSimulator;
  let stripe: Stripe;
  const createdIds: string[] = [];

  beforeAll(async () => {
    simulator = await startStripeSimulator({ port: 0 });
    stripe = stripeFor(simulator);
    for (let index = 0; index < 7; index += 1) {
      const session = await stripe.checkout.sessions.create(
        shopSessionParams({ client_reference_id: `ord_${index}` }),
      );
      createdIds.push(session.id);
    }
  });
  afterAll(() => simulator.close());

  it('pages newest first, and the SDK auto-pagination walks every session exactly once', async () => {
    const newestFirst = [...createdIds].reverse();

    const firstPage = await stripe.checkout.sessions.list({ limit: 3 });
    const everything = await stripe.checkout.sessions.list({ limit: 3 }).autoPagingToArray({ limit: 100 });

    expect(firstPage).toMatchObject({ object: 'list', has_more: true, url: '/v1/checkout/sessions' });
    expect(firstPage.data.map((session) => session.id)).toEqual(newestFirst.slice(0, 3));
    expect(everything.map((session) => session.id)).toEqual(newestFirst);
  });

  it('filters by status and by created time', async () => {
    const [oldest, second] = createdIds;
    if (oldest === undefined || second === undefined) throw new Error('sessions were not created');
    const now = Math.floor(Date.now() / 1000);
    simulator.patchSession(oldest, { created: now - 3 * 24 * 60 * 60 });
    await stripe.checkout.sessions.expire(second);

    const expired = await stripe.checkout.sessions.list({ status: 'expired' });
    const old = await stripe.checkout.sessions.list({ created: { lt: now - 24 * 60 * 60 } });
    const recent = await stripe.checkout.sessions.list({ created: { gte: now - 60 }, limit: 100 });

    expect(expired.data.map((session) => session.id)).toEqual([second]);
    expect(old.data.map((session) => session.id)).toEqual([oldest]);
    expect(recent.data.map((session) => session.id)).not.toContain(oldest);
    expect(recent.data).toHaveLength(createdIds.length - 1);
  });

  it('refuses an out-of-range limit and an unknown cursor', async () => {
    const tooMany = await rejectionOf(stripe.checkout.sessions.list({ limit: 101 }));
    const badCursor = await rejectionOf(stripe.checkout.sessions.list({ starting_after: 'cs_test_unknown' }));

    expect(tooMany).toMatchObject({
      param: 'limit',
      message: 'This value must be less than or equal to 100.',
    });
    expect(badCursor).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(badCursor).toMatchObject({ param: 'starting_after', code: 'resource_missing' });
  });
});
