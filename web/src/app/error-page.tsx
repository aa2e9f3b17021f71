import { Link } from 'react-router-dom';
import { SiteFooter } from '../components/layout/site-footer';
import { paths } from '../lib/paths';

/** "Unexpected Application Error!": shown by the error boundary instead of a page that threw. */
export function ErrorPage() {
  // The layout may be what failed, so this page brings its own <main>.
  return (
    <div className="app-shell">
      <main className="page">
        <section className="card card--centered">
          <title>Something went wrong · Live Aquatics</title>
          <h1>Unexpected Application Error!</h1>
          <p>Sorry, something went wrong on our side. Please reload the page or go back to the shop.</p>
          <Link className="button button--primary" to={paths.home}>
            Return to Home
          </Link>
        </section>
      </main>
      <SiteFooter />
    </div>
  );
}
