import * as z from 'zod/mini';
import {
  ADMIN_SESSION_ROUTES,
  type AdminSessionRouteName,
  adminSessionTokensSchema,
  adminSignOutResponseSchema,
} from '../../../../shared/admin-session-routes';
import { type AdminTokens, emailOf, TOKEN_REFRESH_MARGIN_MS } from '../../../../shared/admin-sign-in';

export const SESSION_ENDED = 'Your session has ended. Please sign in again.';
/** Offline, renewal is tried again this often, not in a tight loop once the tokens have expired. */
const RETRY_MS = 30_000;

/** A page opened offline (ADR 0055): no tokens yet, so renewal is due at once and retried. */
export const OFFLINE_TOKENS: AdminTokens = {
  idToken: '',
  accessToken: '',
  refreshToken: undefined,
  expiresAt: 0,
  email: undefined,
};

/**
 * One call to a session route (ADR 0055); the browser sends the HttpOnly cookie itself. JSON, so a
 * cross-site page could not send it without a preflight the API never answers.
 */
function sessionCall(origin: string, name: AdminSessionRouteName, body: unknown = {}): Promise<Response> {
  return fetch(`${origin}${ADMIN_SESSION_ROUTES[name].path}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  });
}

async function tokensOf(response: Response, now = Date.now()): Promise<AdminTokens | undefined> {
  if (!response.ok) return undefined;
  const parsed = z.safeParse(adminSessionTokensSchema, await response.json().catch(() => undefined));
  if (!parsed.success) return undefined;
  const { idToken, accessToken, expiresIn } = parsed.data;
  return {
    idToken,
    accessToken,
    refreshToken: undefined,
    expiresAt: now + expiresIn * 1000,
    email: emailOf(idToken),
  };
}

/** The sign-in's code traded at the session route: the refresh token stays in its cookie. Throws when refused. */
export async function startSession(
  origin: string,
  grant: { code: string; codeVerifier: string; redirectUri: string },
): Promise<AdminTokens> {
  const tokens = await tokensOf(await sessionCall(origin, 'start', grant));
  if (tokens === undefined) throw new Error('The sign-in was refused');
  return tokens;
}

export type Resumed =
  | { kind: 'signed-in'; tokens: AdminTokens }
  | { kind: 'signed-out' }
  | { kind: 'offline' };

/** A page load's session: the cookie's refresh token still mints tokens; `offline` when unreachable. */
export async function resumeSession(origin: string): Promise<Resumed> {
  let response: Response;
  try {
    response = await sessionCall(origin, 'refresh');
  } catch {
    return { kind: 'offline' };
  }
  if (response.status >= 500) return { kind: 'offline' };
  const tokens = await tokensOf(response);
  return tokens === undefined ? { kind: 'signed-out' } : { kind: 'signed-in', tokens };
}

/**
 * The merchant's tokens, in memory only (the refresh token is an HttpOnly cookie). Renewed before
 * expiry by a timer and, should it have slept (a phone's background tab), before the next request.
 */
export class AdminSession {
  #tokens: AdminTokens | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #refreshing: Promise<AdminTokens | undefined> | undefined;

  constructor(
    private readonly origin: string,
    tokens: AdminTokens,
    private readonly onEnd: (message: string) => void,
  ) {
    this.#tokens = tokens;
    this.#schedule();
  }

  /** The signed-in merchant's email, from the ID token. */
  get email(): string | undefined {
    return this.#tokens?.email;
  }

  /** A current ID token for the API's `Authorization` header, or undefined once signed out. */
  async idToken(): Promise<string | undefined> {
    const tokens = this.#tokens;
    if (tokens === undefined) return undefined;
    if (Date.now() < tokens.expiresAt - TOKEN_REFRESH_MARGIN_MS) return tokens.idToken;
    // Unreachable renewal keeps the old token: offline only the service worker's copies answer.
    return (await this.#refresh())?.idToken ?? this.#tokens?.idToken;
  }

  /** Ends the session: the API refused the token (401), or the merchant asked. */
  end(message: string): void {
    if (this.#tokens === undefined) return;
    this.forget();
    this.onEnd(message);
  }

  /** Revokes the cookie's refresh token (`everywhere`: every device's). @returns whether it was confirmed. */
  async signOut(everywhere = false): Promise<boolean> {
    this.forget();
    try {
      const response = await sessionCall(this.origin, 'signOut', everywhere ? { everywhere } : {});
      const answer = z.safeParse(adminSignOutResponseSchema, await response.json());
      return response.ok && answer.success && answer.data.revoked;
    } catch {
      return false;
    }
  }

  /** Drops the tokens and the renewal timer, telling no one (sign-out does its own navigation). */
  forget(): void {
    this.#tokens = undefined;
    clearTimeout(this.#timer);
  }

  #schedule() {
    clearTimeout(this.#timer);
    const tokens = this.#tokens;
    if (tokens === undefined) return;
    const wait = Math.max(0, tokens.expiresAt - TOKEN_REFRESH_MARGIN_MS - Date.now());
    this.#timer = setTimeout(() => void this.#refresh(), wait);
  }

  #refresh(): Promise<AdminTokens | undefined> {
    this.#refreshing ??= this.#renew().finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  async #renew(): Promise<AdminTokens | undefined> {
    try {
      const tokens = await tokensOf(await sessionCall(this.origin, 'refresh'));
      if (this.#tokens === undefined) return undefined;
      if (tokens === undefined) {
        this.end(SESSION_ENDED);
        return undefined;
      }
      this.#tokens = tokens;
      this.#schedule();
      return tokens;
    } catch {
      // Unreachable, not refused: keep the tokens; the next request or the retry tries again.
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => void this.#refresh(), RETRY_MS);
      return undefined;
    }
  }
}
