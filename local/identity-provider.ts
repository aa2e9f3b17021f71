import {
  createHash,
  createPrivateKey,
  createPublicKey,
  createSign,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  randomUUID,
  timingSafeEqual,
} from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { MERCHANTS_GROUP } from '../shared/admin-api-paths';
import { type KeptFile, keptFile } from './kept-file';
import { portMessage } from './ses-local';
import { standInPage } from './stand-in-page';

/**
 * The local stand-in for the user pool's managed login (docs/decisions/0027): the authorization
 * code flow with PKCE at Cognito's own paths, Cognito-shaped RS256 tokens, Cognito's logout, and a
 * plain sign-in page. Users, codes, sessions and refresh tokens live in memory; the signing key is
 * made at start. With `stateFile` the key, the users' subs, the sessions and the refresh tokens are
 * kept between runs (docs/decisions/0046), so a restart signs nobody out; without it, it does.
 */

/** The merchant `npm start` seeds when LOCAL_MERCHANT_EMAIL / LOCAL_MERCHANT_PASSWORD are unset. */
export const LOCAL_MERCHANT = {
  email: 'merchant@live-aquatics.test',
  password: 'Daphnia-Local-2026',
} as const;

/** The local app client's id, as `/admin-config.json` names it to the page. */
export const LOCAL_ADMIN_CLIENT_ID = 'local-admin-page';

/** As the stack's app client: 30-minute ID and access tokens, a 30-day refresh token (ADR 0055). */
const TOKEN_VALIDITY_SECONDS = 30 * 60;
const REFRESH_VALIDITY_SECONDS = 30 * 24 * 60 * 60;
/** Cognito's authorization codes last five minutes and work once. */
const CODE_VALIDITY_SECONDS = 5 * 60;
/** How long a sign-in form may wait for its password. */
const PENDING_VALIDITY_SECONDS = 30 * 60;
/** Cognito's managed login keeps its own session for an hour. */
const SESSION_VALIDITY_SECONDS = 60 * 60;
const SESSION_COOKIE = 'local-idp-session';
const MAX_FORM_BYTES = 16 * 1024;

/** Cognito's wording for a wrong email or password (it never says which). */
export const WRONG_CREDENTIALS = 'Incorrect username or password.';

export interface LocalUser {
  email: string;
  password: string;
  /** `cognito:groups`; a user outside `merchants` lets tests see the API's 403. */
  groups: readonly string[];
}

export interface IdentityProviderOptions {
  /** 0 picks a free port. */
  port: number;
  /** The app client's id. */
  clientId: string;
  /** The app client's callback and sign-out URLs (exact matches), e.g. `http://localhost:3000/admin`. */
  redirectUris: readonly string[];
  /** Its sign-out URLs, when they differ from the callbacks (the template's LogoutURLs). */
  logoutUris?: readonly string[];
  /** Its AllowedOAuthScopes: a request for any other is refused, as Cognito refuses it. @default openid, email */
  scopes?: readonly string[];
  /** Its AllowedOAuthFlows: `code` must be among them for the sign-in to start. @default code */
  flows?: readonly string[];
  /** Whether its ExplicitAuthFlows include ALLOW_REFRESH_TOKEN_AUTH. @default true */
  refreshTokens?: boolean;
  users: readonly LocalUser[];
  /** The clock tokens are dated by (tests move it to see expiry). */
  now?: () => Date;
  /**
   * A JSON file (`npm start`: `.local-data/stand-ins/identity-provider.json`) keeping the signing
   * key, subs, sessions and refresh tokens between runs: tokens minted before a restart still
   * verify and renew after it. Codes and half-done sign-ins (minutes long) are not kept.
   */
  stateFile?: string;
  log?: (line: string) => void;
}

export interface IdentityProvider {
  /** Browser-facing base URL and the tokens' issuer, e.g. `http://localhost:8010`. */
  url: string;
  clientId: string;
  jwksUrl: string;
  close(): Promise<void>;
}

