import { createHash, randomBytes } from 'node:crypto';
import {
  AdminUserGlobalSignOutCommand,
  CognitoIdentityProviderClient,
  UserNotFoundException,
} from '@aws-sdk/client-cognito-identity-provider';
import { JwtVerifier } from 'aws-jwt-verify';
import { JwtExpiredError } from 'aws-jwt-verify/error';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type IdentityProvider, startIdentityProvider } from '../../local/identity-provider';
import { fetchJwks } from '../../local/jwt-authorizer';
import { refreshTokens, revokeRefreshToken } from '../../shared/admin-sign-in';

const SHOP = 'http://localhost:3000';
const CALLBACK = 'http://localhost:3000/admin';
const CLIENT_ID = 'test-admin-page';

let clock = new Date();
let idp: IdentityProvider;

beforeAll(async () => {
  idp = await startIdentityProvider({
    port: 0,
    clientId: CLIENT_ID,
    redirectUris: [CALLBACK],
    users: [
      { email: 'merchant@live-aquatics.test', password: 'Daphnia-Local-2026', groups: ['merchants'] },
      { email: 'customer@example.test', password: 'Another-Pass-2026', groups: ['customers'] },
    ],
    now: () => clock,
  });
});
afterAll(() => idp.close());
beforeEach(() => {
  clock = new Date();
});

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizeUrl(challenge: string, extra: Record<string, string> = {}): string {
  const url = new URL('/oauth2/authorize', idp.url);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: CLIENT_ID,
    redirect_uri: CALLBACK,
    scope: 'openid email',
    state: 'state-123',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  }).toString();
  return url.toString();
}

function form(values: Record<string, string>): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(values).toString(),
    redirect: 'manual',
  };
}

/** The sign-in form's hidden request id. */
function pendingId(html: string): string {
  const id = /name="request" value="([^"]+)"/.exec(html)?.[1];
  if (id === undefined) throw new Error(`no sign-in form in: ${html}`);
  return id;
}

