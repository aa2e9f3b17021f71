import type { CheckoutStatus } from '../../../shared/checkout-status';

// What api-client.ts shares with the api-requests.ts it loads on demand: the answers and the
// request it hands over. Both import this module, so neither imports the other.

export type CreateCheckoutResult =
  | { kind: 'payment-page'; url: string; sessionId: string }
  | { kind: 'received'; reference: string | undefined }
  | { kind: 'failed' };

export type CheckoutStatusResult =
  | { kind: 'found'; status: CheckoutStatus }
  | { kind: 'not-found' }
  | { kind: 'failed' };

export type ApiRequestInit = RequestInit & { headers: Record<string, string> };
/** A request to the API: its origin, the bearer when configured, the timeout. */
export type ApiRequest = (path: string, init: ApiRequestInit) => Promise<Response>;
