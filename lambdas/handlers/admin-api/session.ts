import * as z from 'zod/mini';
import { SIGN_IN_ENDPOINTS } from '../../../shared/admin-config';
import {
  ADMIN_REFRESH_COOKIE,
  ADMIN_REFRESH_TOKEN_DAYS,
  ADMIN_SESSION_PATH,
  ADMIN_SESSION_ROUTES,
  type AdminSessionTokens,
  adminSessionSignOutSchema,
  adminSessionStartSchema,
} from '../../../shared/admin-session-routes';
import { adminSessionEnvSchema, type Env, parseEnv } from '../../lib/config';
import { HttpError, type HttpEvent, type HttpResult, header, json, readJsonBody } from '../../lib/http';
import { logger } from '../../lib/logger';

/**
 * The admin's session routes (ADR 0055): the refresh token lives in an HttpOnly cookie scoped to
 * them, and only here is it traded for short-lived tokens, so no script on the page ever holds it.
 */
export interface SessionDeps {
  /** Managed login's base URL (the token and revocation endpoints). */
  signInUrl: string;
  clientId: string;
  /** The shop's origin: a request from any other is refused (cross-site requests). */
  siteOrigin: string;
  fetch: typeof fetch;
  /** Cognito's AdminUserGlobalSignOut: every refresh token of the user, on every device. */
  globalSignOut: (username: string) => Promise<void>;
}

const REFRESH_MAX_AGE_SECONDS = ADMIN_REFRESH_TOKEN_DAYS * 24 * 60 * 60;
const PROVIDER_TIMEOUT_MS = 5_000;
const MAX_BODY_BYTES = 8 * 1024;

export const SESSION_ERRORS = {
  crossSite: "Refused: the request did not come from the shop's own pages.",
  signedOut: 'Not signed in.',
  signInFailed: 'Sign-in could not be completed. Please sign in again.',
  notFound: 'No such session route.',
} as const;

/** The cookie as set: only these routes receive it, only over HTTPS, never cross-site. */
export function refreshCookie(value: string, maxAgeSeconds = REFRESH_MAX_AGE_SECONDS): string {
  return `${ADMIN_REFRESH_COOKIE}=${value}; Path=${ADMIN_SESSION_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; Secure; SameSite=Strict`;
}
const CLEARED_COOKIE = refreshCookie('', 0);

/** The cookie's refresh token: payload 2.0 lists cookies apart; the local adapter may keep the header. */
function refreshTokenOf(event: HttpEvent): string | undefined {
  const pairs = event.cookies ?? (header(event, 'cookie') ?? '').split(';');
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === ADMIN_REFRESH_COOKIE)
      return pair.slice(at + 1).trim() || undefined;
  }
  return undefined;
}

const tokenAnswerSchema = z.object({
  id_token: z.string().check(z.minLength(1)),
  access_token: z.string().check(z.minLength(1)),
  refresh_token: z.optional(z.string()),
  expires_in: z.number().check(z.positive()),
});
type TokenAnswer = z.output<typeof tokenAnswerSchema>;

