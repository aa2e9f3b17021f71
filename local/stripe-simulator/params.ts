import type Stripe from 'stripe';
import { z } from 'zod';
import { invalidRequest, type StripeApiError } from './errors';
import type { FormObject } from './form-body';
import type { SessionInput } from './objects';

/*
 * The parameters each endpoint accepts, as zod schemas over the parsed form (every leaf a string).
 * A parameter the schema does not name is refused as Stripe refuses it ("Received unknown
 * parameter"), so a misspelt or unsupported parameter fails here instead of being ignored.
 *
 * Messages are templates: `{param}` becomes the parameter's bracket path
 * (`line_items[0][quantity]`), and a leading `code|` becomes the error's `code`.
 */
const MISSING = 'parameter_missing|Missing required param: {param}.';
const EMPTY =
  "parameter_invalid_empty|You passed an empty string for '{param}'. We assume empty values are an attempt to " +
  "unset a parameter; however '{param}' cannot be unset. You should remove '{param}' from your request or " +
  'supply a non-empty value.';
const missingOr = (message: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? MISSING : message;
// For hashes and arrays Stripe reads an empty string as "unset", which on create means absent.
const blankToAbsent = (value: unknown) => (value === '' ? undefined : value);

export function text(maxLength = 5000) {
  return z
    .string({ error: missingOr('Invalid string: {param} must be a single value') })
    .min(1, { error: EMPTY })
    .max(maxLength, { error: `Invalid {param}: must be at most ${maxLength} characters` });
}

export function integer(bounds: { min?: number; max?: number } = {}) {
  return text().transform((value, context) => {
    const fail = (message: string) => {
      context.issues.push({ code: 'custom', input: value, message });
      return z.NEVER;
    };
    const number = Number(value);
    if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(number)) {
      return fail(`parameter_invalid_integer|Invalid integer: ${value}`);
    }
    if (bounds.min !== undefined && number < bounds.min) {
      return fail(`This value must be greater than or equal to ${bounds.min}.`);
    }
    if (bounds.max !== undefined && number > bounds.max) {
      return fail(`This value must be less than or equal to ${bounds.max}.`);
    }
    return number;
  });
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: missingOr(`Invalid {param}: must be one of ${values.join(', ')}`) });
}

export function hash<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.strictObject(shape, { error: missingOr('Invalid hash') });
}
export const optionalHash = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z.preprocess(blankToAbsent, hash(shape).optional());
export const list = <T extends z.ZodType>(item: T) =>
  z.preprocess(blankToAbsent, z.array(item, { error: missingOr('Invalid array') }).optional());

const KNOWN_CURRENCIES = new Set(Intl.supportedValuesOf('currency').map((code) => code.toLowerCase()));
export const currency = text().transform((value, context) => {
  const code = value.toLowerCase();
  if (!KNOWN_CURRENCIES.has(code)) {
    context.issues.push({
      code: 'custom',
      input: value,
      message: `parameter_invalid|Invalid currency: ${code}.`,
    });
  }
  return code;
});

const METADATA_LIMITS = { keys: 50, keyLength: 40, valueLength: 500 };
/** Metadata with empty values dropped: on create Stripe treats `metadata[key]=` as "no such key". */
export const metadata = z
  .preprocess(
    blankToAbsent,
    z
      .record(z.string(), z.string({ error: 'Invalid metadata: values must be strings' }), {
        error: 'Invalid hash',
      })
      .optional(),
  )
  .transform((value, context): Stripe.Metadata => {
    const entries = Object.entries(value ?? {}).filter(([, item]) => item !== '');
    const fail = (message: string, path: string[] = []) =>
      context.issues.push({ code: 'custom', input: value, path, message });
    const { keys, keyLength, valueLength } = METADATA_LIMITS;
    if (entries.length > keys) {
      fail(
        `Invalid metadata: metadata can have up to ${keys} keys, but you passed in ${entries.length} keys.`,
      );
    }
    for (const [key, item] of entries) {
      if (key.length > keyLength) {
        fail(
          `Metadata keys can have up to ${keyLength} characters, but you passed in a key that is ` +
            `${key.length} characters. Invalid key: ${key}`,
          [key],
        );
      }
      if (item.length > valueLength) {
        fail(
          `Metadata values can have up to ${valueLength} characters, but you passed in a value that is ` +
            `${item.length} characters. Invalid value: ${item}`,
          [key],
        );
      }
    }
    return Object.fromEntries(entries);
  });

/** `expand[]`, limited to the paths the endpoint can answer; Stripe has more, and those are refused loudly. */
export function expand(allowed: readonly string[]) {
  return list(text()).transform((paths = [], context) => {
    paths.forEach((path, index) => {
      if (!allowed.includes(path)) {
        const message = `This property cannot be expanded (${path}).`;
        context.issues.push({ code: 'custom', input: path, path: [index], message });
      }
    });
    return paths;
  });
}

