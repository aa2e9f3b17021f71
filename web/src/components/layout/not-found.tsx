import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { ORDER_PAGE_PREFIX } from '../../../../shared/site-routes';
import { paths } from '../../lib/paths';

/**
 * The path as the console may show it: an order page's token opens that order to whoever holds
 * it, and the console reaches extensions and RUM, so a refused `/order/…` is logged without it.
 */
function loggablePath(pathname: string): string {
  return pathname.startsWith(ORDER_PAGE_PREFIX) ? `${ORDER_PAGE_PREFIX}…` : pathname;
}

export function NotFoundPage() {
  const { pathname } = useLocation();

  useEffect(() => {
    // The unknown path is logged, so broken links show up in the browser console and RUM.
    console.error('404 Error: User attempted to access non-existent route:', loggablePath(pathname));
  }, [pathname]);

  return (
    <section className="card card--centered">
      <title>Page not found · Live Aquatics</title>
      <p className="eyebrow">Error 404</p>
      <h1>Oops! Page not found</h1>
      <Link className="button button--primary" to={paths.home}>
        Return to Home
      </Link>
    </section>
  );
}
