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

/** One page as the first render draws it: `routes` in a static router inside its entry's providers. */
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

/** Every prerendered page as the browser's first render draws it, for the build to write (Node, build time). */
export async function renderPages(): Promise<RenderedPage[]> {
  const pages: RenderedPage[] = [];
  for (const page of PRERENDERED_PAGES) pages.push(await renderPage(page, <AppRoutes />, AppProvider));
  pages.push(await renderPage(ADMIN_PAGE, <AdminRoutes />, AdminProvider));
  return pages;
}