/** The sign-in as `npm start` and the rehearsal hand it to tests: where, which client, as whom. */
export interface LocalSignIn {
  url: string;
  clientId: string;
  users: readonly LocalUser[];
}

/** The {@link LocalSignIn} of a running provider and the users it was started with. */
export function signInHandle(provider: IdentityProvider, users: readonly LocalUser[]): LocalSignIn {
  return { url: provider.url, clientId: provider.clientId, users };
}

interface AuthorizeRequest {
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string;
  scope: string;
}

interface Grant {
  user: LocalUser;
  sub: string;
  authTime: number;
  scope: string;
  expiresAt: number;
}

/** The key pair as it is kept: its id and the private key as a JWK (the public key follows from it). */
interface KeptKey {
  kid: string;
  privateKey: Record<string, string>;
}

function importPrivateKey(jwk: Record<string, string>): KeyObject {
  return createPrivateKey({ key: jwk, format: 'jwk' });
}

class SigningKey {
  readonly kid: string;
  private readonly privateKey: KeyObject;
  readonly jwk: Record<string, string>;

  /** A new key pair, or the kept one. */
  constructor(kept?: KeptKey) {
    this.kid = kept?.kid ?? randomUUID();
    this.privateKey =
      kept === undefined
        ? generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
        : importPrivateKey(kept.privateKey);
    const { n, e } = createPublicKey(this.privateKey).export({ format: 'jwk' });
    this.jwk = { kty: 'RSA', kid: this.kid, alg: 'RS256', use: 'sig', n: String(n), e: String(e) };
  }

  keep(): KeptKey {
    const privateKey: Record<string, string> = {};
    for (const [name, value] of Object.entries(this.privateKey.export({ format: 'jwk' })))
      if (typeof value === 'string') privateKey[name] = value;
    return { kid: this.kid, privateKey };
  }

  sign(payload: Record<string, unknown>): string {
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const input = `${part({ kid: this.kid, alg: 'RS256' })}.${part(payload)}`;
    return `${input}.${createSign('RSA-SHA256').update(input).sign(this.privateKey).toString('base64url')}`;
  }
}

/** A session or refresh token as it is kept: the user by email, looked up again at start. */
const keptGrantSchema = z.object({
  id: z.string(),
  email: z.string(),
  sub: z.string(),
  authTime: z.number(),
  scope: z.string(),
  expiresAt: z.number(),
});
type KeptGrant = z.infer<typeof keptGrantSchema>;

const keptIdentityStateSchema = z.object({
  version: z.literal(1),
  key: z.object({
    kid: z.string(),
    privateKey: z.record(z.string(), z.string()).refine((jwk) => {
      try {
        return importPrivateKey(jwk).asymmetricKeyType === 'rsa';
      } catch {
        return false;
      }
    }, 'not an RSA private key'),
  }),
  /** Each user's `sub` by lower-cased email: the same merchant stays the same subject. */
  subs: z.record(z.string(), z.string()),
  sessions: z.array(keptGrantSchema),
  refreshTokens: z.array(keptGrantSchema),
});
type KeptIdentityState = z.infer<typeof keptIdentityStateSchema>;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new URLSearchParams(await readBody(req));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_FORM_BYTES) {
        fail(new Error('form too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
    req.on('error', fail);
  });
}

