import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StripeSimulator, startStripeSimulator } from '../../../local/stripe-simulator/server';
import { rejectionOf, SECRET_KEY, shopSessionParams, stripeFor } from './support';

type Params = Stripe.Checkout.SessionCreateParams;
type LineItem = Stripe.Checkout.SessionCreateParams.LineItem;

const nowSeconds = () => Math.floor(Date.now() / 1000);
const manyKeys = (count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`key${i}`, 'v']));

function bottles(overrides: { currency?: string; unit_amount?: number; quantity?: number }): LineItem {
  return {
    price_data: {
      currency: overrides.currency ?? 'gbp',
      unit_amount: overrides.unit_amount ?? 325,
      product_data: { name: 'Daphnia Magna' },
    },
    quantity: overrides.quantity ?? 3,
  };
}

interface Expected {
  param: string;
  message: string | RegExp;
}

/**
 * Bodies the typed SDK would not let the shop write, sent through the SDK's untyped `rawRequest`
 * (same encoding, same error mapping) instead of casting them into shape.
 */
const malformed: Array<[string, () => Record<string, unknown>, Expected]> = [
  [
    'an unknown top-level parameter',
    () => ({ ...shopSessionParams(), automatic_taxes: 'on' }),
    { param: 'automatic_taxes', message: 'Received unknown parameter: automatic_taxes' },
  ],
  [
    'an unknown nested parameter',
    () => ({ ...shopSessionParams(), custom_text: { submit: { message: 'x' }, colour: 'red' } }),
    { param: 'custom_text[colour]', message: 'Received unknown parameter: custom_text[colour]' },
  ],
  [
    'a missing mode',
    () => ({ ...shopSessionParams(), mode: undefined }),
    { param: 'mode', message: 'Missing required param: mode.' },
  ],
  [
    'a missing product name',
    () => ({
      ...shopSessionParams(),
      line_items: [
        {
          price_data: { currency: 'gbp', unit_amount: 325, product_data: { description: 'x' } },
          quantity: 3,
        },
      ],
    }),
    {
      param: 'line_items[0][price_data][product_data][name]',
      message: 'Missing required param: line_items[0][price_data][product_data][name].',
    },
  ],
];

/** Each case: the params the shop might send by mistake, and the error Stripe would answer. */
const refusals: Array<[string, () => Params, Expected]> = [
  [
    'no line items',
    () => shopSessionParams({ line_items: [] }),
    { param: 'line_items', message: 'Missing required param: line_items.' },
  ],
  [
    'a quantity of 0',
    () => shopSessionParams({ line_items: [bottles({ quantity: 0 })] }),
    { param: 'line_items[0][quantity]', message: 'This value must be greater than or equal to 1.' },
  ],
  [
    'a quantity of 1000',
    () => shopSessionParams({ line_items: [bottles({ quantity: 1000 })] }),
    { param: 'line_items[0][quantity]', message: 'This value must be less than or equal to 999.' },
  ],
  [
    'a price in pounds instead of pence',
    () => shopSessionParams({ line_items: [bottles({ unit_amount: 3.25 })] }),
    { param: 'line_items[0][price_data][unit_amount]', message: 'Invalid integer: 3.25' },
  ],
  [
    'a zero price',
    () => shopSessionParams({ line_items: [bottles({ unit_amount: 0 })] }),
    {
      param: 'line_items[0][price_data][unit_amount]',
      message: 'This value must be greater than or equal to 1.',
    },
  ],
  [
    'line items in two currencies',
    () => shopSessionParams({ line_items: [bottles({}), bottles({ currency: 'eur' })] }),
    { param: 'line_items[1][price_data][currency]', message: /same currency/ },
  ],
  [
    'a delivery rate in another currency',
    () => {
      const params = shopSessionParams();
      const rate = params.shipping_options?.[0]?.shipping_rate_data;
      if (rate?.fixed_amount) rate.fixed_amount.currency = 'eur';
      return params;
    },
    {
      param: 'shipping_options[0][shipping_rate_data][fixed_amount][currency]',
      message: /must match the currency/,
    },
  ],
  [
    'more than one shipping option',
    () => {
      const params = shopSessionParams();
      const [option] = params.shipping_options ?? [];
      return { ...params, shipping_options: option ? [option, option] : [] };
    },
    { param: 'shipping_options', message: /at most 1 shipping option/ },
  ],
  [
    'session metadata with 51 keys',
    () => shopSessionParams({ metadata: manyKeys(51) }),
    { param: 'metadata', message: /metadata can have up to 50 keys, but you passed in 51 keys/ },
  ],
  [
    'a metadata key of 41 characters',
    () => shopSessionParams({ metadata: { ['k'.repeat(41)]: 'v' } }),
    { param: `metadata[${'k'.repeat(41)}]`, message: /^Metadata keys can have up to 40 characters/ },
  ],
  [
    'a payment_intent_data metadata value of 501 characters',
    () => shopSessionParams({ payment_intent_data: { metadata: { address: 'x'.repeat(501) } } }),
    {
      param: 'payment_intent_data[metadata][address]',
      message:
        /^Metadata values can have up to 500 characters, but you passed in a value that is 501 characters/,
    },
  ],
  [
    'expires_at under 30 minutes ahead',
    () => shopSessionParams({ expires_at: nowSeconds() + 29 * 60 }),
    {
      param: 'expires_at',
      message: 'The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.',
    },
  ],
  [
    'expires_at over 24 hours ahead',
    () => shopSessionParams({ expires_at: nowSeconds() + 25 * 60 * 60 }),
    {
      param: 'expires_at',
      message: 'The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.',
    },
  ],
  [
    'a javascript: success_url',
    () => shopSessionParams({ success_url: 'javascript:alert(1)' }),
    { param: 'success_url', message: 'Not a valid URL' },
  ],
  [
    'a client_reference_id over 200 characters',
    () => shopSessionParams({ client_reference_id: 'r'.repeat(201) }),
    { param: 'client_reference_id', message: /at most 200 characters/ },
  ],
  [
    'a malformed customer_email',
    () => shopSessionParams({ customer_email: 'zoe at example.com' }),
    { param: 'customer_email', message: 'Invalid email address: zoe at example.com' },
  ],
  [
    'subscription mode',
    () => shopSessionParams({ mode: 'subscription' }),
    { param: 'mode', message: /supports only mode=payment/ },
  ],
];

