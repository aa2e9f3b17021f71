// zod/mini (tree-shakable): the order page loads this when the customer starts an order; what it
// shows before that lives in the zod-free checkout-fields.ts.
import * as z from 'zod/mini';
import { FIELD_LIMITS, FIELD_MESSAGES } from './checkout-fields';
import { parseUkPostcode } from './postcode';
import { poundsToPence } from './pricing';
import { isAllowedQuantity } from './product';
import {
  FORBIDDEN_CHARS,
  FORBIDDEN_CHARS_EXCEPT_LF,
  LONE_SURROGATE,
  REPLACEMENT_CHARACTER,
} from './refused-characters';
import { REPEATS } from './standing-order';

export { FIELD_LIMITS, FIELD_MESSAGES } from './checkout-fields';

/** Largest amount in pounds a request may carry: far above any real order, far below float trouble. */
const MAX_POUNDS = 10_000;

/** Something that shows: a letter or a digit of any script, so a name or line cannot print blank. */
const VISIBLE_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** Well-formed Unicode first (a 400, never the SDK's URIError), then the forbidden characters. */
const plainText = (forbidden: RegExp) => [
  z.refine<string>((value) => !LONE_SURROGATE.test(value) && !REPLACEMENT_CHARACTER.test(value), {
    error: FIELD_MESSAGES.malformedText,
    abort: true,
  }),
  z.refine<string>((value) => !forbidden.test(value), {
    error: FIELD_MESSAGES.controlCharacters,
    abort: true,
  }),
];

const trimmed = (schema: z.ZodMiniString) =>
  z.pipe(
    schema,
    z.transform((value: string) => value.trim()),
  );

/**
 * Lengths in UTF-16 code units, as Stripe counts a metadata value's 500 and a browser counts
 * `maxlength`: an emoji is 2, so 251 emoji are 502, not 251.
 */
const lengthBetween = (min: number, max: number, message: string) =>
  z.refine<string>((value) => value.length >= min && value.length <= max, { error: message });

function text(max: number, message: string, forbidden = FORBIDDEN_CHARS) {
  return trimmed(z.string({ error: message }).check(...plainText(forbidden))).check(
    lengthBetween(1, max, message),
  );
}

/** Every line shows a letter or digit: dots, dashes or emoji alone print nothing a courier can use. */
const visibleLines = (message: string) =>
  z.refine<string>((value) => value.split('\n').every((line) => VISIBLE_LETTER_OR_DIGIT.test(line)), {
    error: message,
  });

/**
 * The local part SES and Stripe take: RFC 5322 "dot-atom" in ASCII, so no leading, trailing or
 * doubled dot, no quotes, no spaces, nothing SES (7-bit ASCII only) would refuse.
 */
const EMAIL_LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
/** A dotted domain of letters, digits and inner hyphens (punycode `xn--` labels included). */
const EMAIL_DOMAIN =
  /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: anything outside ASCII is the point.
const NON_ASCII = /[^\u0000-\u007f]/;

/** An internationalised domain in its punycode form, which SES requires (the URL parser does IDNA). */
function asciiDomain(domain: string): string | undefined {
  // Letters of any script, digits, dots and hyphens only: the URL parser would also read a port,
  // a path or credentials out of what follows, and drop them silently.
  if (!/^[\p{L}\p{M}\p{N}.-]+$/u.test(domain)) return undefined;
  try {
    const host = new URL(`http://${domain}`).hostname;
    return host === '' ? undefined : host;
  } catch {
    return undefined;
  }
}

const email = z.pipe(
  text(FIELD_LIMITS.email, FIELD_MESSAGES.email),
  z.transform((value: string, ctx) => {
    const at = value.lastIndexOf('@');
    const local = value.slice(0, Math.max(at, 0));
    const domain = value.slice(at + 1);
    const refuse = (message: string) => {
      ctx.issues.push({ code: 'custom', input: value, message });
      return z.NEVER;
    };
    if (at <= 0 || local.includes('@')) return refuse(FIELD_MESSAGES.email);
    if (NON_ASCII.test(local)) return refuse(FIELD_MESSAGES.emailNotAscii);
    if (local.length > FIELD_LIMITS.emailLocalPart || !EMAIL_LOCAL_PART.test(local)) {
      return refuse(FIELD_MESSAGES.email);
    }
    const ascii = NON_ASCII.test(domain) ? asciiDomain(domain) : domain;
    if (ascii === undefined || !EMAIL_DOMAIN.test(ascii)) {
      return refuse(NON_ASCII.test(domain) ? FIELD_MESSAGES.emailDomain : FIELD_MESSAGES.email);
    }
    const address = `${local}@${ascii}`;
    return address.length <= FIELD_LIMITS.email ? address : refuse(FIELD_MESSAGES.email);
  }),
);

const phone = trimmed(z.string({ error: FIELD_MESSAGES.phone }).check(...plainText(FORBIDDEN_CHARS))).check(
  lengthBetween(0, FIELD_LIMITS.phone, FIELD_MESSAGES.phone),
  // A leading bracket too: "(0161) 496 0000" is how UK numbers are often written.
  z.regex(/^(?:\+?\(?[0-9][0-9 ()-]{5,}[0-9])?$/, { error: FIELD_MESSAGES.phone }),
);

const POSTCODE_MESSAGES = {
  format: FIELD_MESSAGES.postcodeFormat,
  'not-deliverable': FIELD_MESSAGES.postcodeNotDeliverable,
  bfpo: FIELD_MESSAGES.postcodeBfpo,
} as const;

const postcode = z.pipe(
  z
    .string({ error: FIELD_MESSAGES.postcodeFormat })
    .check(
      lengthBetween(0, FIELD_LIMITS.postcode + 10, FIELD_MESSAGES.postcodeFormat),
      ...plainText(FORBIDDEN_CHARS),
    ),
  z.transform((value: string, ctx) => {
    const result = parseUkPostcode(value);
    if (result.ok) return result.postcode;
    ctx.issues.push({
      code: 'custom',
      input: value,
      message: POSTCODE_MESSAGES[result.reason],
    });
    return z.NEVER;
  }),
);

const amount = z.number({ error: FIELD_MESSAGES.amount }).check(
  z.minimum(0, { error: FIELD_MESSAGES.amount }),
  z.maximum(MAX_POUNDS, { error: FIELD_MESSAGES.amount }),
  z.refine((value: number) => poundsToPence(value) !== undefined, { error: FIELD_MESSAGES.amount }),
);

/** The delivery fields, exported so a correction after payment (address-correction.ts) checks the same. */
export const deliveryFields = {
  phone: z._default(z.optional(phone), ''),
  address: z
    .pipe(
      text(FIELD_LIMITS.address, FIELD_MESSAGES.address, FORBIDDEN_CHARS_EXCEPT_LF),
      // Each line trimmed and blank lines dropped: a label prints no empty or indented lines.
      z.transform((value: string) =>
        value
          .split('\n')
          .map((line) => line.trim())
          .filter((line) => line !== '')
          .join('\n'),
      ),
    )
    .check(visibleLines(FIELD_MESSAGES.address)),
  postcode,
};

/**
 * The body of `POST /functions/v1/create-checkout`, checked by the form and parsed by the Lambda.
 * The amounts are the browser's idea of the price: a cross-check of the server's quote, never a source.
 */
export const checkoutRequestSchema = z.strictObject({
  name: text(FIELD_LIMITS.name, FIELD_MESSAGES.name).check(visibleLines(FIELD_MESSAGES.name)),
  email,
  ...deliveryFields,
  quantity: z.custom<3 | 6 | 9>(isAllowedQuantity, { error: FIELD_MESSAGES.quantity }),
  subtotal: amount,
  shipping: amount,
  total: amount,
  /** A standing order (issue 50); absent for the spec's one-off order, which never sends it. */
  repeat: z.optional(z.enum(REPEATS, { error: FIELD_MESSAGES.repeat })),
});

/** What the browser sends. */
export type CheckoutRequestBody = z.input<typeof checkoutRequestSchema>;
/** What the server works with after parsing: trimmed, postcode normalised. */
export type CheckoutRequest = z.output<typeof checkoutRequestSchema>;

/** Field → first message, for a 400 answer and for the form's toast. */
export function describeIssues(error: z.core.$ZodError): {
  fields: Partial<Record<string, string>>;
  message: string;
} {
  const fields: Partial<Record<string, string>> = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? String(issue.path[0]) : '_';
    if (issue.code === 'unrecognized_keys') {
      for (const unknown of issue.keys) fields[unknown] = `Unknown field "${unknown}".`;
    } else {
      fields[key] ??= issue.message;
    }
  }
  const first = Object.values(fields)[0] ?? 'The request is not valid.';
  return { fields, message: first };
}
