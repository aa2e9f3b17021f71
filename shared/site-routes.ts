// The site's pages, declared once for the servers that must agree on them (CloudFront's function
// in infra/, the local static site) and the web router: any other path is the 404 page.

/** Pages at a fixed path, each served from its prerendered file (`/` from index.html, `/success` from success.html). */
export const SITE_PAGES: readonly string[] = ['/', '/success', '/privacy', '/terms', '/contact', '/admin'];

/** The customer's order page, `/order/<token>`: one page, order.html, for every token. */
export const ORDER_PAGE_PREFIX = '/order/';

/** Prefixes of pages whose path carries one value after them, and nothing more. */
export const SITE_PAGE_PREFIXES: readonly string[] = [ORDER_PAGE_PREFIX];

/** The page a path is, by its prerendered file's name (`index`, `success`, `order`...), or undefined. */
export function sitePage(pathname: string): string | undefined {
  if (SITE_PAGES.includes(pathname)) return pathname === '/' ? 'index' : pathname.slice(1);
  const prefix = SITE_PAGE_PREFIXES.find((p) => pathname.startsWith(p));
  const value = prefix === undefined ? '' : pathname.slice(prefix.length);
  return prefix !== undefined && value !== '' && !value.includes('/') ? prefix.slice(1, -1) : undefined;
}
