import { API_PATHS, IDEMPOTENCY_HEADER } from '../../../shared/api-paths';
import type { CheckoutRequest } from '../../../shared/checkout-request';
import type { CheckoutStatus } from '../../../shared/checkout-status';
import type { ShopStatus } from '../../../shared/shop-status';
import type { AppConfig } from '../config';

export type CreateCheckoutResult =
  | { kind: 'payment-page'; url: string; sessionId: string }
  | { kind: 'received' }
  | { kind: 'failed' };

export type CheckoutStatusResult =
  | { kind: 'found'; status: CheckoutStatus }
  | { kind: 'not-found' }
  | { kind: 'failed' };

export interface ApiClient {
  /**
   * Asks the server for a payment page. One call is one checkout attempt with its own
   * idempotency key; a network failure is retried once with the SAME key, so if the first request
   * did reach the server, the retry gets the same Checkout Session rather than a second one.
   */
  createCheckout(body: CheckoutRequest): Promise<CreateCheckoutResult>;
  /** Reads the state of a Checkout Session for the success page. */
  getCheckoutStatus(sessionId: string, signal?: AbortSignal): Promise<CheckoutStatusResult>;
  /**
   * How the shop takes orders now (open, paused with a message, or order requests). Undefined
   * when it cannot be read: the page then stays open, since create-checkout enforces a pause itself.
   */
  getShopStatus(signal?: AbortSignal): Promise<ShopStatus | undefined>;
}

export type ApiClientConfig = Pick<AppConfig, 'apiOrigin' | 'publicKey'> & {
  /** A request that takes longer fails: a spinner that never ends is worse than a clear error. */
  timeoutMs?: number;
};

const DEFAULT_TIMEOUT_MS = 20_000;

/** Starts loading the answer schemas; a failed load is retried by the next request. */
let schemas: Promise<typeof import('./response-schemas')> | undefined;
function loadResponseSchemas() {
  schemas ??= import('./response-schemas').catch((error: unknown) => {
    schemas = undefined;
    throw error;
  });
  return schemas;
}

/** The one place the browser talks to the API: base URL, headers, timeout and answer parsing. */
export function createApiClient({
  apiOrigin,
  publicKey,
  timeoutMs = DEFAULT_TIMEOUT_MS,
}: ApiClientConfig): ApiClient {
  async function request(path: string, init: RequestInit & { headers: Record<string, string> }) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const outer = init.signal;
    const forwardAbort = () => controller.abort();
    outer?.addEventListener('abort', forwardAbort, { once: true });
    const headers = publicKey ? { ...init.headers, Authorization: `Bearer ${publicKey}` } : init.headers;
    try {
      return await fetch(`${apiOrigin}${path}`, { ...init, headers, signal: controller.signal });
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', forwardAbort);
    }
  }

  return {
    async createCheckout(body) {
      const idempotencyKey = createIdempotencyKey();
      const parsers = loadResponseSchemas();
      // Handled below; this stops an unhandled rejection if the request fails first.
      parsers.catch(() => undefined);
      const send = () =>
        request(API_PATHS.createCheckout, {
          method: 'POST',
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
      const schema = await parsers
        .then((loaded) => loaded.createCheckoutResponseSchema)
        .catch(() => undefined);
      const parsed = schema?.safeParse(await readJson(response));
      if (!parsed?.success) return { kind: 'failed' };
      return 'url' in parsed.data
        ? { kind: 'payment-page', url: parsed.data.url, sessionId: parsed.data.sessionId }
        : { kind: 'received' };
    },

    async getCheckoutStatus(sessionId, signal) {
      const query = new URLSearchParams({ session_id: sessionId });
      const parsers = loadResponseSchemas();
      parsers.catch(() => undefined);
      let response: Response;
      try {
        response = await request(`${API_PATHS.checkoutStatus}?${query}`, {
          method: 'GET',
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
    },

    async getShopStatus(signal) {
      try {
        const response = await request(API_PATHS.shopStatus, {
          method: 'GET',
          headers: { Accept: 'application/json' },
          signal,
        });
        return response.ok ? readShopStatus(await readJson(response)) : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/** Checked by hand rather than with the shared zod schema: this call is on the order page's first load. */
function readShopStatus(body: unknown): ShopStatus | undefined {
  if (typeof body !== 'object' || body === null || !('mode' in body)) return undefined;
  const { mode } = body;
  const message = 'message' in body && typeof body.message === 'string' ? body.message : undefined;
  if (mode !== 'open' && mode !== 'paused' && mode !== 'requests') return undefined;
  return message === undefined ? { mode } : { mode, message };
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
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