describe('refusals on POST /v1/checkout/sessions', () => {
  let simulator: StripeSimulator;
  let stripe: Stripe;

  beforeAll(async () => {
    simulator = await startStripeSimulator({ port: 0 });
    stripe = stripeFor(simulator);
  });
  afterAll(() => simulator.close());

  function expectRefusal(error: unknown, expected: Expected): void {
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ statusCode: 400, rawType: 'invalid_request_error', param: expected.param });
    const { message } = expected;
    expect(error).toHaveProperty(
      'message',
      typeof message === 'string' ? message : expect.stringMatching(message),
    );
  }

  it.each(refusals)('refuses %s with a typed StripeInvalidRequestError', async (_name, params, expected) => {
    expectRefusal(await rejectionOf(stripe.checkout.sessions.create(params())), expected);
  });

  it.each(malformed)('refuses %s with a typed StripeInvalidRequestError', async (_name, body, expected) => {
    expectRefusal(await rejectionOf(stripe.rawRequest('POST', '/v1/checkout/sessions', body())), expected);
  });

  it('created no session for any of the refused requests above', async () => {
    const sessions = await stripe.checkout.sessions.list({ limit: 100 });

    expect(sessions.data).toEqual([]);
  });

  it('accepts every value right at the limits', async () => {
    const session = await stripe.checkout.sessions.create(
      shopSessionParams({
        expires_at: nowSeconds() + 30 * 60 + 5,
        client_reference_id: 'r'.repeat(200),
        metadata: { ...manyKeys(49), ['k'.repeat(40)]: 'v'.repeat(500) },
        line_items: [bottles({ quantity: 999 })],
      }),
    );

    expect(Object.keys(session.metadata ?? {})).toHaveLength(50);
    expect(session.amount_subtotal).toBe(999 * 325);
  });

  it('treats an empty metadata value as an absent key, as Stripe does on create', async () => {
    const session = await stripe.checkout.sessions.create(
      shopSessionParams({ metadata: { kept: 'yes', dropped: '' } }),
    );

    expect(session.metadata).toEqual({ kept: 'yes' });
  });

  it('never lets prototype-named parameters reach an object prototype', async () => {
    const post = (body: string) =>
      fetch(`${simulator.url}/v1/checkout/sessions`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${SECRET_KEY}`,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body,
      });
    const valid =
      'mode=payment&line_items[0][price_data][currency]=gbp&line_items[0][price_data][unit_amount]=325' +
      '&line_items[0][price_data][product_data][name]=Daphnia&line_items[0][quantity]=3';

    const withProto = await post(`${valid}&__proto__[polluted]=yes&metadata[toString]=plain`);
    const withConstructor = await post(`${valid}&constructor[prototype][polluted]=yes`);

    expect(withProto.status).toBe(200);
    expect(await withProto.json()).toMatchObject({ metadata: { toString: 'plain' } });
    expect(withConstructor.status).toBe(400);
    expect(await withConstructor.json()).toMatchObject({
      error: { message: 'Received unknown parameter: constructor' },
    });
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
  });

  it('refuses a JSON body as Stripe does', async () => {
    const response = await fetch(`${simulator.url}/v1/checkout/sessions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${SECRET_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(shopSessionParams()),
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { type: 'invalid_request_error', message: expect.stringContaining('unsupported Content-Type') },
    });
  });
});
