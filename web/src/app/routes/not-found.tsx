import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { paths } from '../paths';

export function NotFoundPage() {
  const { pathname } = useLocation();

  useEffect(() => {
    // The unknown path is logged, so broken links show up in the browser console and RUM.
    console.error('404 Error: User attempted to access non-existent route:', pathname);
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
