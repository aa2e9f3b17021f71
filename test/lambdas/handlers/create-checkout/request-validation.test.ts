import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonBody } from '../../../support/api-gateway-event';
import {
  checkoutEvent,
  createdSession,
  type Harness,
  handleCountingSessions,
  startHarness,
  validOrder,
  withLogs,
} from './harness';

// The body's fields, one rule at a time, through the real handler. Every refusal is a 400 that
// names the field, and nothing reaches Stripe: the simulator holds no session afterwards.

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

async function expectRefused(body: unknown, field: string, message?: string): Promise<void> {
  const { result, newSessions } = await handleCountingSessions(harness, checkoutEvent({ body }));

  expect(result.statusCode).toBe(400);
  expect(result.headers?.['cache-control']).toBe('no-store');
  const answer = jsonBody(result);
  expect(answer).toMatchObject({
    error: expect.any(String),
    fields: { [field]: message ?? expect.any(String) },
  });
  expect(newSessions).toEqual([]);
}

describe('create-checkout: quantity', () => {
  it.each([0, -3, 3.5, 12, '03', null, [3], {}])(
    'quantity %j: rejected (only 3, 6 or 9)',
    async (quantity) => {
      await expectRefused({ ...validOrder, quantity }, 'quantity', 'Please choose 3, 6 or 9 bottles.');
    },
  );

  it('refuses a missing quantity', async () => {
    const { quantity: _omitted, ...body } = validOrder;
    await expectRefused(body, 'quantity', 'Please choose 3, 6 or 9 bottles.');
  });
});

describe('create-checkout: unknown fields are refused, not passed on', () => {
  it.each([
    ['success_url', 'https://evil.example/stolen'],
    ['cancel_url', 'https://evil.example/'],
    ['unit_amount', 1],
    ['metadata', { shop: 'live-aquatics' }],
  ])('unknown field %s: rejected, not passed on', async (field, value) => {
    await expectRefused({ ...validOrder, [field]: value }, field, `Unknown field "${field}".`);
  });

  it.each(['[1,2,3]', '"order"', 'null', '3'])(
    'refuses the JSON body %s, which is not an object',
    async (body) => {
      const { result, newSessions } = await handleCountingSessions(harness, checkoutEvent({ body }));

      expect(result.statusCode).toBe(400);
      expect(jsonBody(result)).toEqual({ error: expect.any(String), fields: expect.any(Object) });
      expect(newSessions).toEqual([]);
    },
  );
});

describe('create-checkout: length limits (each also fits Stripe metadata)', () => {
  it.each([
    ['name', 'N'.repeat(101)],
    ['phone', `07700 ${'9'.repeat(30)}`],
    ['address', 'A'.repeat(401)],
    ['postcode', 'SW1A 1AA'.padEnd(21, 'A')],
    ['email', `${'a'.repeat(65)}@example.com`],
  ])('field %s over its length limit: rejected', async (field, value) => {
    await expectRefused({ ...validOrder, [field]: value }, field);
  });

  it('email local part at most 64, whole at most 254: 65 and 255 rejected, 64 and 254 accepted', async () => {
    const local64 = `${'a'.repeat(64)}@example.com`;
    const whole254 = `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(57)}.uk`;
    const whole255 = `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(58)}.uk`;
    expect([local64.split('@')[0]?.length, whole254.length, whole255.length]).toEqual([64, 254, 255]);

    await expectRefused(
      { ...validOrder, email: `a${local64}` },
      'email',
      'Please enter a valid email address.',
    );
    await expectRefused({ ...validOrder, email: whole255 }, 'email', 'Please enter a valid email address.');
    for (const email of [local64, whole254]) {
      const accepted = await harness.handle(checkoutEvent({ body: { ...validOrder, email } }));
      const { sessionId } = createdSession(accepted);
      expect((await harness.stripe.checkout.sessions.retrieve(sessionId)).customer_email).toBe(email);
    }
  });

  it.each(['', '   '])('refuses an empty required name (%j)', async (name) => {
    await expectRefused(
      { ...validOrder, name },
      'name',
      'Please enter your full name (up to 100 characters).',
    );
  });
});