async function signIn(email = 'merchant@live-aquatics.test', password = 'Daphnia-Local-2026') {
  const { verifier, challenge } = pkce();
  const page = await fetch(authorizeUrl(challenge), { redirect: 'manual' });
  const login = await fetch(
    `${idp.url}/login`,
    form({ request: pendingId(await page.text()), email, password }),
  );
  const location = new URL(login.headers.get('location') ?? '');
  const cookie = (login.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
  return { verifier, challenge, location, cookie, code: location.searchParams.get('code') ?? '' };
}

async function exchange(code: string, verifier: string, headers: Record<string, string> = {}) {
  return fetch(`${idp.url}/oauth2/token`, {
    ...form({
      grant_type: 'authorization_code',
      client_id: CLIENT_ID,
      code,
      redirect_uri: CALLBACK,
      code_verifier: verifier,
    }),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });
}

const codeAndVerifier = (signedIn: { code: string; verifier: string }): [string, string] => [
  signedIn.code,
  signedIn.verifier,
];

interface TokenSet {
  id_token: string;
  access_token: string;
  refresh_token?: string;
  expires_in: number;
  token_type: string;
}

async function tokenSet(response: Response): Promise<TokenSet> {
  expect(response.status).toBe(200);
  return (await response.json()) as TokenSet;
}

async function verifier(tokenUse: 'id' | 'access') {
  const verify = JwtVerifier.create({
    issuer: idp.url,
    audience: tokenUse === 'id' ? CLIENT_ID : null,
    customJwtCheck: ({ payload }) => {
      if (payload.token_use !== tokenUse) throw new Error(`not an ${tokenUse} token`);
      if (tokenUse === 'access' && payload.client_id !== CLIENT_ID) throw new Error('another client');
    },
  });
  verify.cacheJwks(await fetchJwks(idp.jwksUrl));
  return verify;
}

describe('the local identity provider', () => {
  it('signs the merchant in with the code flow and PKCE, returning to the callback with the state', async () => {
    const { location, code, cookie } = await signIn();

    expect(`${location.origin}${location.pathname}`).toBe('http://localhost:3000/admin');
    expect(location.searchParams.get('state')).toBe('state-123');
    expect(code).not.toBe('');
    expect(cookie).toMatch(/^local-idp-session=.+/);
  });

  it('shows a labelled sign-in page at the authorize step', async () => {
    const page = await fetch(authorizeUrl(pkce().challenge));
    const html = await page.text();

    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html).toContain('<html lang="en-GB">');
    expect(html).toContain('<label for="email">Email</label>');
    expect(html).toContain('<input id="email" name="email" type="email" autocomplete="username" required');
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).toContain('<button type="submit">Sign in</button>');
  });

  it('issues Cognito-shaped ID and access tokens that verify against its JWKS', async () => {
    const { code, verifier: codeVerifier } = await signIn();
    const tokens = await tokenSet(await exchange(code, codeVerifier));

    const id = await (await verifier('id')).verify(tokens.id_token);
    const access = await (await verifier('access')).verify(tokens.access_token);

    expect(tokens.token_type).toBe('Bearer');
    expect(tokens.expires_in).toBe(1800);
    expect(tokens.refresh_token).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(id).toMatchObject({
      iss: idp.url,
      aud: 'test-admin-page',
      token_use: 'id',
      email: 'merchant@live-aquatics.test',
      email_verified: true,
      'cognito:groups': ['merchants'],
      'cognito:username': id.sub,
    });
    expect((id.exp ?? 0) - (id.iat ?? 0)).toBe(1800);
    expect(access).toMatchObject({
      iss: idp.url,
      client_id: 'test-admin-page',
      token_use: 'access',
      scope: 'openid email',
      username: id.sub,
      'cognito:groups': ['merchants'],
      sub: id.sub,
    });
    expect(access.aud).toBeUndefined();
    expect(
      JSON.parse(Buffer.from(tokens.id_token.split('.')[0] ?? '', 'base64url').toString()),
    ).toMatchObject({
      alg: 'RS256',
    });
  });

  it('gives a user outside the merchants group a token with their own groups', async () => {
    const { code, verifier: codeVerifier } = await signIn('Customer@Example.test', 'Another-Pass-2026');
    const tokens = await tokenSet(await exchange(code, codeVerifier));

    const id = await (await verifier('id')).verify(tokens.id_token);

    expect(id.email).toBe('customer@example.test');
    expect(id['cognito:groups']).toEqual(['customers']);
  });

  it.each([
    ['a wrong password', 'merchant@live-aquatics.test', 'daphnia-local-2026'],
    ['an unknown email', 'someone@live-aquatics.test', 'Daphnia-Local-2026'],
  ])('refuses %s with the same words, and stays on the sign-in page', async (_case, email, password) => {
    const page = await fetch(authorizeUrl(pkce().challenge));
    const login = await fetch(
      `${idp.url}/login`,
      form({ request: pendingId(await page.text()), email, password }),
    );
    const html = await login.text();

    expect(login.status).toBe(401);
    expect(login.headers.get('location')).toBeNull();
    expect(login.headers.getSetCookie()).toEqual([]);
    expect(html).toContain('<p role="alert">Incorrect username or password.</p>');
    expect(html).toContain('name="request"');
  });

  it('accepts the code once, only with its PKCE verifier', async () => {
    const first = await signIn();
    expect((await exchange(first.code, pkce().verifier)).status).toBe(400);

    const second = await signIn();
    expect((await exchange(second.code, second.verifier)).status).toBe(200);
    const again = await exchange(second.code, second.verifier);
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ error: 'invalid_grant' });
  });

  it('refuses a code after five minutes', async () => {
    const { code, verifier: codeVerifier } = await signIn();
    clock = new Date(clock.getTime() + 5 * 60_000 + 1_000);

    const response = await exchange(code, codeVerifier);

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'invalid_grant' });
  });

  it('answers CORS for the shop origin on the token endpoint, and for no other', async () => {
    const preflight = await fetch(`${idp.url}/oauth2/token`, {
      method: 'OPTIONS',
      headers: { origin: SHOP, 'access-control-request-method': 'POST' },
    });
    const { code, verifier: codeVerifier } = await signIn();
    const response = await exchange(code, codeVerifier, { origin: SHOP });
    const other = await exchange('no-code', 'x', { origin: 'http://evil.test' });

    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST');
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('renews the ID and access tokens with the refresh token, keeping the refresh token', async () => {
    const { code, verifier: codeVerifier } = await signIn();
    const first = await tokenSet(await exchange(code, codeVerifier));
    clock = new Date(clock.getTime() + 40 * 60_000);

    const renewed = await tokenSet(
      await fetch(
        `${idp.url}/oauth2/token`,
        form({ grant_type: 'refresh_token', client_id: CLIENT_ID, refresh_token: first.refresh_token ?? '' }),
      ),
    );

    expect(renewed.refresh_token).toBeUndefined();
    expect(renewed.id_token).not.toBe(first.id_token);
    const id = await (await verifier('id')).verify(renewed.id_token);
    expect(id.email).toBe('merchant@live-aquatics.test');
  });

  it('refuses an unknown refresh token, and one older than thirty days', async () => {
    const { code, verifier: codeVerifier } = await signIn();
    const { refresh_token = '' } = await tokenSet(await exchange(code, codeVerifier));
    const refresh = (token: string) =>
      fetch(
        `${idp.url}/oauth2/token`,
        form({ grant_type: 'refresh_token', client_id: CLIENT_ID, refresh_token: token }),
      );

    expect((await refresh('not-a-refresh-token')).status).toBe(400);
    clock = new Date(clock.getTime() + 29 * 86_400_000);
    expect((await refresh(refresh_token)).status).toBe(200);
    clock = new Date(clock.getTime() + 86_400_000 + 1_000);
    const late = await refresh(refresh_token);
    expect(late.status).toBe(400);
    expect(await late.json()).toEqual({ error: 'invalid_grant' });
  });

  it("signs a user out of every device at the user-pool API's AdminUserGlobalSignOut, through the SDK", async () => {
    const refresh = (token: string) =>
      fetch(
        `${idp.url}/oauth2/token`,
        form({ grant_type: 'refresh_token', client_id: CLIENT_ID, refresh_token: token }),
      );
    const phone = await tokenSet(await exchange(...codeAndVerifier(await signIn())));
    const laptop = await tokenSet(await exchange(...codeAndVerifier(await signIn())));
    const other = await signIn('customer@example.test', 'Another-Pass-2026');
    const others = await tokenSet(await exchange(other.code, other.verifier));
    const cognito = new CognitoIdentityProviderClient({
      endpoint: idp.url,
      region: 'eu-west-2',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });

    await cognito.send(
      new AdminUserGlobalSignOutCommand({ UserPoolId: 'local', Username: 'MERCHANT@live-aquatics.test' }),
    );

    expect((await refresh(phone.refresh_token ?? '')).status).toBe(400);
    expect((await refresh(laptop.refresh_token ?? '')).status).toBe(400);
    expect((await refresh(others.refresh_token ?? '')).status).toBe(200);
    await expect(
      cognito.send(
        new AdminUserGlobalSignOutCommand({ UserPoolId: 'local', Username: 'nobody@example.test' }),
      ),
    ).rejects.toThrow(UserNotFoundException);
  });

  it("revokes a refresh token at Cognito's /oauth2/revoke: the token endpoint then answers invalid_grant", async () => {
    const { code, verifier: codeVerifier } = await signIn();
    const { refresh_token = '' } = await tokenSet(await exchange(code, codeVerifier));
    const refresh = () =>
      fetch(
        `${idp.url}/oauth2/token`,
        form({ grant_type: 'refresh_token', client_id: CLIENT_ID, refresh_token }),
      );
    const revoke = (values: Record<string, string>) => fetch(`${idp.url}/oauth2/revoke`, form(values));

    expect((await refresh()).status).toBe(200);
    const otherClient = await revoke({ token: refresh_token, client_id: 'another-client' });
    expect(otherClient.status).toBe(401);
    expect((await refresh()).status).toBe(200);

    const revoked = await revoke({ token: refresh_token, client_id: CLIENT_ID });
    expect(revoked.status).toBe(200);
    expect(await revoked.text()).toBe('');
    const after = await refresh();
    expect(after.status).toBe(400);
    expect(await after.json()).toEqual({ error: 'invalid_grant' });
    // A second sign-out of the same token is not an error (RFC 7009), nor is a missing token allowed.
    expect((await revoke({ token: refresh_token, client_id: CLIENT_ID })).status).toBe(200);
    expect((await revoke({ client_id: CLIENT_ID })).status).toBe(400);
  });

  it("the CLI's sign-out revokes its refresh token: it mints no more tokens", async () => {
    const { code, verifier: codeVerifier } = await signIn();
    const issued = await tokenSet(await exchange(code, codeVerifier));
    const refreshToken = issued.refresh_token ?? '';
    const config = { signInUrl: idp.url, clientId: CLIENT_ID };

    expect(await revokeRefreshToken(config, refreshToken)).toBe(true);

    const after = await fetch(
      `${idp.url}/oauth2/token`,
      form({ grant_type: 'refresh_token', client_id: CLIENT_ID, refresh_token: refreshToken }),
    );
    expect(after.status).toBe(400);
    expect(await after.json()).toEqual({ error: 'invalid_grant' });
    await expect(refreshTokens(config, refreshToken)).rejects.toThrow('The token endpoint answered 400');
  });

  it('issues tokens that expire after 30 minutes', async () => {
    clock = new Date(Date.now() - 31 * 60_000);
    const { code, verifier: codeVerifier } = await signIn();
    const tokens = await tokenSet(await exchange(code, codeVerifier));

    await expect((await verifier('id')).verify(tokens.id_token)).rejects.toBeInstanceOf(JwtExpiredError);
    await expect((await verifier('access')).verify(tokens.access_token)).rejects.toBeInstanceOf(
      JwtExpiredError,
    );
  });

  it('returns straight to the callback with a new code while its own session lasts', async () => {
    const { cookie } = await signIn();

    const again = await fetch(authorizeUrl(pkce().challenge), { redirect: 'manual', headers: { cookie } });

    expect(again.status).toBe(302);
    expect(new URL(again.headers.get('location') ?? '').searchParams.get('code')).toMatch(/.+/);
  });

  it("ends its session at Cognito's logout and returns to the registered logout URL", async () => {
    const { cookie } = await signIn();

    const logout = await fetch(
      `${idp.url}/logout?${new URLSearchParams({ client_id: CLIENT_ID, logout_uri: CALLBACK })}`,
      { redirect: 'manual', headers: { cookie } },
    );
    const after = await fetch(authorizeUrl(pkce().challenge), { redirect: 'manual', headers: { cookie } });

    expect(logout.status).toBe(302);
    expect(logout.headers.get('location')).toBe('http://localhost:3000/admin');
    expect(logout.headers.getSetCookie()).toEqual([
      'local-idp-session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0',
    ]);
    expect(after.status).toBe(200);
    expect(await after.text()).toContain('<label for="password">Password</label>');
  });

  it('sends nobody to an unregistered callback or logout URL', async () => {
    const authorize = await fetch(
      authorizeUrl(pkce().challenge, { redirect_uri: 'http://evil.test/admin' }),
      {
        redirect: 'manual',
      },
    );
    const logout = await fetch(
      `${idp.url}/logout?${new URLSearchParams({ client_id: CLIENT_ID, logout_uri: 'http://evil.test/' })}`,
      { redirect: 'manual' },
    );
    const client = await fetch(authorizeUrl(pkce().challenge, { client_id: 'another-client' }), {
      redirect: 'manual',
    });

    expect(authorize.status).toBe(400);
    expect(authorize.headers.get('location')).toBeNull();
    expect(logout.status).toBe(400);
    expect(logout.headers.get('location')).toBeNull();
    expect(client.status).toBe(400);
  });

  it('sends the page back with invalid_request when PKCE is missing', async () => {
    const response = await fetch(authorizeUrl('', { code_challenge_method: '' }), { redirect: 'manual' });
    const location = new URL(response.headers.get('location') ?? '');

    expect(response.status).toBe(302);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('state')).toBe('state-123');
  });

  it.each([
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
    ['no openid scope', { scope: 'email' }, 'invalid_scope'],
    ['the plain PKCE method', { code_challenge_method: 'plain' }, 'invalid_request'],
  ])('sends the page back with an error for %s', async (_case, extra, error) => {
    const response = await fetch(authorizeUrl(pkce().challenge, extra), { redirect: 'manual' });

    expect(response.status).toBe(302);
    expect(new URL(response.headers.get('location') ?? '').searchParams.get('error')).toBe(error);
  });

  it.each([
    ['another client', { client_id: 'another-client' }, 401, 'invalid_client'],
    ['another redirect_uri', { redirect_uri: 'http://localhost:3000/other' }, 400, 'invalid_grant'],
    ['another grant type', { grant_type: 'password' }, 400, 'unsupported_grant_type'],
  ])('refuses a code exchange for %s', async (_case, change, status, error) => {
    const { code, verifier: codeVerifier } = await signIn();
    const response = await fetch(
      `${idp.url}/oauth2/token`,
      form({
        grant_type: 'authorization_code',
        client_id: CLIENT_ID,
        code,
        redirect_uri: CALLBACK,
        code_verifier: codeVerifier,
        ...change,
      }),
    );

    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ error });
  });

  it('refuses a sign-in form that waited more than 30 minutes', async () => {
    const page = await fetch(authorizeUrl(pkce().challenge));
    const request = pendingId(await page.text());
    clock = new Date(clock.getTime() + 30 * 60_000 + 1_000);

    const login = await fetch(
      `${idp.url}/login`,
      form({ request, email: 'merchant@live-aquatics.test', password: 'Daphnia-Local-2026' }),
    );

    expect(login.status).toBe(400);
    expect(login.headers.get('location')).toBeNull();
  });

  it('publishes its RS256 key at /.well-known/jwks.json', async () => {
    const response = await fetch(idp.jwksUrl);
    const body = (await response.json()) as { keys: Array<Record<string, string>> };

    expect(idp.jwksUrl).toBe(`${idp.url}/.well-known/jwks.json`);
    expect(idp.url).toMatch(/^http:\/\/localhost:\d+$/);
    expect(body.keys).toHaveLength(1);
    expect(body.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', e: 'AQAB' });
  });
});
