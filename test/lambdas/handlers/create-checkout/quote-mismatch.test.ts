import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quoteMismatchResponseSchema } from '../../../../shared/checkout-response';
import { jsonBody } from '../../../support/api-gateway-event';
import {
  checkoutEvent,
  type Harness,
  handleCountingSessions,
  startHarness,
  validOrder,
  withLogs,
} from './harness';

// The browser's totals are a cross-check, never a source (the server prices every order, ADR
// 0001): a well-formed total that differs from the server's quote is a 409 with the quote; a
// malformed one is a 400. Neither reaches Stripe.

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

const QUOTE_FOR_3 = { subtotal: 9.75, shipping: 4.95, total: 14.7 };

describe('create-checkout: totals that differ from the quote (409)', () => {
  it.each([
    ['total 0.01 low', { total: 14.69 }],
    ['total 0.01 high', { total: 14.71 }],
    ['subtotal 0.01 low', { subtotal: 9.74 }],
    ['shipping free', { shipping: 0 }],
    ['everything zero', { subtotal: 0, shipping: 0, total: 0 }],
    ['a huge but well-formed total', { total: 9999.99 }],
    ['the 6-bottle totals for 3 bottles', { subtotal: 19.5, total: 24.45 }],
    ['totals that add up to a cheaper order', { subtotal: 6.5, total: 11.45 }],
  ])(
    'browser totals that do not match the server quote (%s): 409 with the quote, no session',
    async (_label, change) => {
      const { result, newSessions } = await handleCountingSessions(
        harness,
        checkoutEvent({ body: { ...validOrder, ...change } }),
      );

      expect(result.statusCode).toBe(409);
      expect(result.headers?.['cache-control']).toBe('no-store');
      const answer = quoteMismatchResponseSchema.parse(jsonBody(result));
      expect(answer).toEqual({
        error: 'The order total has changed. Please check the new total and try again.',
        quote: QUOTE_FOR_3,
      });
      expect(newSessions).toEqual([]);
    },
  );

  it('quotes the requested quantity, not the sent amounts', async () => {
    const body = { ...validOrder, quantity: 9, subtotal: 9.75, total: 14.7 };

    const result = await harness.handle(checkoutEvent({ body }));

    expect(result.statusCode).toBe(409);
    expect(jsonBody(result)).toMatchObject({ quote: { subtotal: 29.25, shipping: 4.95, total: 34.2 } });
  });

  it('accepts amounts sent as 14.70 written with binary noise, like 9.75 + 4.95', async () => {
    const result = await harness.handle(checkoutEvent({ body: { ...validOrder, total: 9.75 + 4.95 } }));

    expect(result.statusCode).toBe(200);
  });
});

describe('create-checkout: malformed totals (400)', () => {
  it.each([
    ['negative', -14.7],
    ['huge', 1e9],
    ['a string', '14.70'],
    ['a string with a pound sign', '£14.70'],
    ['three decimals', 14.701],
    ['null', null],
    ['an array', [14.7]],
    ['an object', { amount: 1470 }],
    ['a boolean', true],
  ])('browser total that is %s: 400 with a clear error, no session', async (_label, total) => {
    const { result, newSessions } = await handleCountingSessions(
      harness,
      checkoutEvent({ body: { ...validOrder, total } }),
    );

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result)).toEqual({
      error: 'Order amounts must be numbers in pounds with at most 2 decimals.',
      fields: { total: 'Order amounts must be numbers in pounds with at most 2 decimals.' },
    });
    expect(newSessions).toEqual([]);
  });

  it.each(['subtotal', 'shipping', 'total'] as const)(
    'browser totals absent (no %s): 400 with a clear error',
    async (field) => {
      const body: Record<string, unknown> = { ...validOrder };
      delete body[field];

      const result = await harness.handle(checkoutEvent({ body }));

      expect(result.statusCode).toBe(400);
      expect(jsonBody(result)).toMatchObject({
        fields: { [field]: 'Order amounts must be numbers in pounds with at most 2 decimals.' },
      });
    },
  );

  it('refuses NaN and Infinity, which JSON cannot carry', async () => {
    const { result, logged } = await withLogs(() =>
      harness.handle(checkoutEvent({ body: '{"total": NaN}' })),
    );

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result)).toEqual({ error: 'Request body is not valid JSON.' });
    expect(logged).toContain('"statusCode":400');
  });
});
