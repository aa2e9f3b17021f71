import { describe, expect, it } from 'vitest';
import {
  type CheckoutRequestBody,
  checkoutRequestSchema,
  describeIssues,
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

  it.each<[string, number, string]>([
    ['name', 100, 'x'],
    ['address', 400, 'x'],
    ['phone', 30, '0'],
  ])('takes a %s of exactly %i characters and refuses one more', (field, limit, char) => {
    expect(
      checkoutRequestSchema.parse({ ...valid, [field]: char.repeat(limit) })[field as 'name'],
    ).toHaveLength(limit);
    expect(Object.keys(firstProblem({ ...valid, [field]: char.repeat(limit + 1) }))).toEqual([field]);
  });

  it('counts lengths in UTF-16 units as Stripe does: "1 " and 199 emoji fill a 400-character address, 200 do not', () => {
    // 251 emoji were 251 characters to a code-point count, and 502 units to Stripe's 500-unit limit.
    expect(checkoutRequestSchema.parse({ ...valid, address: `1 ${'😀'.repeat(199)}` }).address).toHaveLength(
      400,
    );
    expect(firstProblem({ ...valid, address: `1 ${'😀'.repeat(200)}` })).toEqual({
      address: FIELD_MESSAGES.address,
    });
    expect(firstProblem({ ...valid, address: '😀'.repeat(251) })).toEqual({
      address: FIELD_MESSAGES.address,
    });
    expect(firstProblem({ ...valid, name: '😀'.repeat(51) })).toEqual({ name: FIELD_MESSAGES.name });
  });

  it('limits the email: 64 characters before the @, 254 in all', () => {
    const local64 = `${'a'.repeat(64)}@example.com`;
    expect(checkoutRequestSchema.parse({ ...valid, email: local64 }).email).toBe(local64);
    expect(firstProblem({ ...valid, email: `${'a'.repeat(65)}@example.com` })).toEqual({
      email: FIELD_MESSAGES.email,
    });
    const whole254 = `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(57)}.uk`;
    expect(whole254).toHaveLength(254);
    expect(checkoutRequestSchema.parse({ ...valid, email: whole254 }).email).toBe(whole254);
    const long = `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(58)}.uk`;
    expect(long).toHaveLength(255);
    expect(firstProblem({ ...valid, email: long })).toEqual({ email: FIELD_MESSAGES.email });
  });

  it.each([
    'plainaddress',
    'a@b',
    'a b@example.com',
    '<a@example.com>',
    'a@example.com, b@example.com',
    'a..b@example.com',
    '.a@example.com',
    'a.@example.com',
    '"a b"@example.com',
    '@example.com',
    'a@example..com',
    'a@-example.com',
    'a@example.com:25',
  ])('refuses the email %j', (email) => {
    expect(firstProblem({ ...valid, email })).toEqual({ email: FIELD_MESSAGES.email });
  });

  it('refuses markup around a postcode and non-UK postcodes with their own messages', () => {
    expect(firstProblem({ ...valid, postcode: '<b>x</b> SW1A 1AA' })).toEqual({
      postcode: FIELD_MESSAGES.postcodeFormat,
    });
    expect(firstProblem({ ...valid, postcode: 'JE2 3AB' })).toEqual({
      postcode: FIELD_MESSAGES.postcodeNotDeliverable,
    });
  });

  it.each(['BFPO 1234', 'bfpo 57', 'BF1 3AA'])('tells a BFPO address (%j) why it is refused', (postcode) => {
    expect(firstProblem({ ...valid, postcode })).toEqual({
      postcode:
        'We cannot send live animals to BFPO addresses. Please give a delivery address in Great Britain or Northern Ireland.',
    });
  });

  it('names the first problem in its message', () => {
    const result = checkoutRequestSchema.safeParse({ ...valid, name: '', email: 'x' });
    expect(result.success).toBe(false);
    if (!result.success) expect(describeIssues(result.error).message).toBe(FIELD_MESSAGES.name);
  });

  it.each([
    ['zoë@example.com', FIELD_MESSAGES.emailNotAscii],
    ['ΖΩΗ@example.com', FIELD_MESSAGES.emailNotAscii],
    ['zoe@exämple.com:25', FIELD_MESSAGES.emailDomain],
    ['zoe@exämple.com/path', FIELD_MESSAGES.emailDomain],
    // Letters only, but no valid IDN: a label marked as punycode ("xn--") that is not ASCII.
    ['zoe@xn--ä.com', FIELD_MESSAGES.emailDomain],
    ['zoe@ä.xn--', FIELD_MESSAGES.emailDomain],
  ])('refuses %j with a message that says why', (email, message) => {
    expect(firstProblem({ ...valid, email })).toEqual({ email: message });
  });

  it.each([
    ['zoe@exämple.com', 'zoe@xn--exmple-cua.com'],
    ['zoe@bücher.example', 'zoe@xn--bcher-kva.example'],
    ["o'brien+shop@example.co.uk", "o'brien+shop@example.co.uk"],
    ['first.last@example.com', 'first.last@example.com'],
  ])('takes %j as %j (an international domain in punycode, as SES needs)', (email, expected) => {
    expect(checkoutRequestSchema.parse({ ...valid, email }).email).toBe(expected);
  });

  it('refuses an address of 203 characters whose international domain grows past 254 in punycode', () => {
    // 64 + 1 + nine labels of 14 × "ä" + ".com": 203 characters as typed, 257 as SES would send it.
    const email = `${'a'.repeat(64)}@${Array(9).fill('ä'.repeat(14)).join('.')}.com`;
    expect(email).toHaveLength(203);

    expect(firstProblem({ ...valid, email })).toEqual({ email: 'Please enter a valid email address.' });
  });

  it('files a problem with the whole body (not a JSON object) under "_"', () => {
    expect(firstProblem(null)).toEqual({ _: 'Invalid input' });
    expect(firstProblem([valid])).toEqual({ _: 'Invalid input' });
  });

  describe('refuses invisible and control characters, range by range', () => {
    // Every single-line field, and the address (which allows only the line feed beyond them).
    const fields = ['name', 'email', 'phone', 'address', 'postcode'] as const;
    const inside = (field: (typeof fields)[number], char: string) =>
      ({
        name: `Zoë${char}Smith`,
        email: `zoe${char}@example.com`,
        phone: `07700${char}900123`,
        address: `1 High${char} Street`,
        postcode: `SW1A${char}1AA`,
      })[field];
    const ranges: Array<[string, number, number]> = [
      ['C0 controls', 0x0000, 0x001f],
      ['DEL', 0x007f, 0x007f],
      ['C1 controls', 0x0080, 0x009f],
      ['Arabic letter mark', 0x061c, 0x061c],
      ['zero-width characters and LRM/RLM', 0x200b, 0x200f],
      ['line and paragraph separators', 0x2028, 0x2029],
      ['bidi embeddings and overrides', 0x202a, 0x202e],
      ['bidi isolates', 0x2066, 0x2069],
      ['byte order mark', 0xfeff, 0xfeff],
    ];
    for (const [label, first, last] of ranges) {
      it(`${label} U+${first.toString(16).padStart(4, '0')}–U+${last.toString(16).padStart(4, '0')}`, () => {
        for (let code = first; code <= last; code += 1) {
          const char = String.fromCharCode(code);
          for (const field of fields) {
            if (field === 'address' && char === '\n') continue;
            const problem = firstProblem({ ...valid, [field]: inside(field, char) });
            expect(Object.keys(problem), `U+${code.toString(16)} in ${field}`).toEqual([field]);
          }
        }
      });
    }

    it('and takes the characters just outside those ranges', () => {
      for (const code of [
        0x0020, 0x007e, 0x00a0, 0x00e9, 0x061b, 0x061d, 0x200a, 0x2010, 0x2027, 0x202f, 0x205f, 0x2070,
        0xfefe, 0x2801, 0x3165, 0x1161, 0xffa1,
      ]) {
        const name = `Zoë${String.fromCharCode(code)}Smith`;
        expect(checkoutRequestSchema.safeParse({ ...valid, name }).success, `U+${code.toString(16)}`).toBe(
          true,
        );
      }
    });
  });

  describe('refuses every invisible and format character, as the page does', () => {
    // One case per character; the rule is Unicode's classes (Cf, Default_Ignorable_Code_Point,
    // noncharacters), so these are samples of each, written out as the code points they are.
    it.each([
      ['U+2060 word joiner', '\u2060'],
      ['U+180E Mongolian vowel separator', '\u180e'],
      ['U+E0000 (tag block, unassigned)', '\u{e0000}'],
      ['U+E0001 language tag', '\u{e0001}'],
      ['U+E0041 tag Latin capital A', '\u{e0041}'],
      ['U+E007F cancel tag', '\u{e007f}'],
      ['U+FFF9 interlinear annotation anchor', '\ufff9'],
      ['U+FFFA interlinear annotation separator', '\ufffa'],
      ['U+FFFB interlinear annotation terminator', '\ufffb'],
      ['U+FFFE noncharacter', '\ufffe'],
      ['U+FFFF noncharacter', '\uffff'],
      ['U+3164 Hangul filler', '\u3164'],
      ['U+2800 braille pattern blank', '\u2800'],
      ['U+115F Hangul choseong filler', '\u115f'],
      ['U+1160 Hangul jungseong filler', '\u1160'],
      ['U+FFA0 halfwidth Hangul filler', '\uffa0'],
      ['U+00AD soft hyphen', '\u00ad'],
      ['U+034F combining grapheme joiner', '\u034f'],
      ['U+17B4 Khmer vowel inherent aq', '\u17b4'],
      ['U+FE0F variation selector-16', '\ufe0f'],
      ['U+E0100 variation selector-17', '\u{e0100}'],
      ['U+1D173 musical symbol begin beam', '\u{1d173}'],
      ['U+0600 Arabic number sign', '\u0600'],
      ['U+206A inhibit symmetric swapping', '\u206a'],
      ['U+2065 (unassigned, ignorable)', '\u2065'],
      ['U+1FFFF noncharacter', '\u{1ffff}'],
    ])('%s, in every field', (_label, char) => {
      expect(firstProblem({ ...valid, name: `Zoë${char}Smith` })).toEqual({
        name: FIELD_MESSAGES.controlCharacters,
      });
      expect(firstProblem({ ...valid, address: `1 High${char} Street\nLondon` })).toEqual({
        address: FIELD_MESSAGES.controlCharacters,
      });
      expect(firstProblem({ ...valid, email: `zoe${char}@example.com` })).toEqual({
        email: FIELD_MESSAGES.controlCharacters,
      });
      expect(firstProblem({ ...valid, phone: `07700${char}900123` })).toEqual({
        phone: FIELD_MESSAGES.controlCharacters,
      });
      expect(firstProblem({ ...valid, postcode: `SW1A${char}1AA` })).toEqual({
        postcode: FIELD_MESSAGES.controlCharacters,
      });
    });
  });

  describe('a name and each address line show a letter or digit', () => {
    it('refuses a name of Hangul fillers and an address line of braille blanks: blank on a label', () => {
      expect(firstProblem({ ...valid, name: '\u3164\u3164\u3164' })).toEqual({
        name: 'Please remove special or invisible characters.',
      });
      expect(firstProblem({ ...valid, address: '1 High Street\n\u2800\u2800\nLondon' })).toEqual({
        address: 'Please remove special or invisible characters.',
      });
    });

    it.each(['...', '-', '🐟🐟', "'\u0301"])('refuses the name %j, with nothing to print', (name) => {
      expect(firstProblem({ ...valid, name })).toEqual({
        name: 'Please enter your full name (up to 100 characters).',
      });
    });

    it.each(['1 High Street\n---\nLondon', '...\nLondon', '1 High Street\n🏠'])(
      'refuses the address %j, one of whose lines has nothing to print',
      (address) => {
        expect(firstProblem({ ...valid, address })).toEqual({
          address: 'Please enter your delivery address (up to 400 characters).',
        });
      },
    );

    it.each(['Zoë Brontë', '李小龍', "O'Brien-Smith", 'Ólafur Þór', 'Δημήτρης', 'J 3'])(
      'takes the name %j',
      (name) => {
        expect(checkoutRequestSchema.parse({ ...valid, name }).name).toBe(name);
      },
    );

    it('takes an address with a digit-only line, trimming each line and dropping blank ones', () => {
      expect(
        checkoutRequestSchema.parse({ ...valid, address: '  Flat 2 \n   \n 10\nHigh Street  \n\nLondon' })
          .address,
      ).toBe('Flat 2\n10\nHigh Street\nLondon');
    });
  });

  it.each([
    ['name', 'Zo\ufffd Bront\ufffd'],
    ['address', '1 Caf\ufffd Lane'],
    ['email', 'zo\ufffd@example.com'],
  ])('refuses U+FFFD, the mark of text decoded in the wrong charset, in the %s', (field, value) => {
    expect(firstProblem({ ...valid, [field]: value })).toEqual({
      [field]: 'Please retype this field: it contains characters that are not valid text.',
    });
  });

  it.each([
    ['name', 'Zo\ud800e'],
    ['name', 'Zoe\udc00'],
    ['address', '1 High Street \udbff'],
    ['email', 'zoe\ud83d@example.com'],
    ['phone', '07700 \ude00900123'],
    ['postcode', 'SW1A \ud8001AA'],
  ])('refuses a lone UTF-16 surrogate in the %s, with a message', (field, value) => {
    expect(firstProblem({ ...valid, [field]: value })).toEqual({ [field]: FIELD_MESSAGES.malformedText });
  });

  it('takes a properly paired surrogate (an emoji) in the name', () => {
    expect(checkoutRequestSchema.parse({ ...valid, name: 'Zoë 🐟' }).name).toBe('Zoë 🐟');
  });
});
