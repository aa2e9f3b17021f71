import type { CheckoutRequest } from '../../../shared/checkout-request';
import { isCalendarDate } from '../../../shared/dispatch';
import { PUBLIC_API_ROUTES } from '../../../shared/public-routes';
import { readJson } from '../../../shared/read-json';
import type { ShopStatus } from '../../../shared/shop-status';
import type { AppConfig } from '../config';
import type { ApiRequest, ApiRequestInit, CheckoutStatusResult, CreateCheckoutResult } from './api-contract';
import { lazyModule } from './lazy-module';

export interface ApiClient {
  /** One checkout attempt: a network failure is retried once with the SAME idempotency key. */
  createCheckout(body: CheckoutRequest): Promise<CreateCheckoutResult>;
  /** Reads the state of a Checkout Session for the success page. */
  getCheckoutStatus(sessionId: string, signal?: AbortSignal): Promise<CheckoutStatusResult>;
  /** Undefined when unreadable: the page then stays open, since create-checkout enforces a pause itself. */
  getShopStatus(signal?: AbortSignal): Promise<ShopStatus | undefined>;
  /** The base request, for pages loaded on demand, so their code stays out of this first-load chunk. */
  request: ApiRequest;
}

export type ApiClientConfig = Pick<AppConfig, 'apiOrigin' | 'publicKey'> & {
  /** A request that takes longer fails: a spinner that never ends is worse than a clear error. */
  timeoutMs?: number;
};

const DEFAULT_TIMEOUT_MS = 20_000;

/** The checkout and status requests, loaded with the first of them; a failed load is retried by the next. */
export const loadApiRequests = lazyModule(() => import('./api-requests')).load;

/** The one place the browser talks to the API: base URL, headers, timeout and answer parsing. */
export function createApiClient({
  apiOrigin,
  publicKey,
  timeoutMs = DEFAULT_TIMEOUT_MS,
}: ApiClientConfig): ApiClient {
  async function request(path: string, init: ApiRequestInit) {
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
    request,
    createCheckout: (body) =>
      loadApiRequests().then(
        (loaded) => loaded.createCheckout(request, body),
        (): CreateCheckoutResult => ({ kind: 'failed' }),
      ),
    getCheckoutStatus: (sessionId, signal) =>
      loadApiRequests().then(
        (loaded) => loaded.getCheckoutStatus(request, sessionId, signal),
        (): CheckoutStatusResult => ({ kind: 'failed' }),
      ),
    async getShopStatus(signal) {
      try {
        const { path, method } = PUBLIC_API_ROUTES.shopStatus;
        const response = await request(path, {
          method,
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
  // The first dispatch day with room when the merchant limits them (null: none for 8 weeks).
  const day = 'dispatchDate' in body ? body.dispatchDate : undefined;
  const dispatchDate = day === null || (typeof day === 'string' && isCalendarDate(day)) ? day : undefined;
  return {
    mode,
    ...(message !== undefined && { message }),
    ...(dispatchDate !== undefined && { dispatchDate }),
  };
}
