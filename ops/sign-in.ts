import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import * as z from 'zod/mini';
import {
  ADMIN_CONFIG_PATH,
  type AdminConfig,
  adminConfigSchema,
  CLI_LOOPBACK_PORTS,
  cliCallbackUrl,
} from '../shared/admin-config';
import {
  authorizeUrl,
  exchangeCode,
  randomString,
  refreshTokens,
  revokeRefreshToken,
  TOKEN_REFRESH_MARGIN_MS,
} from '../shared/admin-sign-in';
import { RefusedError } from '../shared/refusal';
import { type AdminTransport, SignedOutError } from './admin-client';
import { deleteSignIn, readSignIn, type SignIn, writeSignIn } from './sign-in-store';

type Env = Readonly<Record<string, string | undefined>>;

export interface SignInIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: Env;
  now: () => Date;
  /** Whether someone can answer at a terminal: login then also takes the address pasted back. */
  isTerminal?: boolean;
  /** Asks at the terminal; the signal withdraws the question once the browser came back by itself. */
  ask?(question: string, options?: { signal?: AbortSignal }): Promise<string>;
}

export interface ApiTarget {
  /** `local`, or `stage-<name>`: the sign-in file's name. */
  key: string;
  description: string;
  loginCommand: string;
  /** The site's origin, found when signing in (later commands read it from the sign-in). */
  findSite(): Promise<string>;
  /** The site a flag or the environment names: a sign-in made on another site is refused there. */
  namedSite?: { url: string; by: string } | undefined;
}

/** Two addresses of one site: the same origin (a trailing slash or a path does not count). */
function sameSite(a: string, b: string): boolean {
  const origin = (url: string) =>
    URL.canParse(url.trim()) ? new URL(url.trim()).origin : url.trim().replace(/\/+$/, '');
  return origin(a) === origin(b);
}

const LOGIN_TIMEOUT_MS = 5 * 60_000;

