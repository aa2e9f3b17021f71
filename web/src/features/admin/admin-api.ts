import {
  type AdminCallOptions,
  type AdminReply,
  type AdminStop,
  adminCalls,
  callAdmin,
  fetchAdminFile,
  isAdminAction,
} from '../../../../shared/admin-client-core';
import type { AdminJsonRouteName } from '../../../../shared/admin-routes';
import { type AdminSession, SESSION_ENDED } from './admin-session';

/**
 * What an admin call came to. A 401 ends the session (the page shows the sign-in); a 403 calls
 * `onForbidden`, which shows why and the sign-out.
 */
export type AdminOutcome<T> =
  | { ok: true; value: T }
  | { ok: false; kind: 'invalid'; message: string; fields: Record<string, string> }
  // `answer`: the route's own answer when a refusal carries one (a dispatch where every order was refused).
  | { ok: false; kind: 'refused'; message: string; answer?: unknown }
  | { ok: false; kind: 'forbidden'; message: string }
  | { ok: false; kind: 'failed'; message: string };

export type AdminFailure = Exclude<AdminOutcome<unknown>, { ok: true }>;

/** A read that failed changed nothing: trying again is all there is to do. */
const FAILED = 'The admin service could not be reached. Nothing was changed; please try again.';
/** An unanswered action may have been done (a refund, an email); all are exactly-once, so retry is safe. */
export const UNANSWERED =
  'The answer did not arrive, so the change may or may not have been made. Open the order or the week again to see; pressing again is safe, as nothing is done twice.';
/** Offline (ADR 0055): the browser says so, or the page shows the service worker's copies. */
export const NEEDS_NETWORK =
  'You are offline: this needs the network. Try again once you are online; pressing again is safe, as nothing is done twice.';
/** The service worker's header on an answer it served from its copy: when that copy was saved. */
const OFFLINE_COPY_HEADER = 'x-admin-offline-copy';

function browserOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/**
 * A fetch that notes whether its last answer was the service worker's copy, and when that was saved.
 * Past the browser's HTTP cache (the API answers no-store anyway): Chromium holds a GET while the same
 * URL is in flight, so a view's read (`status`) waited for the one a view just left was still making.
 */
function offlineCopies() {
  let savedAt: string | undefined;
  return {
    fetch: async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const response = await fetch(input, { ...init, cache: 'no-store' });
      savedAt = response.headers.get(OFFLINE_COPY_HEADER) ?? undefined;
      return response;
    },
    savedAt: (): string | undefined => savedAt,
  };
}

type AdminCall = (
  name: AdminJsonRouteName,
  input: unknown,
  options: AdminCallOptions | undefined,
) => Promise<AdminOutcome<unknown>>;

/**
 * A read asked while the same read is in flight shares its answer: a view opened before the one it
 * replaced had its answer (the week's `status`, then the Shop view's) does not read the whole week
 * again beside it. An action ends the sharing, so no read begun before it answers one asked after it.
 */
export function sharedReads(call: AdminCall): AdminCall {
  const inFlight = new Map<string, Promise<AdminOutcome<unknown>>>();
  return (name, input, options) => {
    if (isAdminAction(name)) {
      inFlight.clear();
      return call(name, input, options);
    }
    const key = `${name} ${JSON.stringify(input ?? null)}`;
    const running = inFlight.get(key);
    if (running !== undefined) return running;
    const answer = call(name, input, options).finally(() => {
      if (inFlight.get(key) === answer) inFlight.delete(key);
    });
    inFlight.set(key, answer);
    return answer;
  };
}

/** A 403 for a request that did not come through CloudFront: a set-up fault, not the account's. */
export const NOT_THROUGH_SITE =
  "The admin service refused this request because it did not come through the shop's own address. Open the admin from the shop's address; if this keeps happening, the shop's set-up needs checking (npm run doctor).";

/** A signed-in non-merchant (403) is told who can let it in, with the operator's command. */
export function notMerchantMessage(email: string | undefined): string {
  const account = email === undefined ? 'This account' : `This account (${email})`;
  return `${account} may not use the shop's admin: ask the shop's operator to add it with npm run orders -- merchant add ${email ?? '<email>'}, or sign out and sign in as a merchant.`;
}

/** The admin API as the page calls it: the ID token on every request, answers checked by their schema. */
export function createAdminApi(
  origin: string,
  session: AdminSession,
  onForbidden: (message: string) => void,
) {
  const copies = offlineCopies();

  /** The failure a 401 or 403 means, after ending the session (401) or telling the page (403). */
  function stopped(stop: AdminStop): AdminFailure {
    if (stop.kind === 'signedOut') {
      session.end(SESSION_ENDED);
      return { ok: false, kind: 'failed', message: SESSION_ENDED };
    }
    if (stop.kind === 'notThroughSite') return { ok: false, kind: 'failed', message: NOT_THROUGH_SITE };
    // The token is good but the account is not a merchant: every other call would be refused too.
    const message = notMerchantMessage(session.email);
    session.forget();
    onForbidden(message);
    return { ok: false, kind: 'forbidden', message };
  }

  async function call(
    name: AdminJsonRouteName,
    input: unknown,
    options: AdminCallOptions | undefined,
  ): Promise<AdminOutcome<unknown>> {
    // A read that failed changed nothing. An action left without its answer (no response, a 5xx,
    // an answer that does not parse) may have been done; a 4xx says it was not.
    const action = isAdminAction(name);
    if (action && browserOffline()) return { ok: false, kind: 'failed', message: NEEDS_NETWORK };
    const unanswered: AdminFailure = { ok: false, kind: 'failed', message: action ? UNANSWERED : FAILED };
    let reply: AdminReply;
    try {
      const token = await session.idToken();
      if (token === undefined) return { ok: false, kind: 'failed', message: SESSION_ENDED };
      reply = await callAdmin({ origin, token, fetch: copies.fetch }, name, input, options);
    } catch {
      // No answer at all while the last read came from the worker's copy: the network is gone.
      const offline = browserOffline() || copies.savedAt() !== undefined;
      return action && offline ? { ok: false, kind: 'failed', message: NEEDS_NETWORK } : unanswered;
    }
    if (reply.kind === 'value') return { ok: true, value: reply.value };
    if (reply.kind === 'unreadable') return unanswered;
    if (reply.kind !== 'error') return stopped(reply);
    const { status, error } = reply;
    const message = error?.error ?? FAILED;
    if (status === 400) return { ok: false, kind: 'invalid', message, fields: error?.fields ?? {} };
    if (status === 409 || status === 404) {
      return reply.answer === undefined
        ? { ok: false, kind: 'refused', message }
        : { ok: false, kind: 'refused', message, answer: reply.answer };
    }
    return status >= 500 ? unanswered : { ok: false, kind: 'failed', message: FAILED };
  }

  return {
    ...adminCalls<AdminFailure>(sharedReads(call)),
    /** When the last answer was the service worker's offline copy, the ISO time it was saved. */
    offlineCopy: copies.savedAt,
    /** A day's file fetched with the token, which a plain link cannot carry; undefined when it failed. */
    async file(kind: 'dispatchCsv' | 'packingSlips', date: string): Promise<Blob | undefined> {
      try {
        const token = await session.idToken();
        if (token === undefined) return undefined;
        const sent = await fetchAdminFile({ origin, token }, kind, date);
        if (sent.kind === 'response') return await sent.response.blob();
        if (sent.kind !== 'error') stopped(sent);
        return undefined;
      } catch {
        return undefined;
      }
    },
  };
}

export type AdminApi = ReturnType<typeof createAdminApi>;
