// What /admin needs to sign in, served as `/admin-config.json`: written at deploy from the user pool's
// outputs (known only after the site is built) or by the local stack. One schema for writer and page.
import * as z from 'zod/mini';

/** Where the page fetches its sign-in settings, on the site's own origin. */
export const ADMIN_CONFIG_PATH = '/admin-config.json';

/**
 * Cognito's managed login endpoints, relative to its domain (and the local stand-in's): the page
 * uses the authorization code flow with PKCE, a public client, Cognito's revocation and logout endpoints.
 */
export const SIGN_IN_ENDPOINTS = {
  authorize: '/oauth2/authorize',
  token: '/oauth2/token',
  /** Cognito's token revocation: sign-out ends the refresh token, not only the managed login's session. */
  revoke: '/oauth2/revoke',
  logout: '/logout',
} as const;

/** The scopes the page asks for: an ID token carrying the merchant's email and groups. */
export const ADMIN_SCOPES = 'openid email';

/** The path Cognito sends the merchant back to after sign-in and sign-out (the app client's callback and logout URL). */
export const ADMIN_PAGE_PATH = '/admin';

/**
 * The CLI's sign-in comes back to the operator's own machine (RFC 8252's loopback redirect), on
 * the first of these ports that is free. The app client lists each as a callback URL: Cognito
 * matches a redirect_uri exactly, port included, so the ports are fixed rather than any free one.
 */
export const CLI_LOOPBACK_PORTS = [47815, 47816, 47817] as const;

/** `http://localhost:<port>/callback`: the CLI's redirect URI on one of its ports. */
export function cliCallbackUrl(port: number): string {
  return `http://localhost:${port}/callback`;
}

export const adminConfigSchema = z.strictObject({
  /** The managed login's base URL, e.g. `https://live-aquatics-shop-prod.auth.eu-west-2.amazoncognito.com`. */
  signInUrl: z.url({ protocol: /^https?$/ }),
  /** The admin page's app client id (public: no secret). */
  clientId: z.string().check(z.minLength(1)),
});
export type AdminConfig = z.output<typeof adminConfigSchema>;
