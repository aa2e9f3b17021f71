import { matchPath } from 'react-router-dom';
import { paths, policyPaths } from '../lib/paths';

/** A page written out as HTML at build time: `key` names it, `url` is where it is rendered. */
export interface PrerenderedPage {
  key: string;
  /** File name in the build; the static server and CloudFront serve it for the page's path. */
  file: string;
  url: string;
}

const NOT_FOUND_KEY = 'not-found';

/**
 * The pages rendered at build time, so they paint before any script: the success page in its
 * "Checking your payment..." state, the order page loading, and the 404 page.
 */
export const PRERENDERED_PAGES: readonly PrerenderedPage[] = [
  { key: paths.home, file: 'index.html', url: paths.home },
  { key: paths.success, file: 'success.html', url: `${paths.success}?session_id=cs_test_prerendered` },
  // In its "Loading your order…" state, with its noindex and no-referrer in the head from the start.
  { key: paths.order, file: 'order.html', url: '/order/prerendered' },
  { key: policyPaths.privacy, file: 'privacy.html', url: policyPaths.privacy },
  { key: policyPaths.terms, file: 'terms.html', url: policyPaths.terms },
  { key: policyPaths.contact, file: 'contact.html', url: policyPaths.contact },
  { key: NOT_FOUND_KEY, file: '404.html', url: '/404' },
];

const ROUTE_PATHS = [paths.home, paths.success, paths.order, ...Object.values(policyPaths)];

/** The prerendered page the app would show first here, matched as `<Routes>` does (hydrate only then). */
export function prerenderedPageAt({
  pathname,
  search,
}: {
  pathname: string;
  search: string;
}): string | undefined {
  const route = ROUTE_PATHS.find((path) => matchPath(path, pathname) !== null);
  if (route === undefined) return NOT_FOUND_KEY;
  if (route === paths.success) {
    return new URLSearchParams(search).get('session_id')?.trim() ? paths.success : undefined;
  }
  return route;
}
