import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_API_ROUTES } from '../../../../shared/public-routes';
import { apiGatewayEvent, jsonBody } from '../../../support/api-gateway-event';
import {
  checkoutEvent,
  createdSession,
  type Harness,
  handleCountingSessions,
  startHarness,
  validOrder,
} from './harness';

// Everything around the body: content type, size, JSON syntax, method, the public key and the
// Idempotency-Key header. Refusals are 4xx with a clear message, never a 500, and reach no Stripe.

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

/** A JSON body of exactly `bytes` bytes: the valid order plus an (unknown) padding field. */
function bodyOfSize(bytes: number): string {
  const base = JSON.stringify({ ...validOrder, pad: '' });
  return JSON.stringify({ ...validOrder, pad: 'x'.repeat(bytes - Buffer.byteLength(base)) });
}

describe('create-checkout: content type (no CSRF "simple request")', () => {
  it.each([
    ['text/plain', JSON.stringify(validOrder)],
    ['text/plain;charset=UTF-8', JSON.stringify(validOrder)],
    ['application/x-www-form-urlencoded', 'name=Zo%C3%AB&quantity=3'],
    ['multipart/form-data; boundary=x', '--x--'],
    ['application/jsonp', JSON.stringify(validOrder)],
  ])('content type %s, not JSON: 415, no CSRF simple request', async (contentType, body) => {
    const { result, newSessions } = await handleCountingSessions(
      harness,
      checkoutEvent({ body, headers: { 'Content-Type': contentType } }),
    );

    expect(result.statusCode).toBe(415);
    expect(jsonBody(result)).toEqual({ error: 'Content-Type must be application/json.' });
    expect(newSessions).toEqual([]);
  });

  it('refuses a request without a content type with 415', async () => {
    const event = apiGatewayEvent({
      method: 'POST',
      path: PUBLIC_API_ROUTES.createCheckout.path,
      body: validOrder,
    });

    const result = await harness.handle(event);

    expect(result.statusCode).toBe(415);
  });
});

describe('create-checkout: body size and syntax', () => {
  it('body over 8 KB: 8193 bytes refused with 413, 8192 bytes read', async () => {
    const atLimit = await harness.handle(checkoutEvent({ body: bodyOfSize(8192) }));
    const { result: overLimit, newSessions } = await handleCountingSessions(
      harness,
      checkoutEvent({ body: bodyOfSize(8193) }),
    );

    expect(atLimit.statusCode).toBe(400);
    expect(jsonBody(atLimit)).toMatchObject({ fields: { pad: 'Unknown field "pad".' } });
    expect(overLimit.statusCode).toBe(413);
    expect(jsonBody(overLimit)).toEqual({ error: 'Request body must be at most 8192 bytes.' });
    expect(newSessions).toEqual([]);
  });

  it('counts bytes, not characters (multi-byte text, base64 bodies)', async () => {
    const body = JSON.stringify({ ...validOrder, name: '£'.repeat(4096) });

    const plain = await harness.handle(checkoutEvent({ body }));
    const base64 = await harness.handle(checkoutEvent({ body, isBase64Encoded: true }));

    expect([plain.statusCode, base64.statusCode]).toEqual([413, 413]);
  });

  it.each(['{"name": "Zoë",', '{name: "Zoë"}', "{'quantity': 3}", '{"quantity": 3}}', 'undefined'])(
    'invalid JSON %s: 400 with a clear message, never a 500',
    async (body) => {
      const result = await harness.handle(checkoutEvent({ body }));

      expect(result.statusCode).toBe(400);
      expect(jsonBody(result)).toEqual({ error: 'Request body is not valid JSON.' });
    },
  );

  it('refuses an empty body with 400', async () => {
    const result = await harness.handle(checkoutEvent({ body: '' }));

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result)).toEqual({ error: 'Request body is empty.' });
  });

  it('reads a base64-encoded body and a JSON content type with a charset', async () => {
    const result = await harness.handle(
      checkoutEvent({
        isBase64Encoded: true,
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
      }),
    );

    expect(createdSession(result).sessionId).toMatch(/^cs_test_/);
  });
});

