// zod/mini: the same schemas as classic zod, but tree-shakable; the order page ships this file,
// and classic zod would add about 20 KB gzipped to its first load.
import * as z from 'zod/mini';
import { parseUkPostcode } from './postcode';
import { poundsToPence } from './pricing';
import { isAllowedQuantity } from './product';

/**
 * Field limits. Each also fits a Stripe metadata value (500 characters) and keeps an email
 * readable; the address is the longest thing a courier label takes.
 */
export const FIELD_LIMITS = {
  name: 100,
  email: 254,
  emailLocalPart: 64,
  phone: 30,
  address: 400,
  postcode: 10,
} as const;

/** Largest amount in pounds a request may carry: far above any real order, far below float trouble. */
const MAX_POUNDS = 10_000;

// C0 and C1 controls, DEL, the Unicode line/paragraph separators, and bidi overrides/isolates:
// they break headers, logs and the merchant's packing slips, and can disguise text.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const FORBIDDEN_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
// The address is the one multi-line field (a textarea): line feeds are allowed there, nothing else.
const FORBIDDEN_CHARS_EXCEPT_LF =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** Messages shown to the customer (toast) and returned by the API, one per rule. */
export const FIELD_MESSAGES = {
  name: 'Please enter your full name (up to 100 characters).',
  email: 'Please enter a valid email address.',
  phone: 'Please enter a valid phone number, or leave it empty.',
  address: 'Please enter your delivery address (up to 400 characters).',
  postcodeFormat: 'Please enter a valid UK postcode, for example SW1A 1AA.',
  postcodeNotDeliverable:
    'We can only deliver to Great Britain and Northern Ireland: not to the Channel Islands, the Isle of Man, BFPO or overseas addresses.',
  quantity: 'Please choose 3, 6 or 9 bottles.',
  amount: 'Order amounts must be numbers in pounds with at most 2 decimals.',
  controlCharacters: 'Please remove special or invisible characters.',
} as const;

const noControlCharacters = (forbidden: RegExp) =>
  z.refine<string>((value) => !forbidden.test(value), {
    error: FIELD_MESSAGES.controlCharacters,
    abort: true,
  });

const trimmed = (schema: z.ZodMiniString) =>
  z.pipe(
    schema,
    z.transform((value: string) => value.trim()),
  );

function text(max: number, message: string, forbidden = FORBIDDEN_CHARS) {
  return trimmed(z.string({ error: message }).check(noControlCharacters(forbidden))).check(
    z.minLength(1, { error: message }),
    z.maxLength(max, { error: message }),
  );
}

// A practical address shape: one @, no spaces or angle brackets, a dotted domain. Stricter than
// the browser's type=email check and enough to refuse anything that could smuggle a header.
const EMAIL_SHAPE =
  /^[^\s@<>()[\]\\,;:"]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

const email = text(FIELD_LIMITS.email, FIELD_MESSAGES.email).check(
  z.refine(
    (value: string) =>
      EMAIL_SHAPE.test(value) && (value.split('@')[0] ?? '').length <= FIELD_LIMITS.emailLocalPart,
    { error: FIELD_MESSAGES.email },
  ),
);

const phone = trimmed(
  z.string({ error: FIELD_MESSAGES.phone }).check(noControlCharacters(FORBIDDEN_CHARS)),
).check(
  z.maxLength(FIELD_LIMITS.phone, { error: FIELD_MESSAGES.phone }),
  z.regex(/^(?:\+?[0-9][0-9 ()-]{5,}[0-9])?$/, { error: FIELD_MESSAGES.phone }),
);

const postcode = z.pipe(
  z
    .string({ error: FIELD_MESSAGES.postcodeFormat })
    .check(
      z.maxLength(FIELD_LIMITS.postcode + 10, { error: FIELD_MESSAGES.postcodeFormat }),
      noControlCharacters(FORBIDDEN_CHARS),
    ),
  z.transform((value: string, ctx) => {
    const result = parseUkPostcode(value);
    if (result.ok) return result.postcode;
    ctx.issues.push({
      code: 'custom',
      input: value,
      message:
        result.reason === 'format' ? FIELD_MESSAGES.postcodeFormat : FIELD_MESSAGES.postcodeNotDeliverable,
    });
    return z.NEVER;
  }),
);

const amount = z.number({ error: FIELD_MESSAGES.amount }).check(
  z.minimum(0, { error: FIELD_MESSAGES.amount }),
  z.maximum(MAX_POUNDS, { error: FIELD_MESSAGES.amount }),
  z.refine((value: number) => poundsToPence(value) !== undefined, { error: FIELD_MESSAGES.amount }),
);

/**
 * The body of `POST /functions/v1/create-checkout`, the one schema of that boundary:
 * the order form checks it before sending and the Lambda parses with it. Unknown fields are
 * refused, not passed on. Strings come out trimmed and the postcode normalised. The amounts are
 * the browser's idea of the price: a cross-check against the server's quote, never a source.
 */
export const checkoutRequestSchema = z.strictObject({
  name: text(FIELD_LIMITS.name, FIELD_MESSAGES.name),
  email,
  phone: z._default(z.optional(phone), ''),
  address: z.pipe(
    text(FIELD_LIMITS.address, FIELD_MESSAGES.address, FORBIDDEN_CHARS_EXCEPT_LF),
    z.transform((value: string) => value.replace(/\n{2,}/g, '\n')),
  ),
  postcode,
  quantity: z.custom<3 | 6 | 9>(isAllowedQuantity, { error: FIELD_MESSAGES.quantity }),
  subtotal: amount,
  shipping: amount,
  total: amount,
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