/** A form POST to one of the provider's endpoints, given PROVIDER_TIMEOUT_MS. */
function postForm(deps: SessionDeps, endpoint: string, form: Record<string, string>): Promise<Response> {
  return deps.fetch(`${deps.signInUrl}${endpoint}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ client_id: deps.clientId, ...form }).toString(),
    signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
  });
}

/** The provider's token endpoint; undefined when it refuses (a revoked, expired or unknown grant). */
async function tokenCall(deps: SessionDeps, form: Record<string, string>): Promise<TokenAnswer | undefined> {
  const response = await postForm(deps, SIGN_IN_ENDPOINTS.token, form);
  if (response.status >= 500) throw new Error(`The token endpoint answered ${response.status}`);
  if (!response.ok) return undefined;
  return z.parse(tokenAnswerSchema, await response.json());
}

const tokensOf = (answer: TokenAnswer): AdminSessionTokens => ({
  idToken: answer.id_token,
  accessToken: answer.access_token,
  expiresIn: answer.expires_in,
});

/** `cognito:username` of an ID token the provider has just issued to us (read, not verified: it came over TLS from it). */
function usernameOf(idToken: string): string | undefined {
  try {
    const claims = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8'));
    const username = z.safeParse(z.object({ 'cognito:username': z.string() }), claims);
    return username.success ? username.data['cognito:username'] : undefined;
  } catch {
    return undefined;
  }
}

async function start(deps: SessionDeps, event: HttpEvent): Promise<HttpResult> {
  const body = z.safeParse(adminSessionStartSchema, readJsonBody(event, MAX_BODY_BYTES));
  if (!body.success || new URL(body.data.redirectUri).origin !== deps.siteOrigin)
    throw new HttpError(400, { error: SESSION_ERRORS.signInFailed });
  const answer = await tokenCall(deps, {
    grant_type: 'authorization_code',
    code: body.data.code,
    redirect_uri: body.data.redirectUri,
    code_verifier: body.data.codeVerifier,
  });
  if (answer === undefined) throw new HttpError(400, { error: SESSION_ERRORS.signInFailed });
  // No refresh token (the app client allows none): the page signs in again when the tokens lapse.
  const cookies =
    answer.refresh_token === undefined ? [CLEARED_COOKIE] : [refreshCookie(answer.refresh_token)];
  return { ...json(200, tokensOf(answer)), cookies };
}

async function refresh(deps: SessionDeps, event: HttpEvent): Promise<HttpResult> {
  const refreshToken = refreshTokenOf(event);
  // No cookie is every first visit, not a failure: 204, so the browser logs no error for it.
  if (refreshToken === undefined) return { statusCode: 204, headers: { 'cache-control': 'no-store' } };
  const answer = await tokenCall(deps, { grant_type: 'refresh_token', refresh_token: refreshToken });
  if (answer === undefined)
    return { ...json(401, { error: SESSION_ERRORS.signedOut }), cookies: [CLEARED_COOKIE] };
  return json(200, tokensOf(answer));
}

/**
 * Sign-out: the cookie's refresh token revoked at the provider (RFC 7009), or with `everywhere` every token
 * of the user; the cookie is cleared either way.
 */
async function signOut(deps: SessionDeps, event: HttpEvent): Promise<HttpResult> {
  const body = z.safeParse(adminSessionSignOutSchema, readJsonBody(event, MAX_BODY_BYTES));
  const everywhere = body.success && body.data.everywhere === true;
  const refreshToken = refreshTokenOf(event);
  if (refreshToken === undefined)
    return { ...json(everywhere ? 401 : 200, { revoked: !everywhere }), cookies: [CLEARED_COOKIE] };
  let revoked: boolean;
  if (everywhere) {
    const answer = await tokenCall(deps, { grant_type: 'refresh_token', refresh_token: refreshToken });
    const username = answer === undefined ? undefined : usernameOf(answer.id_token);
    if (username === undefined) return { ...json(401, { revoked: false }), cookies: [CLEARED_COOKIE] };
    await deps.globalSignOut(username);
    revoked = true;
  } else {
    revoked = (await postForm(deps, SIGN_IN_ENDPOINTS.revoke, { token: refreshToken })).ok;
  }
  return { ...json(200, { revoked }), cookies: [CLEARED_COOKIE] };
}

const ACTIONS = { start, refresh, signOut } as const;
const BY_PATH = new Map<string, keyof typeof ACTIONS>(
  Object.entries(ADMIN_SESSION_ROUTES).map(([name, route]) => [route.path, name as keyof typeof ACTIONS]),
);

/** Every session route: POST only, from the shop's origin only. */
export function createSessionHandler(
  loadDeps: () => Promise<SessionDeps>,
): (event: HttpEvent) => Promise<HttpResult> {
  return async (event) => {
    const name = BY_PATH.get(event.rawPath);
    if (name === undefined) throw new HttpError(404, { error: SESSION_ERRORS.notFound });
    if (event.requestContext.http.method !== 'POST')
      throw new HttpError(405, { error: 'Use POST.' }, { headers: { allow: 'POST' } });
    const deps = await loadDeps();
    // The browser's Origin, which a page cannot forge, must be the shop's: with SameSite=Strict this
    // refuses any cross-site request.
    if (header(event, 'origin') !== deps.siteOrigin) {
      logger.warn('Session route refused a cross-site request', {
        route: name,
        origin: header(event, 'origin'),
      });
      throw new HttpError(403, { error: SESSION_ERRORS.crossSite });
    }
    return ACTIONS[name](deps, event);
  };
}

/** The deployed dependencies, from the function's environment. */
export function sessionDepsFromEnv(env: Env): SessionDeps {
  const parsed = parseEnv(adminSessionEnvSchema, env);
  return {
    signInUrl: parsed.ADMIN_SIGN_IN_URL.replace(/\/$/, ''),
    clientId: parsed.ADMIN_CLIENT_ID,
    siteOrigin: new URL(parsed.SITE_URL).origin,
    fetch: (input, init) => fetch(input, init),
    // Loaded only when a merchant signs out everywhere: no other route pays for the SDK client.
    globalSignOut: async (username) => {
      const { AdminUserGlobalSignOutCommand, CognitoIdentityProviderClient } = await import(
        '@aws-sdk/client-cognito-identity-provider'
      );
      const cognito = new CognitoIdentityProviderClient({
        region: parsed.AWS_REGION,
        ...(parsed.COGNITO_ENDPOINT !== undefined && { endpoint: parsed.COGNITO_ENDPOINT }),
      });
      await cognito.send(
        new AdminUserGlobalSignOutCommand({ UserPoolId: parsed.ADMIN_USER_POOL_ID, Username: username }),
      );
    },
  };
}
