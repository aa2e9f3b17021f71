import type { CheckoutRequest } from '../../../shared/checkout-request';
import { IDEMPOTENCY_HEADER, PUBLIC_API_ROUTES } from '../../../shared/public-routes';
import { readJson } from '../../../shared/read-json';
import type { ApiRequest, CheckoutStatusResult, CreateCheckoutResult } from './api-contract';
import { lazyModule } from './lazy-module';

// The checkout and status requests (api-client.ts loads this module with the first of them).

/** Starts loading the answer schemas; a failed load is retried by the next request. */
const loadResponseSchemas = lazyModule(() => import('./response-schemas')).load;

export async function createCheckout(
  request: ApiRequest,
  body: CheckoutRequest,
): Promise<CreateCheckoutResult> {
  const idempotencyKey = createIdempotencyKey();
  const parsers = loadResponseSchemas();
  // Handled below; this stops an unhandled rejection if the request fails first.
  parsers.catch(() => undefined);
  const { path, method } = PUBLIC_API_ROUTES.createCheckout;
  const send = () =>
    request(path, {
      method,
      headers: { 'Content-Type': 'application/json', [IDEMPOTENCY_HEADER]: idempotencyKey },
      body: JSON.stringify(body),
    });
  let response: Response;
  try {
    response = await send().catch((error: unknown) => {
      // Only a plain network failure is worth a second try; a timeout already waited long enough.
      if (isAbort(error)) throw error;
      return send();
    });
  } catch {
    return { kind: 'failed' };
  }
  if (!response.ok) return { kind: 'failed' };
  const schema = await parsers.then((loaded) => loaded.createCheckoutResponseSchema).catch(() => undefined);
  const parsed = schema?.safeParse(await readJson(response));
  if (!parsed?.success) return { kind: 'failed' };
  return 'url' in parsed.data
    ? { kind: 'payment-page', url: parsed.data.url, sessionId: parsed.data.sessionId }
    : { kind: 'received', reference: parsed.data.reference };
}

export async function getCheckoutStatus(
  request: ApiRequest,
  sessionId: string,
  signal?: AbortSignal,
): Promise<CheckoutStatusResult> {
  const query = new URLSearchParams({ session_id: sessionId });
  const parsers = loadResponseSchemas();
  parsers.catch(() => undefined);
  let response: Response;
  try {
    const { path, method } = PUBLIC_API_ROUTES.checkoutStatus;
    response = await request(`${path}?${query}`, {
      method,
      headers: { Accept: 'application/json' },
      signal,
    });
  } catch {
    return { kind: 'failed' };
  }
  if (response.status === 404) return { kind: 'not-found' };
  if (!response.ok) return { kind: 'failed' };
  const schema = await parsers.then((loaded) => loaded.checkoutStatusSchema).catch(() => undefined);
  const parsed = schema?.safeParse(await readJson(response));
  return parsed?.success ? { kind: 'found', status: parsed.data } : { kind: 'failed' };
}

// By name, not instanceof: DOMException is not an Error subclass in every browser.
function isAbort(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'name' in error && error.name === 'AbortError';
}

/**
 * `crypto.randomUUID` exists only in secure contexts (https, localhost); a preview served over
 * plain http on a LAN address would otherwise fail every checkout.
 */
function createIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
