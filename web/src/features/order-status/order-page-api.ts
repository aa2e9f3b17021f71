import { type AddressCorrectionBody, addressCorrectionSchema } from '../../../../shared/address-correction';
import { describeIssues } from '../../../../shared/checkout-request';
import {
  type OrderPageAnswer,
  type OrderPageView,
  orderPageReadSchema,
  orderPageViewSchema,
} from '../../../../shared/order-page';
import { PUBLIC_API_ROUTES } from '../../../../shared/public-routes';
import { readJson } from '../../../../shared/read-json';
import {
  type StandingOrderChangeBody,
  type StandingOrderPageView,
  standingOrderChangeSchema,
  standingOrderPageViewSchema,
} from '../../../../shared/standing-order-page';
import type { ApiRequest, ApiRequestInit } from '../../lib/api-contract';

// The order page's two requests, in the page's own chunk (with zod): nothing of them is in `/`'s first load.

export type OrderPageResult =
  /** The order, or its Direct Debit still with (or refused by) the bank (ADR 0047), or a standing order. */
  | { kind: 'found'; view: OrderPageAnswer | StandingOrderPageView }
  | { kind: 'not-found' }
  | { kind: 'failed' };

/** What a change of a standing order came to: its new view, or the server's reason for refusing it. */
export type StandingChangeResult =
  | { kind: 'changed'; view: StandingOrderPageView }
  | { kind: 'refused'; message: string }
  | { kind: 'not-found' }
  | { kind: 'failed' };

export type CorrectionResult =
  | { kind: 'corrected'; view: OrderPageView }
  /** The checkout's own message per field, from the page's checks or the server's. */
  | { kind: 'invalid'; fields: Partial<Record<string, string>> }
  /** Refused as a whole (past the cut-off, dispatched meanwhile): the server's words. */
  | { kind: 'refused'; message: string }
  | { kind: 'not-found' }
  | { kind: 'failed' };

/** The page's token is in its address: no referrer, so it never leaves in a Referer header. */
const PRIVATE: Pick<RequestInit, 'referrerPolicy' | 'cache'> = {
  referrerPolicy: 'no-referrer',
  cache: 'no-store',
};

async function send(request: ApiRequest, path: string, init: ApiRequestInit): Promise<Response | undefined> {
  try {
    return await request(path, { ...PRIVATE, ...init });
  } catch {
    return undefined;
  }
}

function parseView(body: unknown): OrderPageView | undefined {
  const parsed = orderPageViewSchema.safeParse(body);
  return parsed.success ? parsed.data : undefined;
}

/** Reads the order a token opens; every refusal of the token is the same `not-found`. */
export async function getOrderPage(
  request: ApiRequest,
  token: string,
  signal?: AbortSignal,
): Promise<OrderPageResult> {
  const query = new URLSearchParams({ token });
  const { path, method } = PUBLIC_API_ROUTES.orderPage;
  const response = await send(request, `${path}?${query}`, {
    method,
    headers: { Accept: 'application/json' },
    signal,
  });
  if (response === undefined) return { kind: 'failed' };
  if (response.status === 404) return { kind: 'not-found' };
  if (!response.ok) return { kind: 'failed' };
  // A token naming a subscription opens its standing order (issue 50); any other, an order.
  const parsed = orderPageReadSchema.safeParse(await readJson(response));
  return parsed.success ? { kind: 'found', view: parsed.data } : { kind: 'failed' };
}

/** Whether the page's read answered a standing order rather than one order. */
export function isStandingOrderView(
  view: OrderPageAnswer | StandingOrderPageView,
): view is StandingOrderPageView {
  return 'kind' in view && view.kind === 'standing-order';
}

/** Sends one standing-order change, checked with the server's schema first; answers the order as it is. */
export async function changeStandingOrder(
  request: ApiRequest,
  change: StandingOrderChangeBody,
): Promise<StandingChangeResult> {
  if (!standingOrderChangeSchema.safeParse(change).success) return { kind: 'failed' };
  const { path, method } = PUBLIC_API_ROUTES.orderPageStandingOrder;
  const response = await send(request, path, {
    method,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(change),
  });
  if (response === undefined) return { kind: 'failed' };
  if (response.status === 404) return { kind: 'not-found' };
  const body = await readJson(response);
  if (response.ok) {
    const view = standingOrderPageViewSchema.safeParse(body);
    return view.success ? { kind: 'changed', view: view.data } : { kind: 'failed' };
  }
  // A refusal in words (past the cut-off, no longer offered): 4xx but a throttle's 429.
  const { message } = errorOf(body);
  if (response.status >= 400 && response.status < 500 && response.status !== 429 && message)
    return { kind: 'refused', message };
  return { kind: 'failed' };
}

/** Sends a delivery correction, checked first with the checkout's schema (a bad postcode named at once). */
export async function correctDeliveryDetails(
  request: ApiRequest,
  token: string,
  details: AddressCorrectionBody,
): Promise<CorrectionResult> {
  const checked = addressCorrectionSchema.safeParse(details);
  if (!checked.success) return { kind: 'invalid', fields: describeIssues(checked.error).fields };
  const { path, method } = PUBLIC_API_ROUTES.orderPageAddress;
  const response = await send(request, path, {
    method,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ token, ...details }),
  });
  if (response === undefined) return { kind: 'failed' };
  if (response.status === 404) return { kind: 'not-found' };
  const body = await readJson(response);
  if (response.ok) {
    const view = parseView(body);
    return view ? { kind: 'corrected', view } : { kind: 'failed' };
  }
  const error = errorOf(body);
  if (response.status === 400 && error.fields) return { kind: 'invalid', fields: error.fields };
  if (response.status === 409 && error.message) return { kind: 'refused', message: error.message };
  return { kind: 'failed' };
}

/** `{ error, fields? }`, as the handler answers a refusal; checked, not cast. */
function errorOf(body: unknown): { message?: string; fields?: Partial<Record<string, string>> } {
  if (typeof body !== 'object' || body === null) return {};
  const message = 'error' in body && typeof body.error === 'string' ? body.error : undefined;
  const rawFields = 'fields' in body ? body.fields : undefined;
  const fields =
    typeof rawFields === 'object' && rawFields !== null
      ? Object.fromEntries(
          Object.entries(rawFields).filter(
            (entry): entry is [string, string] => typeof entry[1] === 'string',
          ),
        )
      : undefined;
  return { ...(message !== undefined && { message }), ...(fields !== undefined && { fields }) };
}
