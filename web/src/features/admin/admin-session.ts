import type { AdminConfig } from '../../../../shared/admin-config';
import { type AdminTokens, refreshTokens, revokeRefreshToken } from './sign-in';

/** Tokens are renewed this long before they expire, so no request carries one about to lapse. */
const REFRESH_MARGIN_MS = 60_000;

/**
 * The signed-in merchant's tokens, in memory only (never localStorage: a script injected into the
 * page could read it, and a reload simply signs in again through the provider's own session).
 * Renewed with the refresh token shortly before expiry, by a timer and, should the timer have
 * slept (a phone's background tab), before the next request. When renewal is refused the session
 * ends and `onEnd` sends the merchant to sign in.
 */
export class AdminSession {
  #tokens: AdminTokens | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #refreshing: Promise<AdminTokens | undefined> | undefined;

  constructor(
    private readonly config: AdminConfig,
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
    if (Date.now() < tokens.expiresAt - REFRESH_MARGIN_MS) return tokens.idToken;
    return (await this.#refresh())?.idToken;
  }

  /** Ends the session: the API refused the token (401), or the merchant asked. */
  end(message: string): void {
    if (this.#tokens === undefined) return;
    this.forget();
    this.onEnd(message);
  }

  /**
   * The merchant's sign-out: drops the tokens and revokes the refresh token at the provider, so no
   * copy of it can renew the session. The page then goes to the provider's logout either way: a
   * merchant who pressed "Sign out" is signed out of this page even if the provider is unreachable.
   * @returns whether the provider confirmed the revocation (true when there was nothing to revoke).
   */
  async signOut(): Promise<boolean> {
    const refreshToken = this.#tokens?.refreshToken;
    this.forget();
    return refreshToken === undefined ? true : revokeRefreshToken(this.config, refreshToken);
  }

  /** Drops the tokens and the renewal timer, telling no one (sign-out does its own navigation). */
  forget(): void {
    this.#tokens = undefined;
    clearTimeout(this.#timer);
  }

  #schedule() {
    clearTimeout(this.#timer);
    const tokens = this.#tokens;
    if (tokens?.refreshToken === undefined) return;
    const wait = Math.max(0, tokens.expiresAt - REFRESH_MARGIN_MS - Date.now());
    this.#timer = setTimeout(() => void this.#refresh(), wait);
  }

  #refresh(): Promise<AdminTokens | undefined> {
    this.#refreshing ??= this.#renew().finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  async #renew(): Promise<AdminTokens | undefined> {
    const refreshToken = this.#tokens?.refreshToken;
    if (refreshToken === undefined) {
      this.end('Your session has ended. Please sign in again.');
      return undefined;
    }
    try {
      const tokens = await refreshTokens(this.config, refreshToken);
      if (this.#tokens === undefined) return undefined;
      this.#tokens = tokens;
      this.#schedule();
      return tokens;
    } catch {
      this.end('Your session has ended. Please sign in again.');
      return undefined;
    }
  }
}
