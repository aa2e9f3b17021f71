import { type ReactNode, StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom';
import { AdminProvider } from './admin-provider';
import { ADMIN_PAGE, AdminRoutes } from './admin-routes';
import { PRERENDERED_PAGES, type PrerenderedPage } from './pages';
import { AppProvider } from './provider';
import { AppRoutes } from './routes';

export interface RenderedPage {
  key: string;
  file: string;
  /** The elements React hoists to the document head (the page's <title>). */
  head: string;
  /** The markup of #root. */
  body: string;
}

// The elements renderToString puts first because React hoists them into <head>.
const HOISTED = /^(?:<title>[^<]*<\/title>|<meta [^>]*\/?>|<link [^>]*\/?>)*/;

/**
 * One page as the browser's first render will draw it: `routes` in a static router at its
 * address, inside the providers of its entry (the shop's, or the admin's).
 */
async function renderPage(
  { key, file, url }: PrerenderedPage,
  routes: ReactNode,
  Providers: (props: { children: ReactNode }) => ReactNode,
): Promise<RenderedPage> {
  // prerender, unlike renderToString, waits for pages that load on demand (React.lazy).
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <Providers>
        <StaticRouter location={url}>{routes}</StaticRouter>
      </Providers>
    </StrictMode>,
  );
  let html = '';
  for await (const chunk of prelude) html += String(chunk);
  const head = HOISTED.exec(html)?.[0] ?? '';
  return { key, file, head, body: html.slice(head.length) };
}

/**
 * Renders every prerendered page as the browser's first render will (the same tree as main.tsx,
 * or admin-main.tsx for the admin, with a static router), for the build to write into the HTML
 * files. Runs in Node at build time only.
 */
export async function renderPages(): Promise<RenderedPage[]> {
  const pages: RenderedPage[] = [];
  for (const page of PRERENDERED_PAGES) pages.push(await renderPage(page, <AppRoutes />, AppProvider));
  pages.push(await renderPage(ADMIN_PAGE, <AdminRoutes />, AdminProvider));
  return pages;
}
