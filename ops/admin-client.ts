import * as z from 'zod/mini';
import { ADMIN_FORBIDDEN_CODES, adminErrorSchema } from '../shared/admin-responses';
import {
  ADMIN_API_ROUTES,
  type AdminAnswer,
  type AdminArgs,
  type AdminJsonRouteName,
  type AdminRoute,
  adminMethods,
  adminRequest,
  readJson,
} from '../shared/admin-routes';
import { RefusedError } from '../shared/refusal';

/**
 * The admin API as the CLI calls it: the same routes and shared schemas as the /admin page, the
 * signed-in merchant's ID token on every request. A refusal (409, 404, a 400's message) becomes a
 * RefusedError in the API's own words; a 401 a SignedOutError; anything else says whether the
 * change may have been made.
 */

/** The sign-in has ended (none kept, refused by the API, or its refresh refused): run login. */
export class SignedOutError extends Error {}

/** The admin API's schema refused a value the command was given (400): a typing mistake. */
export class InvalidInputError extends Error {}

/** The admin API could not be reached or did not answer usably; the message says what to do. */
export class AdminUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown; status?: number }) {
    super(message, options);
    this.status = options?.status;
  }
  /** The HTTP status it answered, when it answered. */
  readonly status: number | undefined;
}

export interface AdminTransport {
  /** The site's origin: the admin API is beneath it (through CloudFront on a stage). */
  origin: string;
  /** A current ID token (refreshed when it has expired). */
  idToken(): Promise<string>;
  /** The merchant's email, for a 403's message. */
  email: string | undefined;
  fetch: typeof fetch;
}

const UNANSWERED =
  'The admin API did not answer, so the change may or may not have been made: look with list or find, then run the command again (nothing is done twice).';

export function createAdminClient(transport: AdminTransport) {
  async function send(path: string, init: RequestInit & { headers?: Record<string, string> }) {
    const token = await transport.idToken();
    const response = await transport.fetch(`${transport.origin}${path}`, {
      ...init,
      headers: { Accept: 'application/json', ...init.headers, Authorization: `Bearer ${token}` },
    });
    if (response.status === 401) throw new SignedOutError('The admin API refused the sign-in.');
    if (response.status === 403) {
      const refusal = z.safeParse(adminErrorSchema, await readJson(response));
      if (refusal.success && refusal.data.code === ADMIN_FORBIDDEN_CODES.notThroughCloudFront)
        throw new AdminUnavailableError(
          "The admin API refused a request that did not come through the shop's address: check the site address (npm run doctor).",
        );
      throw new RefusedError(
        `${transport.email ?? 'This account'} is not a merchant of this shop: sign in as one (login), or ask the operator to run merchant add.`,
      );
    }
    return response;
  }

  async function call(name: AdminJsonRouteName, input: unknown): Promise<unknown> {
    const route: AdminRoute = ADMIN_API_ROUTES[name];
    const request = adminRequest(name, input);
    const action = route.method === 'POST';
    let response: Response;
    try {
      response = await send(request.path, request.init);
    } catch (error) {
      if (error instanceof SignedOutError || error instanceof RefusedError) throw error;
      if (error instanceof AdminUnavailableError) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new AdminUnavailableError(
        action
          ? `${UNANSWERED} (${reason})`
          : `The admin API at ${transport.origin} could not be reached (${reason}).`,
        { cause: error },
      );
    }
    const json = await readJson(response);
    const schema = route.response ?? z.never();
    if (response.ok) {
      const parsed = z.safeParse(schema, json);
      if (parsed.success) return parsed.data;
      throw new AdminUnavailableError(
        action ? UNANSWERED : 'The admin API answered something this CLI cannot read: update it.',
      );
    }
    const error = z.safeParse(adminErrorSchema, json);
    // A 409 with results (a dispatch where every order was refused) is read by its caller.
    if (response.status === 409 && name === 'dispatch') {
      const parsed = z.safeParse(schema, json);
      if (parsed.success) return parsed.data;
    }
    if (error.success && response.status === 400) throw new InvalidInputError(error.data.error);
    if (error.success && [404, 409].includes(response.status)) throw new RefusedError(error.data.error);
    throw new AdminUnavailableError(
      response.status >= 500 && action
        ? `${UNANSWERED} (HTTP ${response.status})`
        : `The admin API answered HTTP ${response.status}${error.success ? `: ${error.data.error}` : ''}.`,
      { status: response.status },
    );
  }

  /** A file of a dispatch day (CSV or slips), with the day it is for (from its name). */
  async function file(kind: 'dispatchCsv' | 'packingSlips', date: string | undefined): Promise<string> {
    const request = adminRequest(kind, { date });
    const response = await send(request.path, request.init);
    if (!response.ok) {
      const error = z.safeParse(adminErrorSchema, await readJson(response));
      if (error.success && response.status < 500) throw new RefusedError(error.data.error);
      throw new AdminUnavailableError(`The admin API answered HTTP ${response.status}.`);
    }
    return response.text();
  }

  const calls = adminMethods(call) as {
    [K in AdminJsonRouteName]: (...args: AdminArgs<K>) => Promise<AdminAnswer<K>>;
  };
  return { ...calls, file };
}

export type AdminClient = ReturnType<typeof createAdminClient>;
