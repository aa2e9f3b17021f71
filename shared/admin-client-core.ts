import * as z from 'zod/mini';
import { ADMIN_FORBIDDEN_CODES, type AdminErrorResponse, adminErrorSchema } from './admin-responses';
import {
  ADMIN_API_ROUTES,
  type AdminJsonRouteName,
  type AdminRoute,
  adminRequest,
  readJson,
} from './admin-routes';

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
 * What a JSON route's call came to: its answer as the route's schema reads it, a 2xx it cannot
 * read, or any other status with the API's error (when it sent one) and the body as sent.
 */
export type AdminReply =
  | AdminStop
  | { kind: 'value'; value: unknown }
  | { kind: 'unreadable' }
  | { kind: 'error'; status: number; error: AdminErrorResponse | undefined; body: unknown };

/** One JSON route called. Network failures throw: the caller says whether a change may have been made. */
export async function callAdmin(
  line: AdminLine,
  name: AdminJsonRouteName,
  input: unknown,
): Promise<AdminReply> {
  const route: AdminRoute = ADMIN_API_ROUTES[name];
  const request = adminRequest(name, input);
  const sent = await sendAdmin(line, request.path, request.init);
  if (sent.kind !== 'response') return sent;
  const body = await readJson(sent.response);
  if (sent.response.ok) {
    const parsed = z.safeParse(route.response ?? z.never(), body);
    return parsed.success ? { kind: 'value', value: parsed.data } : { kind: 'unreadable' };
  }
  const error = z.safeParse(adminErrorSchema, body);
  return { kind: 'error', status: sent.response.status, error: error.success ? error.data : undefined, body };
}
