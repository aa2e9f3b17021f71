import * as z from 'zod/mini';
import { ADMIN_FORBIDDEN_CODES, type AdminErrorResponse, adminErrorSchema } from './admin-responses';
import {
  ADMIN_API_ROUTES,
  type AdminAnswer,
  type AdminArgs,
  type AdminJsonRouteName,
  type AdminRoute,
  type AdminRouteName,
  adminRequest,
} from './admin-routes';
import { IDEMPOTENCY_HEADER } from './public-routes';
import { readJson } from './read-json';

// The admin API's client half, one for the /admin page and the CLI: the request with the
// merchant's ID token, and what its answer came to. Each client words the outcome its own way (the
// page's outcomes, the CLI's errors), so only the reading is shared.

/** Where a request goes, with whose token; `fetch` defaults to the global one, looked up per call. */
export interface AdminLine {
  origin: string;
  token: string;
  fetch?: typeof fetch | undefined;
}

/** Answers that refuse the caller, not the request: every other call would be refused the same way. */
export type AdminStop = { kind: 'signedOut' } | { kind: 'notThroughSite' } | { kind: 'notMerchant' };

/** A request sent: its response, or the stop a 401 or 403 means. Network failures throw. */
export async function sendAdmin(
  line: AdminLine,
  path: string,
  init: RequestInit & { headers?: Record<string, string> },
): Promise<AdminStop | { kind: 'response'; response: Response }> {
  const response = await (line.fetch ?? fetch)(`${line.origin}${path}`, {
    ...init,
    headers: { Accept: 'application/json', ...init.headers, Authorization: `Bearer ${line.token}` },
  });
  if (response.status === 401) return { kind: 'signedOut' };
  if (response.status === 403) {
    const refusal = z.safeParse(adminErrorSchema, await readJson(response));
    // The account is fine when the request reached the API by another way than the shop's address.
    const notThroughSite =
      refusal.success && refusal.data.code === ADMIN_FORBIDDEN_CODES.notThroughCloudFront;
    return { kind: notThroughSite ? 'notThroughSite' : 'notMerchant' };
  }
  return { kind: 'response', response };
}

/**
 * Any status but 2xx, 401 and 403: the API's error (when it sent one), and the route's reading of
 * the body when it reads as the answer (a dispatch where every order was refused answers 409).
 */
export type AdminErrorReply = {
  kind: 'error';
  status: number;
  error: AdminErrorResponse | undefined;
  answer: unknown;
};

/** What a JSON route's call came to: its answer as the route's schema reads it, or a 2xx it cannot. */
export type AdminReply =
  | AdminStop
  | { kind: 'value'; value: unknown }
  | { kind: 'unreadable' }
  | AdminErrorReply;

/** A call that may change something: left without its answer, it may have been done. */
export const isAdminAction = (name: AdminRouteName) => ADMIN_API_ROUTES[name].method === 'POST';

async function errorReply(name: AdminRouteName, response: Response): Promise<AdminErrorReply> {
  const body = await readJson(response);
  const error = z.safeParse(adminErrorSchema, body);
  const answer = z.safeParse((ADMIN_API_ROUTES[name] as AdminRoute).response ?? z.never(), body);
  return {
    kind: 'error',
    status: response.status,
    error: error.success ? error.data : undefined,
    answer: answer.success ? answer.data : undefined,
  };
}

/** How a call is made beyond its input. */
export interface AdminCallOptions {
  /**
   * The intention's key (`Idempotency-Key`) on an action: the same key for a retry of the same
   * intention, so the API acts once and answers the repeat with what it did.
   */
  idempotencyKey?: string | undefined;
}

/** One JSON route called. Network failures throw: the caller says whether a change may have been made. */
export async function callAdmin(
  line: AdminLine,
  name: AdminJsonRouteName,
  input: unknown,
  options: AdminCallOptions = {},
): Promise<AdminReply> {
  const route: AdminRoute = ADMIN_API_ROUTES[name];
  const request = adminRequest(name, input);
  const key = route.method === 'POST' ? options.idempotencyKey : undefined;
  const sent = await sendAdmin(
    line,
    request.path,
    key === undefined
      ? request.init
      : { ...request.init, headers: { ...request.init.headers, [IDEMPOTENCY_HEADER]: key } },
  );
  if (sent.kind !== 'response') return sent;
  if (!sent.response.ok) return errorReply(name, sent.response);
  const parsed = z.safeParse(route.response ?? z.never(), await readJson(sent.response));
  return parsed.success ? { kind: 'value', value: parsed.data } : { kind: 'unreadable' };
}

/** A dispatch day's file (the Click & Drop CSV, the packing slips): its response when 2xx. */
export async function fetchAdminFile(
  line: AdminLine,
  kind: 'dispatchCsv' | 'packingSlips',
  date: string | undefined,
): Promise<AdminStop | AdminErrorReply | { kind: 'response'; response: Response }> {
  const { path } = adminRequest(kind, { date });
  const accept = kind === 'dispatchCsv' ? 'text/csv' : 'text/html';
  const sent = await sendAdmin(line, path, { method: 'GET', headers: { Accept: accept } });
  return sent.kind === 'response' && !sent.response.ok ? errorReply(kind, sent.response) : sent;
}

/**
 * Each JSON route as a method of its name, answering `Failure` (the page's outcomes) or throwing
 * (the CLI); after its input (none for a route without one), the call's options.
 */
export function adminCalls<Failure = never>(
  call: (name: AdminJsonRouteName, input: unknown, options: AdminCallOptions | undefined) => unknown,
) {
  const names = Object.keys(ADMIN_API_ROUTES).filter(
    (name) => 'response' in ADMIN_API_ROUTES[name as AdminRouteName],
  );
  const method = (name: string) => {
    const takesInput = 'request' in ADMIN_API_ROUTES[name as AdminRouteName];
    return (...args: unknown[]) => {
      const [input, options] = takesInput ? args : [undefined, args[0]];
      return call(name as AdminJsonRouteName, input, options as AdminCallOptions | undefined);
    };
  };
  return Object.fromEntries(names.map((name) => [name, method(name)])) as {
    [K in AdminJsonRouteName]: (
      ...args: [...AdminArgs<K>, options?: AdminCallOptions]
    ) => Promise<[Failure] extends [never] ? AdminAnswer<K> : { ok: true; value: AdminAnswer<K> } | Failure>;
  };
}