describe('create-checkout: method', () => {
  it.each(['GET', 'PUT', 'DELETE'])('refuses %s with 405', async (method) => {
    const event = { ...checkoutEvent(), requestContext: { ...checkoutEvent().requestContext } };
    event.requestContext.http = { ...event.requestContext.http, method };

    const result = await harness.handle(event);

    expect(result.statusCode).toBe(405);
    expect(jsonBody(result)).toEqual({ error: 'Use POST.' });
  });
});

describe('create-checkout: the public bearer key (noise filter, not security)', () => {
  const PUBLIC_KEY = 'pk_public_demo_123';
  const withKey = () => harness.handlerWith({ publicApiKey: PUBLIC_KEY });

  it.each([
    ['no Authorization header', {}],
    ['a different bearer', { Authorization: 'Bearer pk_public_other' }],
    ['the key without the Bearer scheme', { Authorization: PUBLIC_KEY }],
    ['a Basic credential', { Authorization: `Basic ${Buffer.from(`${PUBLIC_KEY}:`).toString('base64')}` }],
    ['a scheme that only ends in Bearer', { Authorization: `XBearer ${PUBLIC_KEY}` }],
    ['the key with more after it', { Authorization: `Bearer ${PUBLIC_KEY} ${PUBLIC_KEY}` }],
    ['a prefix of the key', { Authorization: 'Bearer pk_public_demo_12' }],
    ['the key with one more character', { Authorization: `Bearer ${PUBLIC_KEY}4` }],
    ['the scheme without a space', { Authorization: `Bearer${PUBLIC_KEY}` }],
  ])('refuses %s with 401 when a key is configured', async (_label, headers) => {
    const keyed: Harness = { ...harness, handle: withKey() };

    const { result, newSessions } = await handleCountingSessions(keyed, checkoutEvent({ headers }));

    expect(result.statusCode).toBe(401);
    expect(jsonBody(result)).toEqual({ error: 'Missing or wrong API key.' });
    expect(newSessions).toEqual([]);
  });

  it('accepts the configured key, in any header-name case', async () => {
    const lower = await withKey()(checkoutEvent({ headers: { authorization: `Bearer ${PUBLIC_KEY}` } }));
    const mixed = await withKey()(checkoutEvent({ headers: { Authorization: `bearer ${PUBLIC_KEY}` } }));

    expect(createdSession(lower).sessionId).not.toBe(createdSession(mixed).sessionId);
  });

  it('accepts the configured key after more than one space, and with trailing white space', async () => {
    const spaced = await withKey()(checkoutEvent({ headers: { authorization: `Bearer   ${PUBLIC_KEY}` } }));
    const trailing = await withKey()(checkoutEvent({ headers: { authorization: `Bearer ${PUBLIC_KEY}  ` } }));

    expect(createdSession(spaced).sessionId).toMatch(/^cs_test_/);
    expect(createdSession(trailing).sessionId).toMatch(/^cs_test_/);
  });

  it('ignores any bearer when no key is configured', async () => {
    const result = await harness.handle(checkoutEvent({ headers: { Authorization: 'Bearer anything' } }));

    expect(createdSession(result).url).toMatch(/^http/);
  });
});

describe('create-checkout: Idempotency-Key header format', () => {
  it.each(['short', 'has space inside', 'ключ-ключ-ключ', 'a'.repeat(256), 'semi;colon;', ''])(
    'refuses the key %j with 400',
    async (key) => {
      const result = await harness.handle(checkoutEvent({ headers: { 'Idempotency-Key': key } }));

      expect(result.statusCode).toBe(400);
      expect(jsonBody(result)).toEqual({
        error: 'The Idempotency-Key header must be 8 to 255 letters, digits, "-" or "_".',
        fields: {
          'Idempotency-Key': 'The Idempotency-Key header must be 8 to 255 letters, digits, "-" or "_".',
        },
      });
    },
  );

  it.each(['abcd1234', 'a'.repeat(255), '3f0b6c1e-6a4f-4c39-9d0e-8a1f0c2b7d55', 'A_b-C_d-'])(
    'accepts the key %j',
    async (key) => {
      const result = await harness.handle(checkoutEvent({ headers: { 'Idempotency-Key': key } }));

      expect(createdSession(result).sessionId).toMatch(/^cs_test_/);
    },
  );
});
