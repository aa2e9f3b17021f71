import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
};

/** Paths the app renders as real pages; any other path gets the app with a 404 status, as on CloudFront. */
const APP_ROUTES = new Set(['/', '/success', '/privacy', '/terms', '/contact']);

/**
 * Serves the Vite build like the deployed CloudFront distribution does: files as they are,
 * `/` and `/success` as the app, and every other path as the app with HTTP status 404 so the
 * app shows its own 404 page and crawlers see the right status.
 */
export function createStaticSite(root: string) {
  const indexHtml = readFile(join(root, 'index.html'));
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Bad request: malformed URL');
      return;
    }
    const file = normalize(join(root, pathname));
    const inside = file.startsWith(root + sep);
    if (inside && !APP_ROUTES.has(pathname)) {
      const info = await stat(file).catch(() => undefined);
      if (info?.isFile()) {
        const immutable = pathname.startsWith('/assets/');
        res.writeHead(200, {
          'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
          'content-length': info.size,
          'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
          'x-content-type-options': 'nosniff',
        });
        createReadStream(file).pipe(res);
        return;
      }
    }
    res.writeHead(APP_ROUTES.has(pathname) ? 200 : 404, {
      'content-type': CONTENT_TYPES['.html'] ?? 'text/html',
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'strict-origin-when-cross-origin',
    });
    res.end(await indexHtml);
  };
}
