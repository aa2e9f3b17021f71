import { createHash, randomBytes } from 'node:crypto';

/** What the identity provider's token endpoint answers, as the /admin page reads it. */
export interface SignInTokens {
  id_token: string;
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

/**
 * Signs a user in at the local identity provider the way the /admin page and a browser do: the
 * authorize step with PKCE (S256), the sign-in form, the code back at the callback, and the code
 * exchanged with its verifier. Throws with the step that failed.
 */
export async function signInLocally(options: {
  signInUrl: string;
  clientId: string;
  redirectUri: string;
  email: string;
  password: string;
}): Promise<SignInTokens> {
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL('/oauth2/authorize', options.signInUrl);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    scope: 'openid email',
    state: 'test',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  const page = await (await fetch(authorize)).text();
  const request = /name="request" value="([^"]+)"/.exec(page)?.[1];
  if (request === undefined) throw new Error(`The authorize step showed no sign-in form: ${page}`);
  const login = await fetch(new URL('/login', options.signInUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ request, email: options.email, password: options.password }).toString(),
    redirect: 'manual',
  });
  const code = new URL(login.headers.get('location') ?? '', options.redirectUri).searchParams.get('code');
  if (code === null) throw new Error(`Sign-in as ${options.email} answered ${login.status} without a code`);
  const token = await fetch(new URL('/oauth2/token', options.signInUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: options.clientId,
      code,
      redirect_uri: options.redirectUri,
      code_verifier: verifier,
    }).toString(),
  });
  if (!token.ok) throw new Error(`The token endpoint answered ${token.status}: ${await token.text()}`);
  return (await token.json()) as SignInTokens;
}