async function readAdminConfig(siteUrl: string): Promise<AdminConfig> {
  let response: Response;
  try {
    response = await fetch(`${siteUrl}${ADMIN_CONFIG_PATH}`, { headers: { Accept: 'application/json' } });
  } catch (error) {
    throw new RefusedError(
      `${siteUrl} could not be reached (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  const parsed = z.safeParse(adminConfigSchema, response.ok ? await response.json() : undefined);
  if (!parsed.success)
    throw new RefusedError(`${siteUrl}${ADMIN_CONFIG_PATH} does not say where to sign in.`);
  return parsed.data;
}

/** Listens on the first free loopback port the app client knows, on both loopback addresses. */
async function listenOnLoopback(
  handle: Parameters<typeof createServer>[1],
): Promise<{ port: number; close(): void }> {
  const listen = (server: Server, port: number, host: string) =>
    new Promise<boolean>((done) => {
      server.once('error', () => done(false));
      server.listen(port, host, () => done(true));
    });
  for (const port of CLI_LOOPBACK_PORTS) {
    const v4 = createServer(handle);
    if (!(await listen(v4, port, '127.0.0.1'))) continue;
    // A browser may resolve localhost to ::1 first; without IPv6 the v4 server is enough.
    const v6 = createServer(handle);
    const both = await listen(v6, port, '::1');
    return {
      port,
      close() {
        for (const server of both ? [v4, v6] : [v4]) {
          server.closeAllConnections();
          server.close();
        }
      },
    };
  }
  throw new RefusedError(
    `Ports ${CLI_LOOPBACK_PORTS.join(', ')} are all in use: the sign-in comes back to one of them. Close what uses them and run login again.`,
  );
}

const PAGE = (text: string) =>
  `<!doctype html><html lang="en-GB"><meta charset="utf-8"><title>Live Aquatics orders</title><p>${text}</p></html>`;

/** Opens the address in the user's browser where there is one; the address is printed either way. */
function openBrowser(url: string, env: Env): void {
  if (env.ORDERS_NO_BROWSER) return;
  const [command, ...args] =
    process.platform === 'darwin'
      ? ['open', url]
      : process.platform === 'win32'
        ? ['cmd', '/c', 'start', '""', url]
        : ['xdg-open', url];
  if (process.platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) return;
  try {
    const child = spawn(command ?? 'open', args, { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No browser: the printed address is enough.
  }
}

type Answer = { code: string } | { error: string };

/** What a redirect of this attempt (its state checked) brings: the code, or why there is none. */
function answerOf(url: URL): Answer {
  const code = url.searchParams.get('code');
  const error = url.searchParams.get('error');
  return code === null
    ? { error: url.searchParams.get('error_description') ?? error ?? 'no code' }
    : { code };
}

/** Wrong addresses a paste may bring before login gives up (exit 1). */
const PASTE_ATTEMPTS = 3;

/** A pasted address counts only with this attempt's callback and state, as the loopback checks. */
async function pastedAnswer(
  ask: NonNullable<SignInIo['ask']>,
  io: SignInIo,
  expected: { redirectUri: string; state: string },
  signal: AbortSignal,
): Promise<Answer> {
  const callback = new URL(expected.redirectUri);
  let wrong = 0;
  while (wrong < PASTE_ATTEMPTS) {
    let line: string;
    try {
      line = (await ask('Address the browser ended on (or wait for the browser): ', { signal })).trim();
    } catch {
      // Withdrawn (the browser came back) or no more input: the loopback and the timeout remain.
      return new Promise<Answer>(() => undefined);
    }
    if (line === '') continue;
    wrong += 1;
    if (!URL.canParse(line)) {
      io.err(
        `That is not an address: paste the whole address from the browser's address bar (${callback}?code=…).`,
      );
      continue;
    }
    const url = new URL(line);
    if (url.origin !== callback.origin || url.pathname !== callback.pathname) {
      io.err(
        `That address is not this sign-in's: it starts ${callback}?code=… (the page itself may not load).`,
      );
      continue;
    }
    // A stale tab's or another login's address: its code was not asked for with this verifier.
    if (url.searchParams.get('state') !== expected.state) {
      io.err(
        "That address belongs to another sign-in (its state is not this one's): paste the one this sign-in ended on.",
      );
      continue;
    }
    return answerOf(url);
  }
  throw new RefusedError(
    `no address of this sign-in was pasted in ${PASTE_ATTEMPTS} tries. Run login again.`,
  );
}

function remoteHints(redirectUri: string, canPaste: boolean): string[] {
  const { port } = new URL(redirectUri);
  const forward = `ssh -L ${port}:localhost:${port} <this machine>`;
  return canPaste
    ? [
        'No browser on this machine (over SSH)? Open the address on your own computer and paste back the',
        `address the browser ends on (${redirectUri}?code=…, even if the page does not load), or forward the port first: ${forward}.`,
      ]
    : [
        `No browser on this machine (over SSH)? Forward the port from your own computer first (${forward}),`,
        'then open the address there: the sign-in comes back through the tunnel.',
      ];
}

