import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { PRERENDERED_PAGES } from './pages';
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
 * Renders every prerendered page as the browser's first render will (the same tree as
 * main.tsx, with a static router), for the build to write into the HTML files. Runs in Node at
 * build time only.
 */
export function renderPages(): RenderedPage[] {
  return PRERENDERED_PAGES.map(({ key, file, url }) => {
    const html = renderToString(
      <StrictMode>
        <AppProvider>
          <StaticRouter location={url}>
            <AppRoutes />
          </StaticRouter>
        </AppProvider>
      </StrictMode>,
    );
    const head = HOISTED.exec(html)?.[0] ?? '';
    return { key, file, head, body: html.slice(head.length) };
  });
}