export const email = text(800).refine((value) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value), {
  error: (issue) => `email_invalid|Invalid email address: ${String(issue.input)}`,
});
export const url = text().refine(
  (value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol),
  {
    error: 'url_invalid|Not a valid URL',
  },
);
export const LOCALES = (
  'auto bg cs da de el en en-GB es es-419 et fi fil fr fr-CA hi-IN hr hu id it ja ko lt lv ms mt nb nl pl pt ' +
  'pt-BR ro ru sk sl sv th tr vi zh zh-HK zh-TW'
).split(' ');

export const SESSION_EXPANSIONS = [
  'line_items',
  'line_items.data.price.product',
  'payment_intent',
  'payment_intent.latest_charge',
];

/**
 * `POST /v1/checkout/sessions`: exactly the parameters the shop sends (a test compares the two),
 * plus `expand`.
 */
export const createSessionSchema = z.strictObject({
  mode: oneOf(['payment', 'setup', 'subscription']),
  currency: currency.optional(),
  locale: text()
    .refine((value) => LOCALES.includes(value), {
      error: `Invalid {param}: must be one of ${LOCALES.join(', ')}`,
    })
    .optional(),
  line_items: list(
    hash({
      price_data: hash({
        currency,
        unit_amount: integer({ min: 1, max: 99_999_999 }),
        product_data: hash({ name: text(), description: text(40_000).optional() }),
      }),
      quantity: integer({ min: 1, max: 999 }),
    }),
  ),
  shipping_options: list(
    hash({
      shipping_rate_data: hash({
        type: oneOf(['fixed_amount']).optional(),
        fixed_amount: hash({ amount: integer({ min: 0, max: 99_999_999 }), currency }),
        display_name: text(100),
      }),
    }),
  ),
  customer_email: email.optional(),
  client_reference_id: text(200).optional(),
  metadata,
  payment_intent_data: optionalHash({ metadata, description: text(1000).optional() }),
  expires_at: integer().optional(),
  success_url: url.optional(),
  cancel_url: url.optional(),
  custom_text: optionalHash({ submit: optionalHash({ message: text(1200) }) }),
  expand: expand(SESSION_EXPANSIONS),
});
export type CreateSessionParams = z.output<typeof createSessionSchema>;

const bound = integer().optional();
/** `created=<t>` or `created[gte]=<t>` & co. */
export const createdFilter = z.preprocess(
  (value) => (typeof value === 'string' ? { gte: value, lte: value } : value),
  optionalHash({ gt: bound, gte: bound, lt: bound, lte: bound }),
);
export type CreatedFilter = z.output<typeof createdFilter>;

export const listSessionsSchema = z.strictObject({
  status: oneOf(['open', 'complete', 'expired']).optional(),
  payment_intent: text().optional(),
  created: createdFilter,
  limit: integer({ min: 1, max: 100 }).optional(),
  starting_after: text().optional(),
  expand: expand(SESSION_EXPANSIONS.map((path) => `data.${path}`)),
});

export const retrieveSchema = (expansions: readonly string[]) =>
  z.strictObject({ expand: expand(expansions) });

export const createRefundSchema = z.strictObject({
  payment_intent: text().optional(),
  charge: text().optional(),
  amount: integer({ min: 1 }).optional(),
  reason: oneOf(['duplicate', 'fraudulent', 'requested_by_customer']).optional(),
  metadata,
  expand: expand(['charge', 'payment_intent']),
});

/** Checks a form against a schema, throwing the first problem as Stripe words it. */
export function parseParams<T extends z.ZodType>(schema: T, form: FormObject): z.output<T> {
  const result = schema.safeParse(form);
  if (result.success) return result.data;
  throw stripeError(result.error.issues);
}

function stripeError(issues: z.core.$ZodIssue[]): StripeApiError {
  // Stripe names an unknown parameter before anything else that is wrong with a request.
  const unknown = issues.find((issue) => issue.code === 'unrecognized_keys');
  if (unknown?.code === 'unrecognized_keys') {
    const param = bracketPath([...unknown.path, unknown.keys[0] ?? '']);
    return invalidRequest(`Received unknown parameter: ${param}`, { param, code: 'parameter_unknown' });
  }
  const [issue] = issues;
  const param = bracketPath(issue?.path ?? []);
  const [, code, message = ''] = /^(?:([a-z_]+)\|)?(.*)$/s.exec(issue?.message ?? '') ?? [];
  return invalidRequest(message.replaceAll('{param}', param), {
    param,
    ...(code !== undefined && { code }),
  });
}

function bracketPath(path: readonly PropertyKey[]): string {
  const [first = '', ...rest] = path.map(String);
  return first + rest.map((key) => `[${key}]`).join('');
}

const EXPIRY_WINDOW_SECONDS = { min: 30 * 60, max: 24 * 60 * 60 } as const;

