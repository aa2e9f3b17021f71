// The merchant's sign-in: OAuth 2.0 authorization code with PKCE against Cognito's managed login
// (or the local identity provider speaking the same protocol), as a public client. Tokens are
// returned to the caller and kept in memory only; what must survive the redirect to the sign-in
// page and back (the verifier, the state, where to return) waits in sessionStorage, for that one
// round trip.
import * as z from 'zod/mini';
import {
  ADMIN_CONFIG_PATH,
  ADMIN_PAGE_PATH,
  ADMIN_SCOPES,
  type AdminConfig,
  adminConfigSchema,
  SIGN_IN_ENDPOINTS,
} from '../../../../shared/admin-config';

/** The tokens the page holds while the merchant is signed in; `expiresAt` is epoch milliseconds. */
export interface AdminTokens {
  idToken: string;
  accessToken: string;
  /** Absent when the identity provider gave none: the merchant signs in again at expiry. */
  refreshToken: string | undefined;
  expiresAt: number;
  /** The signed-in merchant's email, read from the ID token for the page to show. */
  email: string | undefined;
}

/** The sessionStorage key of the sign-in in progress (one at a time). */
export const PENDING_SIGN_IN_KEY = 'admin-sign-in';

const pendingSchema = z.object({
  state: z.string(),
  verifier: z.string(),
  returnTo: z.string(),
});

const tokenResponseSchema = z.object({
  id_token: z.string().check(z.minLength(1)),
  access_token: z.string().check(z.minLength(1)),
  refresh_token: z.optional(z.string()),
  expires_in: z.number().check(z.positive()),
});

const idTokenClaimsSchema = z.object({ email: z.optional(z.string()) });

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

function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function randomString(): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/** PKCE's S256 challenge of a verifier (RFC 7636). */
export async function pkceChallenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64Url(new Uint8Array(digest));
}

const redirectUri = (origin: string) => `${origin}${ADMIN_PAGE_PATH}`;

/**
 * The address of the identity provider's sign-in page for a new attempt. Its verifier and state
 * are kept in sessionStorage until the provider sends the merchant back; `returnTo` is the admin
 * address to show then.
 */
export async function startSignIn(config: AdminConfig, origin: string, returnTo: string): Promise<string> {
  const verifier = randomString();
  const state = randomString();
  sessionStorage.setItem(PENDING_SIGN_IN_KEY, JSON.stringify({ state, verifier, returnTo }));
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: config.clientId,
    redirect_uri: redirectUri(origin),
    scope: ADMIN_SCOPES,
    state,
    code_challenge: await pkceChallenge(verifier),
    code_challenge_method: 'S256',
  });
  return `${config.signInUrl}${SIGN_IN_ENDPOINTS.authorize}?${query}`;
}

export type SignInCallback =
  | { kind: 'signed-in'; tokens: AdminTokens; returnTo: string }
  | { kind: 'failed'; message: string };

async function requestTokens(config: AdminConfig, form: Record<string, string>): Promise<AdminTokens> {
  const response = await fetch(`${config.signInUrl}${SIGN_IN_ENDPOINTS.token}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: new URLSearchParams({ client_id: config.clientId, ...form }),
  });
  if (!response.ok) throw new Error(`The token endpoint answered ${response.status}`);
  const tokens = z.parse(tokenResponseSchema, await response.json());
  return {
    idToken: tokens.id_token,
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token ?? form.refresh_token,
    expiresAt: Date.now() + tokens.expires_in * 1000,
    email: emailOf(tokens.id_token),
  };
}

/** The `email` claim of an ID token, for display only: the API verifies the token itself. */
function emailOf(idToken: string): string | undefined {
  try {
    const payload = idToken.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const parsed = z.safeParse(idTokenClaimsSchema, JSON.parse(json));
    return parsed.success ? parsed.data.email : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Finishes a sign-in when the identity provider has sent the merchant back with `code` and
 * `state`: the state must be the one this tab sent, then the code is exchanged with its verifier.
 * The pending attempt is forgotten either way, so a code is never tried twice.
 */
export async function finishSignIn(
  config: AdminConfig,
  origin: string,
  params: URLSearchParams,
): Promise<SignInCallback> {
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
    const tokens = await requestTokens(config, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri(origin),
      code_verifier: pending.data.verifier,
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

/** New ID and access tokens for a refresh token; throws when the provider refuses it (signed out). */
export function refreshTokens(config: AdminConfig, refreshToken: string): Promise<AdminTokens> {
  return requestTokens(config, { grant_type: 'refresh_token', refresh_token: refreshToken });
}

/** How long sign-out waits for the provider to revoke the refresh token before leaving anyway. */
const REVOKE_TIMEOUT_MS = 5_000;

/**
 * Revokes the refresh token at the provider (Cognito's /oauth2/revoke), so it can mint no more
 * tokens: without it, a copy of the token would keep the admin signed in for its 12 hours after
 * sign-out. False when the provider did not confirm it (unreachable, or refused).
 */
export async function revokeRefreshToken(config: AdminConfig, refreshToken: string): Promise<boolean> {
  try {
    const response = await fetch(`${config.signInUrl}${SIGN_IN_ENDPOINTS.revoke}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: new URLSearchParams({ token: refreshToken, client_id: config.clientId }),
      signal: AbortSignal.timeout(REVOKE_TIMEOUT_MS),
    });
    return response.ok;
  } catch {
    return false;
  }
}

/** Where sign-out sends the browser: the provider ends its own session and sends the merchant back here. */
export function signOutUrl(config: AdminConfig, origin: string): string {
  const query = new URLSearchParams({ client_id: config.clientId, logout_uri: redirectUri(origin) });
  return `${config.signInUrl}${SIGN_IN_ENDPOINTS.logout}?${query}`;
}
