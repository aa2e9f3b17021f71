import { vi } from 'vitest';
import { jsonResponse } from './fake-browser';
import { renderAdmin } from './render-app';

// The admin page signed in over a fake network answering by "METHOD url-without-query", for the
// admin views' tests (standing orders first; the older admin tests keep their own copies).

export const ADMIN_API = 'https://api.shop.test/functions/v1/admin';

export type FakeRequest = { url: string; method: string; body: string };
export type FakeHandler = (request: FakeRequest) => Response | Promise<Response>;

const part = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, '');
const ID_TOKEN = `${part({ alg: 'RS256' })}.${part({ email: 'merchant@live-aquatics.test' })}.signature`;

/** The config, the session's start and the week's weather: what every signed-in admin page reads. */
export const ADMIN_BASE_ROUTES: Record<string, FakeHandler> = {
  'GET https://api.shop.test/admin-config.json': () =>
    jsonResponse({ signInUrl: 'https://auth.shop.test', clientId: 'admin-client' }),
  [`POST ${ADMIN_API}/session/start`]: () =>
    jsonResponse({ idToken: ID_TOKEN, accessToken: 'access-1', expiresIn: 1800 }),
  [`GET ${ADMIN_API}/weather`]: () =>
    jsonResponse({ day: '2026-12-07', state: 'not yet', summary: 'Not checked yet.' }),
};

/** Answers fetch from `routes` (the shop's status as open); records every call. */
export function stubAdminNetwork(routes: Record<string, FakeHandler>): FakeRequest[] {
  const calls: FakeRequest[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const method = init?.method ?? 'GET';
      calls.push({ url, method, body: String(init?.body ?? '') });
      const path = url.split('?')[0] ?? url;
      const handler =
        routes[`${method} ${path}`] ??
        (path.endsWith('/functions/v1/shop-status') ? () => jsonResponse({ mode: 'open' }) : undefined);
      if (!handler) throw new Error(`Unexpected fetch: ${method} ${url}`);
      return handler({ url, method, body: String(init?.body ?? '') });
    }),
  );
  return calls;
}

let codes = 0;
/** Back from the identity provider with a fresh code, to `returnTo`. */
export function signedInAdmin(returnTo: string) {
  codes += 1;
  sessionStorage.setItem(
    'admin-sign-in',
    JSON.stringify({ state: `helper-${codes}`, verifier: 'verifier-1', returnTo }),
  );
  return renderAdmin(`/admin?code=helper-code-${codes}&state=helper-${codes}`);
}
