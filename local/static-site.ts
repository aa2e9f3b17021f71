import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';
import { sitePage } from '../shared/site-routes';

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

/** Types CloudFront compresses; images and fonts are compressed already. */
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json', '.txt', '.webmanifest']);
/** CloudFront compresses files from 1,000 bytes to 10 MB; smaller ones gain nothing. */
const MIN_COMPRESS_BYTES = 1000;

type Encoding = 'br' | 'gzip';
const compress: Record<Encoding, (data: Buffer) => Promise<Buffer>> = {
  br: (data) =>
    promisify(brotliCompress)(data, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: data.length },
    }),
  gzip: (data) => promisify(gzip)(data, { level: 9 }),
};

/** Brotli when the browser takes it, else gzip, else none: CloudFront's order of preference. */
function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  const accepted = new Map(
    (acceptEncoding ?? '').split(',').map((part) => {
      const [name = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return [name, q ? Number(q.slice(2)) : 1] as const;
    }),
  );
  const takes = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (takes('br')) return 'br';
  if (takes('gzip')) return 'gzip';
  return undefined;
}

/** A file of the build, with what changes when it is rebuilt. */
export interface SiteFile {
  file: string;
  version: string;
}

/**
 * The build's files as the site bucket holds them: a file by its path, and sending one with its
 * type, the compression CloudFront applies and the given headers. The rehearsal serves these as the
 * bucket origin behind the template's CloudFront Function; {@link createStaticSite} routes itself.
 */
export function createSiteFiles(root: string) {
  // Compressed bodies by file, kept while the file is unchanged (a rebuild changes size or time).
  const compressed = new Map<string, { version: string; body: Promise<Buffer> }>();

  async function readFileIfPresent(file: string): Promise<SiteFile | undefined> {
    const info = await stat(file).catch(() => undefined);
    return info?.isFile() ? { file, version: `${info.size}:${info.mtimeMs}` } : undefined;
  }

  /** The file at a URL path inside the build, or undefined (a missing key, or a path outside it). */
  async function find(pathname: string) {
    const file = normalize(join(root, pathname));
    return file.startsWith(root + sep) ? readFileIfPresent(file) : undefined;
  }

  /** The HTML for a page path: its own prerendered file when the build has one, else index.html. */
  async function pageFile(page: string | undefined) {
    const own = page === undefined ? '404.html' : `${page}.html`;
    return (await readFileIfPresent(join(root, own))) ?? (await readFileIfPresent(join(root, 'index.html')));
  }

  async function body(file: string, version: string, encoding: Encoding | undefined): Promise<Buffer> {
    const raw = await readFile(file);
    if (!encoding) return raw;
    const key = `${encoding}:${file}`;
    const cached = compressed.get(key);
    if (cached?.version === version) return cached.body;
    const entry = { version, body: compress[encoding](raw) };
    compressed.set(key, entry);
    return entry.body;
  }

  async function send(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    found: SiteFile,
    headers: Record<string, string>,
  ) {
    const extension = extname(found.file);
    const size = (await stat(found.file)).size;
    const encoding =
      COMPRESSIBLE.has(extension) && size >= MIN_COMPRESS_BYTES
        ? chooseEncoding(req.headers['accept-encoding'])
        : undefined;
    const data = await body(found.file, found.version, encoding);
    res.writeHead(status, {
      'content-type': CONTENT_TYPES[extension] ?? 'application/octet-stream',
      'content-length': data.length,
      ...(encoding ? { 'content-encoding': encoding } : {}),
      ...(COMPRESSIBLE.has(extension) ? { vary: 'Accept-Encoding' } : {}),
      'x-content-type-options': 'nosniff',
      ...headers,
    });
    res.end(data);
  }

  return { find, pageFile, send };
}

/**
 * Serves the Vite build like the deployed CloudFront distribution does: files as they are, each
 * app page as its prerendered HTML (`/success` from `success.html`, `/order/<token>` from
 * `order.html`, falling back to `index.html`),
 * and every other path as `404.html` with HTTP status 404 so crawlers see the right status. Text
 * is compressed as CloudFront compresses it (brotli or gzip by Accept-Encoding, from 1,000
 * bytes), so local Lighthouse figures match the deployed site's.
 */
export function createStaticSite(root: string) {
  const { find, pageFile, send } = createSiteFiles(root);

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Bad request: malformed URL');
      return;
    }
    const page = sitePage(pathname);
    if (page === undefined) {
      const found = await find(pathname);
      if (found) {
        const immutable = pathname.startsWith('/assets/');
        await send(req, res, 200, found, {
          'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        });
        return;
      }
    }
    const found = await pageFile(page);
    if (!found) {
      res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('The web build has no index.html');
      return;
    }
    await send(req, res, page === undefined ? 404 : 200, found, {
      'cache-control': 'no-cache',
      // The order page's address holds its token: it is sent on to nobody (the page says so too).
      'referrer-policy': page === 'order' ? 'no-referrer' : 'strict-origin-when-cross-origin',
      ...(page === 'order' && { 'x-robots-tag': 'noindex, nofollow' }),
    });
  };
}