describe('create-checkout: control characters and header injection', () => {
  it.each([
    ['CR', '\r'],
    ['LF', '\n'],
    ['NUL', '\u0000'],
    ['U+2028 line separator', '\u2028'],
    ['U+2029 paragraph separator', '\u2029'],
    ['U+202E right-to-left override', '\u202E'],
  ])('control character %s in the name: rejected', async (_label, char) => {
    await expectRefused(
      { ...validOrder, name: `Zoë${char}Smith` },
      'name',
      'Please remove special or invisible characters.',
    );
  });

  it.each(['\r', '\u0000', '\u2028', '\u202E'])(
    'control character %j in the address: rejected (only LF is allowed there)',
    async (char) => {
      await expectRefused({ ...validOrder, address: `1 High St${char}London` }, 'address');
    },
  );

  it.each([
    ['name', 'Zoë\r\nBcc: victim@example.com'],
    ['email', 'zoe@example.com\r\nBcc: victim@example.com'],
    ['phone', '07700 900123\r\nBcc: victim@example.com'],
  ])(
    'header injection: a %s carrying "\\r\\nBcc:" is rejected before any email exists',
    async (field, value) => {
      await expectRefused({ ...validOrder, [field]: value }, field);
    },
  );
});

describe('create-checkout: email and postcode shapes', () => {
  it.each([
    'zoe',
    'zoe@',
    '@example.com',
    'zoe@example',
    'zoe smith@example.com',
    'zoe@exa mple.com',
    '<z>@x.com',
  ])('email %j: rejected, not a real address shape', async (email) => {
    await expectRefused({ ...validOrder, email }, 'email', 'Please enter a valid email address.');
  });

  it.each(['<b>x</b> SW1A 1AA', 'SW1A 1AA <b>', 'SW1A 1AAX', '12345'])(
    'postcode %j: rejected, the check is anchored at both ends',
    async (postcode) => {
      await expectRefused(
        { ...validOrder, postcode },
        'postcode',
        'Please enter a valid UK postcode, for example SW1A 1AA.',
      );
    },
  );

  it.each(['JE2 3AB', 'GY1 1AA', 'IM1 1AA'])('refuses the non-UK postcode %j', async (postcode) => {
    await expectRefused(
      { ...validOrder, postcode },
      'postcode',
      'We can only deliver to Great Britain and Northern Ireland: not to the Channel Islands, the Isle of Man, BFPO or overseas addresses.',
    );
  });

  it('no full PII in the logs of a refused body', async () => {
    const { logged } = await withLogs(() =>
      harness.handle(checkoutEvent({ body: { ...validOrder, quantity: 4 } })),
    );

    expect(logged).toContain('"statusCode":400');
    for (const value of [validOrder.name, validOrder.email, validOrder.phone, 'Pondside']) {
      expect(logged).not.toContain(value);
    }
  });
});

// Text Stripe or SES would refuse is a 400 on its field, never
// a 500 (the SDK's URIError) or a generic 502 (Stripe's refusal), and nothing reaches Stripe.
describe('create-checkout: only text Stripe and SES accept', () => {
  it.each([
    ['name', 'Zo\ud800e'],
    ['address', '1 Pond Lane\udc00'],
    ['email', 'zoe\ud83d@example.com'],
  ])('refuses a lone UTF-16 surrogate in the %s with 400, not 500', async (field, value) => {
    await expectRefused(
      { ...validOrder, [field]: value },
      field,
      'Please retype this field: it contains characters that are not valid text.',
    );
  });

  it.each([
    ['name', 'Zoë\u200bSmith'],
    ['name', 'Zoë\u200eSmith'],
    ['name', 'Zoë\u200fSmith'],
    ['name', '\u061cZoë'],
    ['name', '\ufeffZoë'],
    ['name', 'Zoë\u2066Smith\u2069'],
    ['phone', '07700\u0085900123'],
  ])('refuses the invisible character in %s %j', async (field, value) => {
    await expectRefused(
      { ...validOrder, [field]: value },
      field,
      'Please remove special or invisible characters.',
    );
  });

  it.each(['a..b@example.com', '.a@example.com', 'a.@example.com'])(
    'refuses the email %j, which Stripe calls invalid',
    async (email) => {
      await expectRefused({ ...validOrder, email }, 'email', 'Please enter a valid email address.');
    },
  );

  it('refuses an accented email local part, saying why', async () => {
    await expectRefused(
      { ...validOrder, email: 'zoë@example.com' },
      'email',
      'Please enter your email address without accented or special letters before the @: our email service cannot deliver to them.',
    );
  });

  it('sends an international domain to Stripe in punycode', async () => {
    const { sessionId } = createdSession(
      await harness.handle(checkoutEvent({ body: { ...validOrder, email: 'zoe@exämple.com' } })),
    );
    expect((await harness.stripe.checkout.sessions.retrieve(sessionId)).customer_email).toBe(
      'zoe@xn--exmple-cua.com',
    );
  });

  it('refuses 251 emoji in the address (502 UTF-16 units, over the 400 limit and Stripe’s 500)', async () => {
    await expectRefused(
      { ...validOrder, address: '🐟'.repeat(251) },
      'address',
      'Please enter your delivery address (up to 400 characters).',
    );
  });
});