function cookieValue(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/** The stand-in's look: plain and labelled. */
const STYLE = `
body { font-family: system-ui, sans-serif; max-width: 24rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; color: #1a1a1a; }
label { display: block; margin-top: 1rem; font-weight: 600; }
input { display: block; width: 100%; box-sizing: border-box; padding: 0.6rem; font-size: 1rem; border: 1px solid #555; border-radius: 4px; }
button { margin-top: 1.5rem; padding: 0.7rem 1.2rem; font-size: 1rem; background: #0b5c2e; color: #fff; border: 0; border-radius: 4px; }
[role="alert"] { color: #a00000; font-weight: 600; }
.note { color: #444; font-size: 0.9rem; }
`;

/** A page of the stand-in: the sign-in form or an error. */
function page(title: string, body: string): string {
  return standInPage({ title: `${title}: Live Aquatics (local sign-in)`, style: STYLE, body });
}

function signInPage(pendingId: string, email: string, error: string | undefined): string {
  return page(
    'Sign in',
    `<h1>Sign in</h1>
<p class="note">The shop's admin, on this machine: a local stand-in for the Cognito sign-in page.</p>
${error === undefined ? '' : `<p role="alert">${escapeHtml(error)}</p>`}
<form method="post" action="/login">
<input type="hidden" name="request" value="${escapeHtml(pendingId)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(email)}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>`,
  );
}

/** One running provider: its options, stores and key, which every route reads. */
interface Idp {
  options: IdentityProviderOptions;
  now: () => number;
  log: (line: string) => void;
  logoutUris: readonly string[];
  scopes: readonly string[];
  /** The shop's origins: CORS on the token endpoints, form-action on the sign-in page. */
  origins: Set<string>;
  pending: Map<string, AuthorizeRequest & { expiresAt: number }>;
  codes: Map<string, AuthorizeRequest & Grant>;
  sessions: Map<string, Omit<Grant, 'scope'>>;
  refreshTokens: Map<string, Grant>;
  subs: Map<string, string>;
  key: SigningKey;
  kept: KeptFile<KeptIdentityState> | undefined;
  issuer: string;
}

const keepGrant = ([id, grant]: [string, Omit<Grant, 'scope'> & { scope?: string }]): KeptGrant => ({
  id,
  email: grant.user.email,
  sub: grant.sub,
  authTime: grant.authTime,
  scope: grant.scope ?? '',
  expiresAt: grant.expiresAt,
});

function userOf(idp: Idp, email: string): LocalUser | undefined {
  return idp.options.users.find((u) => u.email.toLowerCase() === email.toLowerCase());
}

/** The stores, and the kept state read back when there is a state file (docs/decisions/0046). */
function createIdp(options: IdentityProviderOptions): Idp {
  const logoutUris = options.logoutUris ?? options.redirectUris;
  const log = options.log ?? (() => undefined);
  const kept =
    options.stateFile === undefined
      ? undefined
      : keptFile<KeptIdentityState>({
          path: options.stateFile,
          part: 'Identity provider',
          schema: keptIdentityStateSchema,
          log,
          snapshot: (): KeptIdentityState => ({
            version: 1,
            key: idp.key.keep(),
            subs: Object.fromEntries(idp.subs),
            sessions: [...idp.sessions].map(keepGrant),
            refreshTokens: [...idp.refreshTokens].map(keepGrant),
          }),
        });
  const restored = kept?.read();
  const idp: Idp = {
    options,
    now: () => Math.floor((options.now?.() ?? new Date()).getTime() / 1000),
    log,
    logoutUris,
    scopes: options.scopes ?? ['openid', 'email'],
    origins: new Set([...options.redirectUris, ...logoutUris].map((uri) => new URL(uri).origin)),
    pending: new Map(),
    codes: new Map(),
    sessions: new Map(),
    refreshTokens: new Map(),
    subs: new Map(options.users.map((user) => [user.email.toLowerCase(), randomUUID()])),
    key: new SigningKey(restored?.key),
    kept,
    issuer: '',
  };
  if (restored !== undefined) restore(idp, restored);
  // A new key is kept at once: a token signed with it must verify after a restart.
  idp.kept?.flush();
  return idp;
}

/** Puts the kept subs and grants back, but not those expired or of a user no longer configured. */
function restore(idp: Idp, restored: KeptIdentityState): void {
  for (const [email, sub] of Object.entries(restored.subs)) if (idp.subs.has(email)) idp.subs.set(email, sub);
  const grants = (list: KeptGrant[]) =>
    list.flatMap(({ id, email, scope, ...grant }) => {
      const user = userOf(idp, email);
      return user === undefined || grant.expiresAt <= idp.now()
        ? []
        : [{ id, scope, grant: { ...grant, user } }];
    });
  for (const { id, grant } of grants(restored.sessions)) idp.sessions.set(id, grant);
  for (const { id, scope, grant } of grants(restored.refreshTokens))
    idp.refreshTokens.set(id, { ...grant, scope });
  idp.log(
    `Identity provider: kept from ${idp.kept?.path}: its signing key, ${idp.sessions.size} sessions, ${idp.refreshTokens.size} refresh tokens.`,
  );
}

function send(
  res: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string | string[]> = {},
) {
  res.writeHead(status, { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...headers });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  send(res, status, JSON.stringify(body), { 'content-type': 'application/json', ...headers });
}

function sendPage(
  idp: Idp,
  res: ServerResponse,
  status: number,
  html: string,
  headers: Record<string, string> = {},
) {
  send(res, status, html, {
    'content-type': 'text/html; charset=utf-8',
    // The form posts here and is then redirected to the shop, which form-action must allow too.
    'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${[...idp.origins].join(' ')}; frame-ancestors 'none'; base-uri 'none'`,
    ...headers,
  });
}

function errorPage(idp: Idp, res: ServerResponse, status: number, message: string) {
  sendPage(
    idp,
    res,
    status,
    page('Error', `<h1>Sign-in error</h1>\n<p role="alert">${escapeHtml(message)}</p>`),
  );
}

function redirect(res: ServerResponse, location: string, headers: Record<string, string> = {}) {
  send(res, 302, '', { location, ...headers });
}

/** The callback address with `params` and the request's state. */
function back(to: AuthorizeRequest, params: Record<string, string>): string {
  const url = new URL(to.redirectUri);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  if (to.state !== undefined) url.searchParams.set('state', to.state);
  return url.toString();
}

function issueCode(idp: Idp, request: AuthorizeRequest, session: Omit<Grant, 'scope'>): string {
  const code = randomUUID();
  idp.codes.set(code, { ...request, ...session, expiresAt: idp.now() + CODE_VALIDITY_SECONDS });
  return back(request, { code });
}

/** The ID and access tokens of one grant, shaped and signed as a user pool signs them. */
function mintTokens(idp: Idp, grant: Grant) {
  const iat = idp.now();
  const common = {
    sub: grant.sub,
    'cognito:groups': [...grant.user.groups],
    iss: idp.issuer,
    origin_jti: randomUUID(),
    event_id: randomUUID(),
    auth_time: grant.authTime,
    iat,
    exp: iat + TOKEN_VALIDITY_SECONDS,
  };
  const id = { email_verified: true, 'cognito:username': grant.sub, aud: idp.options.clientId };
  return {
    id_token: idp.key.sign({ ...common, ...id, token_use: 'id', email: grant.user.email, jti: randomUUID() }),
    access_token: idp.key.sign({
      ...common,
      version: 2,
      client_id: idp.options.clientId,
      token_use: 'access',
      scope: grant.scope,
      username: grant.sub,
      jti: randomUUID(),
    }),
    expires_in: TOKEN_VALIDITY_SECONDS,
    token_type: 'Bearer',
  };
}

/**
 * The authorize step's checks, in Cognito's order: until client and redirect URI check out an
 * error is shown here, never sent anywhere; after, errors go back to the callback.
 */
function authorizeRequest(
  idp: Idp,
  query: URLSearchParams,
): { request: AuthorizeRequest } | { page: string } | { back: string } {
  if (query.get('client_id') !== idp.options.clientId) return { page: 'Unknown client_id.' };
  const redirectUri = query.get('redirect_uri') ?? '';
  if (!idp.options.redirectUris.includes(redirectUri))
    return { page: 'redirect_uri is not a callback URL of this app client.' };
  const request: AuthorizeRequest = {
    redirectUri,
    state: query.get('state') ?? undefined,
    codeChallenge: query.get('code_challenge') ?? '',
    scope: query.get('scope') ?? 'openid',
  };
  if (query.get('response_type') !== 'code')
    return { back: back(request, { error: 'unsupported_response_type' }) };
  if (!(idp.options.flows ?? ['code']).includes('code'))
    return { back: back(request, { error: 'unauthorized_client' }) };
  if (query.get('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(request.codeChallenge))
    return {
      back: back(request, {
        error: 'invalid_request',
        error_description: 'code_challenge with code_challenge_method=S256 is required',
      }),
    };
  const requested = request.scope.split(' ');
  if (!requested.includes('openid') || requested.some((scope) => !idp.scopes.includes(scope)))
    return { back: back(request, { error: 'invalid_scope' }) };
  return { request };
}

function authorize(idp: Idp, req: IncomingMessage, res: ServerResponse, query: URLSearchParams) {
  const checked = authorizeRequest(idp, query);
  if ('page' in checked) return errorPage(idp, res, 400, checked.page);
  if ('back' in checked) return redirect(res, checked.back);
  const session = idp.sessions.get(cookieValue(req, SESSION_COOKIE) ?? '');
  if (session !== undefined && session.expiresAt > idp.now())
    return redirect(res, issueCode(idp, checked.request, session));
  const id = randomBytes(24).toString('base64url');
  idp.pending.set(id, { ...checked.request, expiresAt: idp.now() + PENDING_VALIDITY_SECONDS });
  return sendPage(idp, res, 200, signInPage(id, '', undefined));
}

async function login(idp: Idp, req: IncomingMessage, res: ServerResponse) {
  const form = await readForm(req);
  const id = form.get('request') ?? '';
  const request = idp.pending.get(id);
  if (request === undefined || request.expiresAt <= idp.now())
    return errorPage(idp, res, 400, 'This sign-in has expired: go back to the shop and sign in again.');
  const email = (form.get('email') ?? '').trim();
  const user = userOf(idp, email);
  if (user === undefined || !same(form.get('password') ?? '', user.password))
    return sendPage(idp, res, 401, signInPage(id, email, WRONG_CREDENTIALS));
  idp.pending.delete(id);
  const session = {
    user,
    sub: idp.subs.get(user.email.toLowerCase()) ?? randomUUID(),
    authTime: idp.now(),
    expiresAt: idp.now() + SESSION_VALIDITY_SECONDS,
  };
  const sessionId = randomBytes(24).toString('base64url');
  idp.sessions.set(sessionId, session);
  idp.kept?.touch();
  return redirect(res, issueCode(idp, request, session), {
    'set-cookie': `${SESSION_COOKIE}=${sessionId}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_VALIDITY_SECONDS}`,
  });
}

/** The code grant: once, within five minutes, with its redirect URI and PKCE verifier. */
function codeGrant(idp: Idp, form: URLSearchParams): Record<string, unknown> | undefined {
  const code = form.get('code') ?? '';
  const grant = idp.codes.get(code);
  idp.codes.delete(code);
  if (grant === undefined || grant.expiresAt <= idp.now()) return undefined;
  if (form.get('redirect_uri') !== grant.redirectUri) return undefined;
  const challenge = createHash('sha256')
    .update(form.get('code_verifier') ?? '')
    .digest('base64url');
  if (!same(challenge, grant.codeChallenge)) return undefined;
  const refreshToken = randomBytes(48).toString('base64url');
  const issued = { ...grant, expiresAt: idp.now() + REFRESH_VALIDITY_SECONDS };
  idp.refreshTokens.set(refreshToken, issued);
  idp.kept?.touch();
  return { ...mintTokens(idp, issued), refresh_token: refreshToken };
}

async function token(idp: Idp, req: IncomingMessage, res: ServerResponse, cors: Record<string, string>) {
  const form = await readForm(req);
  const fail = (error: string, status = 400) => sendJson(res, status, { error }, cors);
  if (form.get('client_id') !== idp.options.clientId) return fail('invalid_client', 401);
  switch (form.get('grant_type')) {
    case 'authorization_code': {
      const tokens = codeGrant(idp, form);
      return tokens === undefined ? fail('invalid_grant') : sendJson(res, 200, tokens, cors);
    }
    case 'refresh_token': {
      if (idp.options.refreshTokens === false) return fail('unauthorized_client');
      const grant = idp.refreshTokens.get(form.get('refresh_token') ?? '');
      if (grant === undefined || grant.expiresAt <= idp.now()) return fail('invalid_grant');
      // Cognito does not rotate refresh tokens unless asked to: the same one works until it expires.
      return sendJson(res, 200, mintTokens(idp, grant), cors);
    }
    default:
      return fail('unsupported_grant_type');
  }
}

/**
 * Cognito's `/oauth2/revoke` for a public client: the refresh token named by `token` stops
 * working at once. As RFC 7009 has it (and Cognito), an unknown or already revoked token is
 * answered 200 too, so a second sign-out is not an error; another client's id is not.
 */
async function revoke(idp: Idp, req: IncomingMessage, res: ServerResponse, cors: Record<string, string>) {
  const form = await readForm(req);
  const fail = (error: string, status = 400) => sendJson(res, status, { error }, cors);
  if (form.get('client_id') !== idp.options.clientId) return fail('invalid_client', 401);
  const refreshToken = form.get('token') ?? '';
  if (refreshToken === '') return fail('invalid_request');
  // Cognito revokes refresh tokens only; an ID or access token (a JWT) is another type.
  if (refreshToken.split('.').length === 3) return fail('unsupported_token_type');
  if (idp.refreshTokens.delete(refreshToken)) idp.kept?.touch();
  return send(res, 200, '', cors);
}

function logout(idp: Idp, req: IncomingMessage, res: ServerResponse, query: URLSearchParams) {
  if (query.get('client_id') !== idp.options.clientId) return errorPage(idp, res, 400, 'Unknown client_id.');
  const logoutUri = query.get('logout_uri') ?? '';
  if (!idp.logoutUris.includes(logoutUri))
    return errorPage(idp, res, 400, 'logout_uri is not a sign-out URL of this app client.');
  if (idp.sessions.delete(cookieValue(req, SESSION_COOKIE) ?? '')) idp.kept?.touch();
  return redirect(res, logoutUri, {
    'set-cookie': `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`,
  });
}

/** The user-pool API's target for signing a user out of every device. */
export const ADMIN_GLOBAL_SIGN_OUT_TARGET = 'AWSCognitoIdentityProviderService.AdminUserGlobalSignOut';

/**
 * Cognito's user-pool API at `POST /`, `AdminUserGlobalSignOut` only (the admin's "sign out
 * everywhere"): every refresh token and managed-login session of the user, named by username (its
 * sub) or email, ends. No SigV4 check here: locally the caller is the shop itself.
 */
async function userPoolApi(idp: Idp, req: IncomingMessage, res: ServerResponse) {
  const amzJson = { 'content-type': 'application/x-amz-json-1.1' };
  const fail = (type: string, message: string) => sendJson(res, 400, { __type: type, message }, amzJson);
  if (req.headers['x-amz-target'] !== ADMIN_GLOBAL_SIGN_OUT_TARGET)
    return fail('UnknownOperationException', 'Only AdminUserGlobalSignOut is stood in for.');
  const body = z
    .object({ Username: z.string(), UserPoolId: z.string() })
    .safeParse(JSON.parse((await readBody(req)) || '{}'));
  if (!body.success) return fail('InvalidParameterException', 'Username and UserPoolId are required.');
  const name = body.data.Username.toLowerCase();
  const isUser = (grant: Omit<Grant, 'scope'>) =>
    grant.sub === body.data.Username || grant.user.email.toLowerCase() === name;
  if (![...idp.subs].some(([email, sub]) => email === name || sub === body.data.Username))
    return fail('UserNotFoundException', 'User does not exist.');
  for (const store of [idp.refreshTokens, idp.sessions] as const)
    for (const [id, grant] of store) if (isUser(grant)) store.delete(id);
  idp.kept?.touch();
  return sendJson(res, 200, {}, amzJson);
}

function discovery(idp: Idp) {
  const { issuer } = idp;
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth2/authorize`,
    token_endpoint: `${issuer}/oauth2/token`,
    end_session_endpoint: `${issuer}/logout`,
    revocation_endpoint: `${issuer}/oauth2/revoke`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    scopes_supported: idp.scopes,
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    token_endpoint_auth_methods_supported: ['none'],
  };
}

async function handle(idp: Idp, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const origin = req.headers.origin;
  const cors: Record<string, string> =
    origin !== undefined && idp.origins.has(origin)
      ? { 'access-control-allow-origin': origin, vary: 'Origin' }
      : {};
  switch (`${req.method} ${url.pathname}`) {
    case 'GET /oauth2/authorize':
      return authorize(idp, req, res, url.searchParams);
    case 'POST /login':
      return login(idp, req, res);
    case 'OPTIONS /oauth2/token':
    case 'OPTIONS /oauth2/revoke':
      return send(res, 204, '', {
        ...cors,
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'content-type',
        'access-control-max-age': '600',
      });
    case 'POST /oauth2/token':
      return token(idp, req, res, cors);
    case 'POST /oauth2/revoke':
      return revoke(idp, req, res, cors);
    case 'POST /':
      return userPoolApi(idp, req, res);
    case 'GET /logout':
      return logout(idp, req, res, url.searchParams);
    case 'GET /.well-known/jwks.json':
      return sendJson(res, 200, { keys: [idp.key.jwk] }, { 'access-control-allow-origin': '*' });
    case 'GET /.well-known/openid-configuration':
      return sendJson(res, 200, discovery(idp));
    case 'GET /':
      return sendPage(
        idp,
        res,
        200,
        page(
          'Local sign-in',
          "<h1>Local sign-in</h1>\n<p>The local stand-in for the shop's Cognito sign-in. Open the shop's <code>/admin</code> page to sign in.</p>",
        ),
      );
    default:
      return sendJson(res, 404, { error: 'not_found' });
  }
}

async function listen(idp: Idp): Promise<Server> {
  const server: Server = createServer((req, res) => {
    handle(idp, req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 400, { error: 'invalid_request' });
      else res.end();
    });
  });
  const port = await new Promise<number>((done, fail) => {
    server.once('error', (error) =>
      fail(
        new Error(
          portMessage('Identity provider', { port: idp.options.port, host: 'all interfaces' }, error),
          {
            cause: error,
          },
        ),
      ),
    );
    server.listen(idp.options.port, () => done((server.address() as AddressInfo).port));
  });
  idp.issuer = `http://localhost:${port}`;
  return server;
}

/**
 * Starts the local identity provider: `GET /oauth2/authorize` (sign-in page, or straight back
 * with a code while its session lasts), `POST /login` (the form), `POST /oauth2/token`
 * (authorization_code with the PKCE verifier; refresh_token), `POST /oauth2/revoke` (a refresh
 * token, as Cognito's revocation endpoint), `GET /logout` (Cognito's: `client_id` and a registered
 * `logout_uri`), `POST /` (the user-pool API's AdminUserGlobalSignOut), `/.well-known/jwks.json`
 * and the OpenID discovery document. The token and revocation endpoints answer CORS for the
 * redirect URIs' origins.
 */
export async function startIdentityProvider(options: IdentityProviderOptions): Promise<IdentityProvider> {
  const idp = createIdp(options);
  const server = await listen(idp);
  // Forget what has expired now and then, so a long `npm start` does not grow.
  const sweeper = setInterval(() => {
    const t = idp.now();
    for (const store of [idp.pending, idp.codes, idp.sessions, idp.refreshTokens] as const) {
      for (const [id, entry] of store) if (entry.expiresAt <= t) store.delete(id);
    }
    idp.kept?.touch();
  }, 60_000);
  sweeper.unref();
  return {
    url: idp.issuer,
    clientId: options.clientId,
    jwksUrl: `${idp.issuer}/.well-known/jwks.json`,
    close: () =>
      new Promise((done) => {
        clearInterval(sweeper);
        idp.kept?.flush();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** The local merchant seeded by `npm start`, in the merchants group. */
export function localMerchant(email: string, password: string): LocalUser {
  return { email, password, groups: [MERCHANTS_GROUP] };
}
