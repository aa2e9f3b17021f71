import * as z from 'zod/mini';
import { ADMIN_API_PATHS } from '../../../../shared/admin-api-paths';
import type {
  AdminCapacitySet,
  AdminDelayRequest,
  AdminDispatchRequest,
  AdminListQuery,
  AdminPauseRequest,
  AdminRefundRequest,
} from '../../../../shared/admin-requests';
import {
  capacitySchema,
  capacitySetSchema,
  declineSchema,
  delaySchema,
  dispatchSchema,
  errorSchema,
  listSchema,
  pauseSchema,
  recordSchema,
  refundSchema,
  requestPaymentSchema,
  resumeSchema,
  statusSchema,
} from './admin-schemas';
import type { AdminSession } from './admin-session';

/**
 * What an admin call came to: the answer, a 400 with a message per field, a refusal in the API's
 * own words (409, 404), or a failure (network, 5xx). A 401 ends the session, and the page shows
 * the sign-in.
 */
export type AdminOutcome<T> =
  | { ok: true; value: T }
  | { ok: false; kind: 'invalid'; message: string; fields: Record<string, string> }
  | { ok: false; kind: 'refused'; message: string }
  | { ok: false; kind: 'failed'; message: string };

export type AdminFailure = Exclude<AdminOutcome<unknown>, { ok: true }>;

const FAILED = 'The admin service could not be reached. Nothing was changed; please try again.';
const SIGNED_OUT = 'Your session has ended. Please sign in again.';

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

/** The admin API as the page calls it: the ID token on every request, answers checked by their schema. */
export function createAdminApi(origin: string, session: AdminSession) {
  async function send(path: string, init: RequestInit & { headers?: Record<string, string> }) {
    const token = await session.idToken();
    if (token === undefined) return undefined;
    const response = await fetch(`${origin}${path}`, {
      ...init,
      headers: { Accept: 'application/json', ...init.headers, Authorization: `Bearer ${token}` },
    });
    if (response.status === 401) {
      session.end(SIGNED_OUT);
      return undefined;
    }
    return response;
  }

  async function call<T>(schema: z.ZodMiniType<T>, path: string, body?: unknown): Promise<AdminOutcome<T>> {
    try {
      const response = await send(
        path,
        body === undefined
          ? { method: 'GET' }
          : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
      );
      if (response === undefined) return { ok: false, kind: 'failed', message: SIGNED_OUT };
      const json = await readJson(response);
      if (response.ok) {
        const parsed = z.safeParse(schema, json);
        return parsed.success
          ? { ok: true, value: parsed.data }
          : { ok: false, kind: 'failed', message: FAILED };
      }
      const error = z.safeParse(errorSchema, json);
      const message = error.success ? error.data.error : FAILED;
      if (response.status === 400) {
        return { ok: false, kind: 'invalid', message, fields: (error.success && error.data.fields) || {} };
      }
      if (response.status === 409 || response.status === 404) return { ok: false, kind: 'refused', message };
      return { ok: false, kind: 'failed', message: FAILED };
    } catch {
      return { ok: false, kind: 'failed', message: FAILED };
    }
  }

  const withQuery = (path: string, query: Record<string, string | undefined>) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
    const text = params.toString();
    return text ? `${path}?${text}` : path;
  };

  return {
    status: () => call(statusSchema, ADMIN_API_PATHS.status),
    list: (query: AdminListQuery) => call(listSchema, withQuery(ADMIN_API_PATHS.orders, { ...query })),
    record: (reference: string) => call(recordSchema, withQuery(ADMIN_API_PATHS.order, { reference })),
    capacity: () => call(capacitySchema, ADMIN_API_PATHS.capacity),
    setCapacity: (body: AdminCapacitySet) => call(capacitySetSchema, ADMIN_API_PATHS.capacity, body),
    dispatch: (body: AdminDispatchRequest) => call(dispatchSchema, ADMIN_API_PATHS.dispatch, body),
    delay: (body: AdminDelayRequest) => call(delaySchema, ADMIN_API_PATHS.delay, body),
    refund: (body: AdminRefundRequest) => call(refundSchema, ADMIN_API_PATHS.refund, body),
    pause: (body: AdminPauseRequest) => call(pauseSchema, ADMIN_API_PATHS.pause, body),
    resume: () => call(resumeSchema, ADMIN_API_PATHS.resume, {}),
    requestPayment: (reference: string) =>
      call(requestPaymentSchema, ADMIN_API_PATHS.requestPayment, { reference }),
    decline: (reference: string) => call(declineSchema, ADMIN_API_PATHS.declineRequest, { reference }),
    /**
     * A file of the day (the Click & Drop CSV, the packing slips) fetched with the token, since a
     * plain link cannot carry it; undefined when it could not be fetched.
     */
    async file(kind: 'dispatchCsv' | 'packingSlips', date: string): Promise<Blob | undefined> {
      try {
        const response = await send(withQuery(ADMIN_API_PATHS[kind], { date }), {
          method: 'GET',
          headers: { Accept: kind === 'dispatchCsv' ? 'text/csv' : 'text/html' },
        });
        return response?.ok ? await response.blob() : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

export type AdminApi = ReturnType<typeof createAdminApi>;
