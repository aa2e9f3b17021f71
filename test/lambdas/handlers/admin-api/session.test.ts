import { createHash, randomBytes } from 'node:crypto';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAdminApiHandler } from '../../../../lambdas/handlers/admin-api/handler';
import { createSessionHandler, sessionDepsFromEnv } from '../../../../lambdas/handlers/admin-api/session';
import { logger } from '../../../../lambdas/lib/logger';
import { type IdentityProvider, startIdentityProvider } from '../../../../local/identity-provider';
import { apiGatewayEvent } from '../../../support/api-gateway-event';

// The session routes against the local identity stand-in: the refresh token goes into an
// HttpOnly cookie, comes back only to these routes, and is refused once revoked.
const SHOP = 'https://shop.test';
const CALLBACK = 'https://shop.test/admin';
const CLIENT_ID = 'session-test-client';
const MERCHANT = { email: 'merchant@live-aquatics.test', password: 'Daphnia-Local-2026' };
let idp: IdentityProvider;
let admin: ReturnType<typeof createAdminApiHandler>;

beforeAll(async () => {
  logger.setLogLevel('SILENT');
  idp = await startIdentityProvider({
    port: 0,
    clientId: CLIENT_ID,
    redirectUris: [CALLBACK],
    users: [{ ...MERCHANT, groups: ['merchants'] }],
  });
  const deps = sessionDepsFromEnv({
    ADMIN_SIGN_IN_URL: idp.url,
    ADMIN_CLIENT_ID: CLIENT_ID,
    ADMIN_USER_POOL_ID: 'local',
    SITE_URL: SHOP,
    AWS_REGION: 'eu-west-2',
    COGNITO_ENDPOINT: idp.url,
  });
  // The SDK finds its credentials in the environment, as in Lambda.
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'local');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'local');
  // The other routes' dependencies are never loaded: a session route needs none of them.
  admin = createAdminApiHandler(
    () => {
      throw new Error('not loaded for a session route');
    },
    { session: createSessionHandler(async () => deps) },
  );
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await idp.close();
});

