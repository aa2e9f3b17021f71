import { describe, expect, it } from 'vitest';
import {
  type CheckoutRequestBody,
  checkoutRequestSchema,
  describeIssues,
  FIELD_LIMITS,
  FIELD_MESSAGES,
} from '../../shared/checkout-request';

const valid: CheckoutRequestBody = {
  name: 'Zoë Smith',
  email: 'zoe@example.co.uk',
  phone: '07700 900123',
  address: '1 High Street\nLondon',
  postcode: 'sw1a1aa',
  quantity: 3,
  subtotal: 9.75,
  shipping: 4.95,
  total: 14.7,
};

function firstProblem(body: unknown): Record<string, string | undefined> {
  const result = checkoutRequestSchema.safeParse(body);
  if (result.success) throw new Error('expected the body to be refused');
  return describeIssues(result.error).fields;
}

describe('checkoutRequestSchema', () => {
  it('accepts a valid order, trimming text and normalising the postcode', () => {
    const parsed = checkoutRequestSchema.parse({ ...valid, name: '  Zoë Smith ', postcode: ' sw1a 1aa ' });
    expect(parsed).toEqual({ ...valid, postcode: 'SW1A 1AA' });
  });

  it('treats the phone as optional', () => {
    const { phone: _omitted, ...withoutPhone } = valid;
    expect(checkoutRequestSchema.parse(withoutPhone).phone).toBe('');
    expect(checkoutRequestSchema.parse({ ...valid, phone: '' }).phone).toBe('');
  });

  it.each([0, -3, 3.5, 12, '03', null, [3], {}, undefined])('refuses quantity %j', (quantity) => {
    expect(firstProblem({ ...valid, quantity })).toEqual({ quantity: FIELD_MESSAGES.quantity });
  });

  it.each(['14.70', -14.7, 14.705, 1e9, null, undefined])(
    'refuses a total of %j that is not a 2-decimal pounds number',
    (total) => {
      expect(firstProblem({ ...valid, total })).toEqual({ total: FIELD_MESSAGES.amount });
    },
  );

  it('refuses unknown fields instead of passing them on', () => {
    expect(firstProblem({ ...valid, success_url: 'https://evil.example' })).toEqual({
      success_url: 'Unknown field "success_url".',
    });
  });

  it.each([
    ['name', 'Zoë\r\nBcc: victim@example.com'],
    ['email', 'zoe@example.com\r\nBcc: victim@example.com'],
    ['name', 'NUL\u0000byte'],
    ['address', 'line\u2028separator'],
    ['address', 'bidi\u202eoverride'],
    ['address', 'carriage\rreturn'],
    ['phone', '0770\n0900123'],
    ['postcode', 'SW1A\u00001AA'],
  ])('refuses control characters in %s', (field, value) => {
    expect(firstProblem({ ...valid, [field]: value })).toEqual({ [field]: FIELD_MESSAGES.controlCharacters });
  });

  it('allows line feeds in the address only, collapsing blank lines', () => {
    expect(checkoutRequestSchema.parse({ ...valid, address: '1 High St\n\n\nLondon' }).address).toBe(
      '1 High St\nLondon',
    );
  });

  it.each([
    ['name', 'x'.repeat(FIELD_LIMITS.name + 1)],
    ['address', 'x'.repeat(FIELD_LIMITS.address + 1)],
    ['phone', '0'.repeat(FIELD_LIMITS.phone + 1)],
  ])('refuses a %s over its length limit', (field, value) => {
    expect(Object.keys(firstProblem({ ...valid, [field]: value }))).toEqual([field]);
  });

  it('limits the email: 64 characters before the @, 254 in all', () => {
    const local64 = `${'a'.repeat(64)}@example.com`;
    expect(checkoutRequestSchema.parse({ ...valid, email: local64 }).email).toBe(local64);
    expect(firstProblem({ ...valid, email: `${'a'.repeat(65)}@example.com` })).toEqual({
      email: FIELD_MESSAGES.email,
    });
    const long = `a@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(70)}.uk`;
    expect(long.length).toBeGreaterThan(254);
    expect(firstProblem({ ...valid, email: long })).toEqual({ email: FIELD_MESSAGES.email });
  });

  it.each(['plainaddress', 'a@b', 'a b@example.com', '<a@example.com>', 'a@example.com, b@example.com'])(
    'refuses the email %j',
    (email) => {
      expect(firstProblem({ ...valid, email })).toEqual({ email: FIELD_MESSAGES.email });
    },
  );

  it('refuses markup around a postcode and non-UK postcodes with their own messages', () => {
    expect(firstProblem({ ...valid, postcode: '<b>x</b> SW1A 1AA' })).toEqual({
      postcode: FIELD_MESSAGES.postcodeFormat,
    });
    expect(firstProblem({ ...valid, postcode: 'JE2 3AB' })).toEqual({
      postcode: FIELD_MESSAGES.postcodeNotDeliverable,
    });
  });

  it('keeps every text field within a Stripe metadata value (500 characters)', () => {
    for (const limit of Object.values(FIELD_LIMITS)) expect(limit).toBeLessThanOrEqual(500);
  });

  it('names the first problem in its message', () => {
    const result = checkoutRequestSchema.safeParse({ ...valid, name: '', email: 'x' });
    expect(result.success).toBe(false);
    if (!result.success) expect(describeIssues(result.error).message).toBe(FIELD_MESSAGES.name);
  });
});