/** `login`: authorization code with PKCE; the code from the loopback or a pasted address, whichever first. */
export async function login(target: ApiTarget, io: SignInIo): Promise<void> {
  const siteUrl = (await target.findSite()).replace(/\/+$/, '');
  const config = await readAdminConfig(siteUrl);
  const state = randomString();
  const verifier = randomString();
  let finish: (result: Answer) => void = () => undefined;
  const arrived = new Promise<Answer>((done) => {
    finish = done;
  });
  const loopback = await listenOnLoopback((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    const code = url.searchParams.get('code');
    // Another page's redirect (a stale tab) is not this sign-in's: it is ignored, not accepted.
    if (url.searchParams.get('state') !== state) {
      res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
      res.end(PAGE('This sign-in link is not the one the CLI is waiting for. Run login again.'));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PAGE(code === null ? 'Sign-in did not complete.' : 'Signed in: you can close this tab.'));
    finish(answerOf(url));
  });
  const redirectUri = cliCallbackUrl(loopback.port);
  const ask = io.isTerminal ? io.ask : undefined;
  const withdraw = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const url = await authorizeUrl(config, { redirectUri, state, verifier });
    io.out(`Sign in to ${target.description} in your browser: ${url}`);
    for (const line of remoteHints(redirectUri, ask !== undefined)) io.out(line);
    openBrowser(url, io.env);
    const result = await Promise.race([
      arrived,
      ...(ask === undefined ? [] : [pastedAnswer(ask, io, { redirectUri, state }, withdraw.signal)]),
      new Promise<{ error: string }>((done) => {
        timer = setTimeout(() => done({ error: 'no answer within 5 minutes' }), LOGIN_TIMEOUT_MS);
      }),
    ]);
    // The question is withdrawn before anything else is printed, so no line lands after its prompt.
    withdraw.abort();
    if ('error' in result) throw new RefusedError(`Sign-in did not complete (${result.error}).`);
    const tokens = await exchangeCode(config, { code: result.code, redirectUri, verifier }, () =>
      io.now().getTime(),
    ).catch((error: unknown) => {
      throw new RefusedError(
        `Sign-in could not be completed (${error instanceof Error ? error.message : String(error)}).`,
      );
    });
    const file = writeSignIn(io.env, target.key, { siteUrl, config, tokens });
    io.out(
      `Signed in${tokens.email ? ` as ${tokens.email}` : ''} to ${target.description} (kept in ${file}).`,
    );
  } finally {
    clearTimeout(timer);
    withdraw.abort();
    loopback.close();
  }
}

/** `logout`: the refresh token revoked at the provider, and the sign-in forgotten. */
export async function logout(target: ApiTarget, io: SignInIo): Promise<void> {
  const signIn = readSignIn(io.env, target.key);
  if (signIn === undefined) {
    io.out(`Not signed in to ${target.description}.`);
    return;
  }
  const revoked =
    signIn.tokens.refreshToken === undefined ||
    (await revokeRefreshToken(signIn.config, signIn.tokens.refreshToken));
  deleteSignIn(io.env, target.key);
  io.out(`Signed out of ${target.description}.`);
  // The file is gone either way; a token the provider did not confirm revoked lapses on its own.
  if (!revoked)
    io.err('The sign-in service did not confirm it revoked the sign-in: it lapses within 12 hours.');
}

/** The kept sign-in's site and an ID token, renewed (and kept again) once it has expired. */
export function signedInTransport(target: ApiTarget, io: SignInIo): AdminTransport {
  let signIn: SignIn | undefined = readSignIn(io.env, target.key);
  if (signIn === undefined) throw new SignedOutError(`Not signed in to ${target.description}.`);
  const kept = signIn;
  // The sign-in remembers where it was made; acting there when the flag or environment now names
  // another shop would send a refund meant for one shop to another.
  const named = target.namedSite;
  if (named !== undefined && !sameSite(named.url, kept.siteUrl)) {
    throw new RefusedError(
      `signed in to ${kept.siteUrl} but ${named.by} names ${named.url}: run login for it`,
    );
  }
  return {
    origin: kept.siteUrl,
    email: kept.tokens.email,
    fetch: (input, init) => fetch(input, init),
    async idToken() {
      const current: SignIn = signIn ?? kept;
      if (io.now().getTime() < current.tokens.expiresAt - TOKEN_REFRESH_MARGIN_MS)
        return current.tokens.idToken;
      const refreshToken = current.tokens.refreshToken;
      if (refreshToken === undefined) throw new SignedOutError('The sign-in has expired.');
      const tokens = await refreshTokens(current.config, refreshToken, () => io.now().getTime()).catch(() => {
        throw new SignedOutError('The sign-in has ended.');
      });
      signIn = { ...current, tokens: { ...tokens, email: tokens.email ?? current.tokens.email } };
      writeSignIn(io.env, target.key, signIn);
      return tokens.idToken;
    },
  };
}
