import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JwtVerifier } from 'aws-jwt-verify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type IdentityProvider, type LocalUser, startIdentityProvider } from '../../local/identity-provider';
import { fetchJwks } from '../../local/jwt-authorizer';

// `npm start` restarted: the identity provider keeps its signing key, sessions and refresh tokens
// in a file, so the CLI's and the page's sign-ins survive it. It comes back on the same port, as
// `npm start` does: the issuer is its address.

const CALLBACK = 'http://localhost:47815/callback';
const CLIENT_ID = 'local-admin-page';
const MERCHANT: LocalUser = {
  email: 'merchant@live-aquatics.test',
  password: 'Daphnia-Local-2026',
  groups: ['merchants'],
};

let folder = '';
let file = '';
let port = 0;
let logged: string[] = [];
let running: IdentityProvider | undefined;

function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer();
    probe.listen(0, () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => done(free));
    });
  });
}

beforeEach(async () => {
  folder = mkdtempSync(join(tmpdir(), 'idp-kept-'));
  file = join(folder, 'identity-provider.json');
  port = await freePort();
  logged = [];
});

afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(users: readonly LocalUser[] = [MERCHANT]): Promise<IdentityProvider> {
  if (running !== undefined) {
    await running.close();
    // Lets fetch's pool see its kept-alive connections closed before the next request reuses one.
    await new Promise((wait) => setTimeout(wait, 50));
  }
  running = await startIdentityProvider({
    port,
    clientId: CLIENT_ID,
    redirectUris: [CALLBACK],
    users,
    stateFile: file,
    log: (line) => logged.push(line),
  });
  return running;
}

/** The browser's sign-in, then the CLI's code exchange: the tokens and the session's cookie. */
async function signIn(idp: IdentityProvider) {
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL('/oauth2/authorize', idp.url);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: CLIENT_ID,
    redirect_uri: CALLBACK,
    scope: 'openid email',
    state: 'state-1',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  const page = await (await fetch(authorize)).text();
  const request = /name="request" value="([^"]+)"/.exec(page)?.[1] ?? '';
  const login = await fetch(`${idp.url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ request, email: MERCHANT.email, password: MERCHANT.password }).toString(),
    redirect: 'manual',
  });
  const code = new URL(login.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const cookie = (login.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
  const tokens = await tokenRequest(idp, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: CALLBACK,
    code_verifier: verifier,
  });
  return { tokens: await tokens.json(), cookie, authorize };
}

function tokenRequest(idp: IdentityProvider, form: Record<string, string>) {
  return fetch(`${idp.url}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: CLIENT_ID, ...form }).toString(),
  });
}

async function verifierOf(idp: IdentityProvider) {
  const verify = JwtVerifier.create({ issuer: idp.url, audience: CLIENT_ID });
  verify.cacheJwks(await fetchJwks(idp.jwksUrl));
  return verify;
}

describe('the local identity provider across a restart', () => {
  it('an ID token minted before still verifies after, and the refresh token still renews it', async () => {
    // Prepare
    const before = await start();
    const { tokens } = await signIn(before);
    const subBefore = (await (await verifierOf(before)).verify(tokens.id_token)).sub;

    // Act
    const after = await start();
    const verified = await (await verifierOf(after)).verify(tokens.id_token);
    const renewed = await tokenRequest(after, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
    });

    // Assess
    expect(verified).toMatchObject({ email: 'merchant@live-aquatics.test', 'cognito:groups': ['merchants'] });
    expect(verified.sub).toBe(subBefore);
    expect(renewed.status).toBe(200);
    const { id_token: renewedToken } = await renewed.json();
    expect((await (await verifierOf(after)).verify(renewedToken)).sub).toBe(subBefore);
    expect(logged).toContain(
      `Identity provider: kept from ${file}: its signing key, 1 sessions, 1 refresh tokens.`,
    );
    expect(statSync(file).mode & 0o777).toBe(0o600);
  }, 30_000);

  it("the browser's session survives: signing in again goes straight back with a code", async () => {
    const { cookie, authorize } = await signIn(await start());

    await start();
    const again = await fetch(authorize, { headers: { cookie }, redirect: 'manual' });

    expect(again.status).toBe(302);
    expect(again.headers.get('location')).toMatch(
      /^http:\/\/localhost:47815\/callback\?code=.+&state=state-1$/,
    );
  }, 30_000);

  it('a refresh token revoked before stays revoked; one of a user no longer configured is not taken back', async () => {
    const before = await start([MERCHANT, { ...MERCHANT, email: 'helper@live-aquatics.test' }]);
    const { tokens } = await signIn(before);
    await fetch(`${before.url}/oauth2/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: CLIENT_ID, token: tokens.refresh_token }).toString(),
    });
    const second = await signIn(before);

    const after = await start([{ ...MERCHANT, email: 'someone-else@live-aquatics.test' }]);
    const revoked = await tokenRequest(after, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
    });
    const userGone = await tokenRequest(after, {
      grant_type: 'refresh_token',
      refresh_token: second.tokens.refresh_token,
    });

    expect(revoked.status).toBe(400);
    expect(userGone.status).toBe(400);
  }, 30_000);

  it('a file it cannot use is kept aside with a log line, and a new key signs from then on', async () => {
    writeFileSync(file, JSON.stringify({ version: 1, key: { kid: 'k', privateKey: { kty: 'RSA' } } }));

    const idp = await start();
    const { tokens } = await signIn(idp);

    expect(logged.join('\n')).toMatch(
      /^Identity provider: .*identity-provider\.json could not be read \(not a state this shop wrote: key\.privateKey: not an RSA private key\); kept aside as identity-provider\.json\.corrupt-\S+, starting empty\.$/m,
    );
    expect(
      readdirSync(folder).filter((name) => name.startsWith('identity-provider.json.corrupt-')),
    ).toHaveLength(1);
    await expect((await verifierOf(idp)).verify(tokens.id_token)).resolves.toMatchObject({
      email: 'merchant@live-aquatics.test',
    });
  }, 30_000);
});
