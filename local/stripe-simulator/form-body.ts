import type { IncomingMessage } from 'node:http';
import qs from 'qs';
import { invalidRequest, type StripeApiError } from './errors';

/**
 * A parsed `application/x-www-form-urlencoded` body or query string in Stripe's bracket notation
 * (`line_items[0][price_data][unit_amount]=325`). Every leaf is a string: the SDK sends numbers
 * and booleans as text, and each endpoint decides what a value means.
 */
export type FormValue = string | FormValue[] | FormObject;
export interface FormObject {
  [key: string]: FormValue;
}

/** Stripe's own request bodies are small; this only stops a runaway client from filling memory. */
export const MAX_BODY_BYTES = 1024 * 1024;

const QS_OPTIONS = {
  // Deep enough for `shipping_options[0][shipping_rate_data][delivery_estimate][minimum][unit]`.
  depth: 10,
  strictDepth: true,
  // Checkout allows at most 100 line items; beyond the limit qs would silently turn arrays into objects.
  arrayLimit: 100,
  parameterLimit: 2000,
  throwOnLimitExceeded: true,
  // qs drops `__proto__` keys; null-prototype objects keep `constructor` & co. as plain keys,
  // which the endpoint then refuses as unknown parameters.
  plainObjects: true,
  allowPrototypes: false,
  allowDots: false,
} as const;

function isFormObject(value: FormValue | undefined): value is FormObject {
  return typeof value === 'object' && !Array.isArray(value);
}

export function parseForm(text: string): FormObject {
  let parsed: unknown;
  try {
    parsed = qs.parse(text, QS_OPTIONS);
  } catch (error) {
    // qs throws RangeError for too many parameters, too deep brackets or oversized arrays.
    const detail = error instanceof RangeError ? error.message : 'unreadable form encoding';
    throw invalidRequest(`Invalid request body: ${detail}`);
  }
  const form = toFormValue(parsed);
  return isFormObject(form) ? form : {};
}

/**
 * Copies qs's output into plain data with exact types. `Object.fromEntries` defines own
 * properties and never calls a prototype setter, whatever the key.
 */
function toFormValue(value: unknown): FormValue | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    return value.map(toFormValue).filter((item): item is FormValue => item !== undefined);
  }
  if (typeof value === 'object' && value !== null) {
    const entries: Array<[string, FormValue]> = [];
    for (const [key, item] of Object.entries(value)) {
      const converted = toFormValue(item);
      if (converted !== undefined) entries.push([key, converted]);
    }
    return Object.fromEntries(entries);
  }
  return undefined;
}

export class BodyTooLargeError extends Error {}

export async function readBody(request: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > limit) throw new BodyTooLargeError(`Request body is larger than ${limit} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function bodyTooLarge(): StripeApiError {
  return invalidRequest(`Request body too large: the limit is ${MAX_BODY_BYTES} bytes.`, { status: 413 });
}
