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
 * The pages whose HTML is rendered at build time, so their content paints before any script runs
 * and stays readable without JavaScript. The success page is written in its "Checking your
 * payment..." state, the first thing it shows for any session; the order page in its loading
 * state, the same for any token; the 404 page for any unknown path.
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

/**
 * Which prerendered page the app would show first at this address, matched as `<Routes>`
 * matches (so `/privacy/` is `/privacy`); undefined when none fits (the success page without a
 * session id redirects). The app hydrates the HTML only when this equals the page it was given.
 */
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