/** The checks of a create request that look at more than one parameter, and the session they describe. */
export function sessionInput(params: CreateSessionParams, now: number): SessionInput {
  if (params.mode !== 'payment') {
    throw invalidRequest(`The Stripe simulator supports only mode=payment, not mode=${params.mode}.`, {
      param: 'mode',
    });
  }
  const lineItems = params.line_items ?? [];
  const first = lineItems[0];
  if (first === undefined)
    throw invalidRequest('Missing required param: line_items.', {
      param: 'line_items',
      code: 'parameter_missing',
    });
  const currency = sessionCurrency(params.currency, lineItems);
  const options = params.shipping_options ?? [];
  if (options.length > 1) {
    throw invalidRequest('The Stripe simulator supports at most 1 shipping option.', {
      param: 'shipping_options',
    });
  }
  const rate = options[0]?.shipping_rate_data;
  if (rate !== undefined && rate.fixed_amount.currency !== currency) {
    throw invalidRequest(
      `The shipping rate's currency (${rate.fixed_amount.currency}) must match the currency of the line items (${currency}).`,
      { param: 'shipping_options[0][shipping_rate_data][fixed_amount][currency]' },
    );
  }
  return {
    ...sessionInputOf(params, lineItems, now),
    currency,
    shipping:
      rate === undefined ? null : { displayName: rate.display_name, amount: rate.fixed_amount.amount },
  };
}

/**
 * What a session of either mode takes as sent: its lines, the customer's email and locale, the
 * references, where the page returns, and when the session expires.
 */
export function sessionInputOf(
  params: Pick<
    CreateSessionParams,
    | 'customer_email'
    | 'locale'
    | 'client_reference_id'
    | 'metadata'
    | 'expires_at'
    | 'success_url'
    | 'cancel_url'
    | 'custom_text'
  >,
  lineItems: ReadonlyArray<{
    price_data: { product_data: { name: string; description?: string | undefined }; unit_amount: number };
    quantity: number;
  }>,
  now: number,
): Omit<SessionInput, 'currency' | 'shipping' | 'recurring'> {
  return {
    lineItems: lineItems.map(({ price_data: price, quantity }) => ({
      name: price.product_data.name,
      description: price.product_data.description ?? null,
      unitAmount: price.unit_amount,
      quantity,
    })),
    customerEmail: params.customer_email ?? null,
    locale: params.locale ?? null,
    clientReferenceId: params.client_reference_id ?? null,
    metadata: params.metadata,
    expiresAt: checkedExpiresAt(params.expires_at, now),
    successUrl: params.success_url ?? null,
    cancelUrl: params.cancel_url ?? null,
    submitMessage: params.custom_text?.submit?.message ?? null,
  };
}

/** The session's currency: the one given, else the first line's; every line must be in it. */
export function sessionCurrency(
  given: string | undefined,
  lineItems: ReadonlyArray<{ price_data: { currency: string } }>,
): string {
  const currency = given ?? lineItems[0]?.price_data.currency ?? '';
  lineItems.forEach(({ price_data: price }, index) => {
    if (price.currency !== currency) {
      throw invalidRequest(
        `All line items must use the same currency: line item ${index} is in ${price.currency}, but the session is in ${currency}.`,
        { param: `line_items[${index}][price_data][currency]` },
      );
    }
  });
  return currency;
}

/** `expires_at` as sent (default 24 hours ahead), within Stripe's window of 30 minutes to 24 hours. */
export function checkedExpiresAt(sent: number | undefined, now: number): number {
  const expiresAt = sent ?? now + EXPIRY_WINDOW_SECONDS.max;
  if (expiresAt < now + EXPIRY_WINDOW_SECONDS.min || expiresAt > now + EXPIRY_WINDOW_SECONDS.max) {
    throw invalidRequest(
      expiresAt < now + EXPIRY_WINDOW_SECONDS.min
        ? 'The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.'
        : 'The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.',
      { param: 'expires_at' },
    );
  }
  return expiresAt;
}

/** An event type as Stripe spells it (`checkout.session.completed`), or `*` for every event. */
const eventType = text().refine((value) => value === '*' || /^[a-z_]+(\.[a-z_]+)+$/.test(value), {
  error: (issue) => `Invalid {param}: ${String(issue.input)} is not an event type`,
});

/** `POST /v1/webhook_endpoints`: `url` and `enabled_events` are required, as at Stripe. */
export const createWebhookEndpointSchema = z.strictObject({
  url,
  enabled_events: z.preprocess(
    blankToAbsent,
    z.array(eventType, { error: missingOr('Invalid array') }).min(1, { error: MISSING }),
  ),
  description: text().optional(),
  metadata,
  api_version: text().optional(),
  expand: expand([]),
});

/** `POST /v1/webhook_endpoints/:id`: every field optional; `disabled` pauses deliveries. */
export const updateWebhookEndpointSchema = z.strictObject({
  url: url.optional(),
  enabled_events: list(eventType),
  description: text().optional(),
  metadata,
  disabled: oneOf(['true', 'false']).optional(),
  expand: expand([]),
});

export const listWebhookEndpointsSchema = z.strictObject({
  limit: integer({ min: 1, max: 100 }).optional(),
  starting_after: text().optional(),
  expand: expand([]),
});
