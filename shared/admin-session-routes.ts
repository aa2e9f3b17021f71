// The admin's session routes (ADR 0055): where the page trades the sign-in's code, and later its
// refresh-token cookie, for short-lived tokens. Under the admin prefix, so CloudFront's API
// behaviour and the local shop route them, but without the JWT authorizer: the cookie is the
// credential. Their own table: admin-routes.ts lists the routes that need the ID token.
import * as z from 'zod/mini';

/** The cookie's Path: the browser sends the refresh token to these routes and nowhere else. */
export const ADMIN_SESSION_PATH = '/functions/v1/admin/session';

export const ADMIN_SESSION_ROUTES = {
  /** The sign-in's code and PKCE verifier, exchanged here: the refresh token goes into the cookie. */
  start: { method: 'POST', path: `${ADMIN_SESSION_PATH}/start` },
  /** The cookie's refresh token for new ID and access tokens. */
  refresh: { method: 'POST', path: `${ADMIN_SESSION_PATH}/refresh` },
  /** Revokes the cookie's refresh token (or, `everywhere`, every device's) and clears the cookie. */
  signOut: { method: 'POST', path: `${ADMIN_SESSION_PATH}/sign-out` },
} as const;
export type AdminSessionRouteName = keyof typeof ADMIN_SESSION_ROUTES;

/** How long a sign-in lasts: the app client's refresh token, and the cookie holding it. */
export const ADMIN_REFRESH_TOKEN_DAYS = 30;

/** The refresh token's cookie: HttpOnly, so no script of the page can read it. */
export const ADMIN_REFRESH_COOKIE = 'admin_refresh';

export const adminSessionStartSchema = z.strictObject({
  code: z.string().check(z.minLength(1), z.maxLength(2048)),
  codeVerifier: z.string().check(z.minLength(43), z.maxLength(128)),
  redirectUri: z.url({ protocol: /^https?$/ }),
});

export const adminSessionSignOutSchema = z.strictObject({ everywhere: z.optional(z.boolean()) });

/** What start and refresh answer: no refresh token, ever. */
export const adminSessionTokensSchema = z.object({
  idToken: z.string().check(z.minLength(1)),
  accessToken: z.string().check(z.minLength(1)),
  /** Seconds the two tokens last. */
  expiresIn: z.number().check(z.positive()),
});
export type AdminSessionTokens = z.output<typeof adminSessionTokensSchema>;

export const adminSignOutResponseSchema = z.object({
  /** Whether the identity provider confirmed it: false leaves the cookie cleared, the token to lapse. */
  revoked: z.boolean(),
});
