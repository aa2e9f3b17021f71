import type { SellerClaims } from '../../shared/seller-claims';
import type { SiteConfig } from '../../shared/stage-config';

/** What the browser app needs to know about its deployment. */
export interface AppConfig {
  /** Origin the API is served from (the page's own: CloudFront and the local stack serve both), without a trailing slash. */
  apiOrigin: string;
  /** The public, anonymous-level bearer sent with the checkout request; sent only when configured. */
  publicKey: string | undefined;
  /** The stage's dispatch cut-off, as the Lambdas have it, so the page shows the date the server will use. */
  dispatchCutoffHours: number;
  /** The stage's trial-run sentence and promotion (each absent when the stage turned it off). */
  claims: SellerClaims;
}

/** The stage's settings, checked by vite.config.ts, which puts in only the answer (`__SITE_CONFIG__`). */
export const SITE: SiteConfig = __SITE_CONFIG__;

/** The app's configuration, read once; components get it through AppProvider so tests can pass their own. */
export const config: AppConfig = {
  apiOrigin: (typeof window === 'undefined' ? 'http://localhost' : window.location.origin).replace(
    /\/+$/,
    '',
  ),
  publicKey: SITE.publicKey,
  dispatchCutoffHours: SITE.dispatchCutoffHours,
  claims: SITE.claims,
};
