// The merchant's sign-in: authorization code with PKCE against Cognito's managed login, as a public
// client. The code is traded at the session route, which keeps the refresh token in an HttpOnly
// cookie (ADR 0055); what must survive the redirect waits in sessionStorage for that one round trip.
import * as z from 'zod/mini';
import {
  ADMIN_CONFIG_PATH,
  ADMIN_PAGE_PATH,
  type AdminConfig,
  adminConfigSchema,
  SIGN_IN_ENDPOINTS,
} from '../../../../shared/admin-config';
import { type AdminTokens, authorizeUrl, randomString } from '../../../../shared/admin-sign-in';
import { startSession } from './admin-session';

export type { AdminTokens } from '../../../../shared/admin-sign-in';

/** The sessionStorage key of the sign-in in progress (one at a time). */
export const PENDING_SIGN_IN_KEY = 'admin-sign-in';

const pendingSchema = z.object({
  state: z.string(),
  verifier: z.string(),
  returnTo: z.string(),
});

/** Reads `/admin-config.json`: where to sign in and the page's client id. Undefined when it cannot. */
export async function loadAdminConfig(origin: string): Promise<AdminConfig | undefined> {
  try {
    const response = await fetch(`${origin}${ADMIN_CONFIG_PATH}`, {
      headers: { Accept: 'application/json' },
    });
    if (!response.ok) return undefined;
    const parsed = z.safeParse(adminConfigSchema, await response.json());
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

const redirectUri = (origin: string) => `${origin}${ADMIN_PAGE_PATH}`;

/** The provider's sign-in address for a new attempt; its verifier and state wait in sessionStorage. */
export async function startSignIn(config: AdminConfig, origin: string, returnTo: string): Promise<string> {
  const verifier = randomString();
  const state = randomString();
  sessionStorage.setItem(PENDING_SIGN_IN_KEY, JSON.stringify({ state, verifier, returnTo }));
  return authorizeUrl(config, { redirectUri: redirectUri(origin), state, verifier });
}

export type SignInCallback =
  | { kind: 'signed-in'; tokens: AdminTokens; returnTo: string }
  | { kind: 'failed'; message: string };

/**
 * Finishes a sign-in: the state must be the one this tab sent, then the code is exchanged with its
 * verifier. The attempt is forgotten either way, so a code is never tried twice.
 */
export async function finishSignIn(origin: string, params: URLSearchParams): Promise<SignInCallback> {
  const stored = sessionStorage.getItem(PENDING_SIGN_IN_KEY);
  sessionStorage.removeItem(PENDING_SIGN_IN_KEY);
  const error = params.get('error');
  if (error !== null) {
    return {
      kind: 'failed',
      message: `Sign-in did not complete (${params.get('error_description') ?? error}).`,
    };
  }
  const pending = z.safeParse(pendingSchema, parseJson(stored));
  const code = params.get('code');
  if (!pending.success || code === null || params.get('state') !== pending.data.state) {
    return { kind: 'failed', message: 'That sign-in link has expired. Please sign in again.' };
  }
  try {
    const tokens = await startSession(origin, {
      code,
      redirectUri: redirectUri(origin),
      codeVerifier: pending.data.verifier,
    });
    return { kind: 'signed-in', tokens, returnTo: pending.data.returnTo };
  } catch {
    return { kind: 'failed', message: 'Sign-in could not be completed. Please try again.' };
  }
}

function parseJson(text: string | null): unknown {
  try {
    return text === null ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Where sign-out sends the browser: the provider ends its own session and sends the merchant back here. */
export function signOutUrl(config: AdminConfig, origin: string): string {
  const query = new URLSearchParams({ client_id: config.clientId, logout_uri: redirectUri(origin) });
  return `${config.signInUrl}${SIGN_IN_ENDPOINTS.logout}?${query}`;
}
