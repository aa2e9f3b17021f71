// The merchant's sign-in as a public OAuth 2.0 client (code flow with PKCE), for the /admin page and
// the CLI, each keeping the tokens its own way. Web Crypto and fetch only: browser and Node alike.
import * as z from 'zod/mini';
import { ADMIN_SCOPES, type AdminConfig, SIGN_IN_ENDPOINTS } from './admin-config';

/** The tokens of a signed-in merchant; `expiresAt` is epoch milliseconds. */
export interface AdminTokens {
  idToken: string;
  accessToken: string;
  /** Absent when the identity provider gave none: the merchant signs in again at expiry. */
  refreshToken: string | undefined;
  expiresAt: number;
  /** The signed-in merchant's email, read from the ID token to show. */
  email: string | undefined;
}

export const adminTokensSchema = z.object({
  idToken: z.string(),
  accessToken: z.string(),
  refreshToken: z.optional(z.string()),
  expiresAt: z.number(),
  email: z.optional(z.string()),
});

const tokenResponseSchema = z.object({
  id_token: z.string().check(z.minLength(1)),
  access_token: z.string().check(z.minLength(1)),
  refresh_token: z.optional(z.string()),
  expires_in: z.number().check(z.positive()),
});

const idTokenClaimsSchema = z.object({ email: z.optional(z.string()) });

/** Tokens are renewed this long before they expire, so no request carries one about to lapse. */
export const TOKEN_REFRESH_MARGIN_MS = 60_000;

function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** 32 random bytes, base64url: a PKCE verifier or a state. */
export function randomString(): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/** PKCE's S256 challenge of a verifier (RFC 7636). */
export async function pkceChallenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64Url(new Uint8Array(digest));
}

/** The identity provider's sign-in address for one attempt. */
export async function authorizeUrl(
  config: AdminConfig,
  attempt: { redirectUri: string; state: string; verifier: string },
): Promise<string> {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: config.clientId,
    redirect_uri: attempt.redirectUri,
    scope: ADMIN_SCOPES,
    state: attempt.state,
    code_challenge: await pkceChallenge(attempt.verifier),
    code_challenge_method: 'S256',
  });
  return `${config.signInUrl}${SIGN_IN_ENDPOINTS.authorize}?${query}`;
}

/** The `email` claim of an ID token, for display only: the API verifies the token itself. */
export function emailOf(idToken: string): string | undefined {
  try {
    const payload = idToken.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const parsed = z.safeParse(idTokenClaimsSchema, JSON.parse(json));
    return parsed.success ? parsed.data.email : undefined;
  } catch {
    return undefined;
  }
}

async function requestTokens(
  config: AdminConfig,
  form: Record<string, string>,
  now: () => number,
): Promise<AdminTokens> {
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
    expiresAt: now() + tokens.expires_in * 1000,
    email: emailOf(tokens.id_token),
  };
}

/** The code the provider sent back, exchanged with its verifier at the token endpoint. */
export function exchangeCode(
  config: AdminConfig,
  grant: { code: string; redirectUri: string; verifier: string },
  now: () => number = Date.now,
): Promise<AdminTokens> {
  return requestTokens(
    config,
    {
      grant_type: 'authorization_code',
      code: grant.code,
      redirect_uri: grant.redirectUri,
      code_verifier: grant.verifier,
    },
    now,
  );
}

/** New ID and access tokens for a refresh token; throws when the provider refuses it (signed out). */
export function refreshTokens(
  config: AdminConfig,
  refreshToken: string,
  now: () => number = Date.now,
): Promise<AdminTokens> {
  return requestTokens(config, { grant_type: 'refresh_token', refresh_token: refreshToken }, now);
}

/** How long sign-out waits for the provider to revoke the refresh token before leaving anyway. */
const REVOKE_TIMEOUT_MS = 5_000;

/** Revokes the refresh token (else a copy keeps the merchant signed in 12 hours); false when unconfirmed. */
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