/** A code and its verifier from the stand-in's sign-in form, as the page gets them. */
async function signInCode(): Promise<{ code: string; codeVerifier: string }> {
  const codeVerifier = randomBytes(32).toString('base64url');
  const authorize = new URL('/oauth2/authorize', idp.url);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: CLIENT_ID,
    redirect_uri: CALLBACK,
    scope: 'openid email',
    state: 's',
    code_challenge: createHash('sha256').update(codeVerifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  const form = await (await fetch(authorize)).text();
  const request = /name="request" value="([^"]+)"/.exec(form)?.[1] ?? '';
  const login = await fetch(`${idp.url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ request, ...MERCHANT }).toString(),
    redirect: 'manual',
  });
  const code = new URL(login.headers.get('location') ?? '').searchParams.get('code') ?? '';
  return { code, codeVerifier };
}

function call(
  route: 'start' | 'refresh' | 'sign-out',
  options: { body?: unknown; cookie?: string; origin?: string | null } = {},
) {
  const origin = options.origin === undefined ? SHOP : options.origin;
  return admin({
    ...apiGatewayEvent({
      method: 'POST',
      path: `/functions/v1/admin/session/${route}`,
      headers: { 'content-type': 'application/json', ...(origin !== null && { origin }) },
      body: options.body ?? {},
    }),
    // Payload 2.0 gives the cookies apart from the headers.
    ...(options.cookie !== undefined && { cookies: [options.cookie] }),
  });
}

/** The cookie as the browser would send it back: `name=value`. */
function cookieOf(result: APIGatewayProxyStructuredResultV2): string {
  return (result.cookies?.[0] ?? '').split(';')[0] ?? '';
}

async function signedIn(): Promise<{ result: APIGatewayProxyStructuredResultV2; cookie: string }> {
  const result = await call('start', { body: { ...(await signInCode()), redirectUri: CALLBACK } });
  return { result, cookie: cookieOf(result) };
}

describe('the admin session routes', () => {
  it('trades the code for tokens and puts the refresh token in an HttpOnly, Secure, SameSite=Strict cookie on the session path only', async () => {
    const { result, cookie } = await signedIn();

    expect(result.statusCode).toBe(200);
    expect(result.cookies).toHaveLength(1);
    expect(result.cookies?.[0]).toMatch(
      /^admin_refresh=[A-Za-z0-9_-]{20,}; Path=\/functions\/v1\/admin\/session; Max-Age=2592000; HttpOnly; Secure; SameSite=Strict$/,
    );
    const body = JSON.parse(result.body ?? '{}');
    expect(Object.keys(body).sort()).toEqual(['accessToken', 'expiresIn', 'idToken']);
    expect(body.expiresIn).toBe(1800);
    expect(result.body).not.toContain(cookie.slice('admin_refresh='.length));
    expect(result.headers?.['cache-control']).toBe('no-store');
  });

  it('mints new tokens for the cookie; none without one (204: a first visit, no error); a cookie that mints nothing is cleared', async () => {
    const { cookie } = await signedIn();

    const renewed = await call('refresh', { cookie });
    expect(renewed.statusCode).toBe(200);
    expect(JSON.parse(renewed.body ?? '{}').idToken).toMatch(/^ey/);

    const none = await call('refresh');
    expect(none.statusCode).toBe(204);
    expect(none.body).toBeUndefined();
    expect(none.cookies).toBeUndefined();

    const forged = await call('refresh', { cookie: 'admin_refresh=not-a-token' });
    expect(forged.statusCode).toBe(401);
    expect(forged.cookies).toEqual([
      'admin_refresh=; Path=/functions/v1/admin/session; Max-Age=0; HttpOnly; Secure; SameSite=Strict',
    ]);
  });

  it.each([
    ['another site', 'https://evil.example'],
    ['the shop over http', 'http://shop.test'],
    ['no Origin at all', null],
  ])('refuses a request from %s (403), minting nothing', async (_, origin) => {
    const { cookie } = await signedIn();

    const refused = await call('refresh', { cookie, origin });
    expect(refused.statusCode).toBe(403);
    expect(refused.cookies).toBeUndefined();
    expect(JSON.parse(refused.body ?? '{}')).toEqual({
      error: "Refused: the request did not come from the shop's own pages.",
    });
    const signOut = await call('sign-out', { cookie, origin });
    expect(signOut.statusCode).toBe(403);
    // The refused sign-out revoked nothing either.
    expect((await call('refresh', { cookie })).statusCode).toBe(200);
  });

  it('refuses a revoked refresh token: after sign-out the old cookie mints nothing', async () => {
    const { cookie } = await signedIn();

    const signOut = await call('sign-out', { cookie });
    expect(signOut.statusCode).toBe(200);
    expect(JSON.parse(signOut.body ?? '{}')).toEqual({ revoked: true });
    expect(signOut.cookies?.[0]).toContain('Max-Age=0');

    const replayed = await call('refresh', { cookie });
    expect(replayed.statusCode).toBe(401);
  });

  it("signs out everywhere: every device's refresh token is refused after", async () => {
    const phone = await signedIn();
    const laptop = await signedIn();

    const signOut = await call('sign-out', { cookie: phone.cookie, body: { everywhere: true } });
    expect(signOut.statusCode).toBe(200);

    expect((await call('refresh', { cookie: phone.cookie })).statusCode).toBe(401);
    expect((await call('refresh', { cookie: laptop.cookie })).statusCode).toBe(401);
  });

  it('refuses a code for another site, a code used once already, and a GET', async () => {
    const code = await signInCode();
    expect(
      (await call('start', { body: { ...code, redirectUri: 'https://evil.example/admin' } })).statusCode,
    ).toBe(400);
    expect((await call('start', { body: { ...code, redirectUri: CALLBACK } })).statusCode).toBe(200);
    expect((await call('start', { body: { ...code, redirectUri: CALLBACK } })).statusCode).toBe(400);

    const get = await admin(
      apiGatewayEvent({
        method: 'GET',
        path: '/functions/v1/admin/session/refresh',
        headers: { origin: SHOP },
      }),
    );
    expect(get.statusCode).toBe(405);
  });
});
