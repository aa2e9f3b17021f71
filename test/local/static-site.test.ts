import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticSite } from '../../local/static-site';

/** A build with prerendered pages, a 404 page, a large script and a small one. */
function writeBuild(root: string, pages: boolean) {
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>app</title><h1>Order page</h1>');
  if (pages) {
    writeFileSync(join(root, 'success.html'), '<!doctype html><title>app</title><h1>Checking payment</h1>');
    writeFileSync(join(root, '404.html'), '<!doctype html><title>app</title><h1>Not found page</h1>');
    writeFileSync(join(root, 'order.html'), '<!doctype html><title>app</title><h1>Loading your order</h1>');
  }
  writeFileSync(join(root, 'assets', 'app-123.js'), 'console.log(1)');
  writeFileSync(join(root, 'assets', 'big-456.js'), `const text = "${'daphnia '.repeat(500)}";`);
  writeFileSync(join(root, 'favicon.svg'), '<svg/>');
}

async function serve(root: string): Promise<{ server: Server; base: string }> {
  const server = createServer(createStaticSite(root));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A raw GET (fetch would decode the body and hide the encoding), with the given Accept-Encoding. */
function get(url: string, acceptEncoding?: string) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((done, fail) => {
    const headers = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    })
      .on('error', fail)
      .end();
  });
}

let site: { server: Server; base: string };
let plainSite: { server: Server; base: string };

beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), 'static-site-'));
  writeBuild(root, true);
  site = await serve(root);
  const plainRoot = mkdtempSync(join(tmpdir(), 'static-site-plain-'));
  writeBuild(plainRoot, false);
  plainSite = await serve(plainRoot);
});
afterAll(async () => {
  for (const { server } of [site, plainSite]) await new Promise<void>((done) => server.close(() => done()));
});

describe('the local static site, serving the build as CloudFront does', () => {
  it.each(['/', '/privacy', '/terms', '/contact', '/admin'])('serves %s with 200', async (path) => {
    const response = await fetch(`${site.base}${path}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>app</title>');
  });

  it('serves each page its own prerendered HTML: / the order page, /success its own file', async () => {
    expect(await (await fetch(`${site.base}/`)).text()).toContain('<h1>Order page</h1>');
    const success = await fetch(`${site.base}/success?session_id=cs_test_x`);
    expect(success.status).toBe(200);
    expect(await success.text()).toContain('<h1>Checking payment</h1>');
  });

  it('serves /order/<token> from order.html with 200, sending no referrer and asking not to be indexed', async () => {
    const order = await fetch(`${site.base}/order/AbC-12_x`);
    expect(order.status).toBe(200);
    expect(await order.text()).toContain('<h1>Loading your order</h1>');
    expect(order.headers.get('referrer-policy')).toBe('no-referrer');
    expect(order.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect((await fetch(`${site.base}/`)).headers.get('referrer-policy')).toBe(
      'strict-origin-when-cross-origin',
    );
  });

  it.each(['/order', '/order/', '/order/a/b', '/orders/abc'])(
    'serves %s as the 404 page: no token, or not one',
    async (path) => {
      const response = await fetch(`${site.base}${path}`);
      expect(response.status).toBe(404);
      expect(await response.text()).toContain('<h1>Not found page</h1>');
    },
  );

  it('falls back to index.html for a page the build did not prerender', async () => {
    const success = await fetch(`${plainSite.base}/success?session_id=cs_test_x`);
    expect(success.status).toBe(200);
    expect(await success.text()).toContain('<h1>Order page</h1>');
  });

  it.each(['/nope', '/success/extra', '/index.htm'])(
    'serves %s as 404.html with status 404',
    async (path) => {
      const response = await fetch(`${site.base}${path}`);
      expect(response.status).toBe(404);
      expect(await response.text()).toContain('<h1>Not found page</h1>');
    },
  );

  it('serves index.html with status 404 for an unknown path when the build has no 404.html', async () => {
    const response = await fetch(`${plainSite.base}/nope`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('<h1>Order page</h1>');
  });

  it('serves build files with their type, assets as immutable', async () => {
    const asset = await fetch(`${site.base}/assets/app-123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const icon = await fetch(`${site.base}/favicon.svg`);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.headers.get('cache-control')).toBe('no-cache');
  });

  it('never serves files outside the build folder', async () => {
    const response = await fetch(`${site.base}/%2e%2e/%2e%2e/etc/passwd`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('<title>app</title>');
  });

  it('answers a malformed URL with 400, not a crash', async () => {
    const response = await fetch(`${site.base}/%E0%A4%A`);
    expect(response.status).toBe(400);
  });
});

describe('compression, as CloudFront compresses', () => {
  const original = `const text = "${'daphnia '.repeat(500)}";`;

  it('sends brotli when the browser accepts it, even listed after gzip', async () => {
    const response = await get(`${site.base}/assets/big-456.js`, 'gzip, deflate, br');
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.vary).toBe('Accept-Encoding');
    expect(Number(response.headers['content-length'])).toBe(response.body.length);
    expect(response.body.length).toBeLessThan(original.length / 10);
    expect(brotliDecompressSync(response.body).toString()).toBe(original);
  });

  it('sends gzip to a browser without brotli, or one that refuses it with q=0', async () => {
    for (const accept of ['gzip, deflate', 'br;q=0, gzip']) {
      const response = await get(`${site.base}/assets/big-456.js`, accept);
      expect(response.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(response.body).toString()).toBe(original);
    }
  });

  it('sends the file as it is when no encoding is accepted', async () => {
    for (const accept of [undefined, 'identity']) {
      const response = await get(`${site.base}/assets/big-456.js`, accept);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.body.toString()).toBe(original);
    }
  });

  it('leaves files under 1,000 bytes as they are', async () => {
    const response = await get(`${site.base}/assets/app-123.js`, 'br, gzip');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body.toString()).toBe('console.log(1)');
  });

  it('compresses a page served for a route, with its status', async () => {
    const root = mkdtempSync(join(tmpdir(), 'static-site-big-'));
    writeBuild(root, true);
    const page = `<!doctype html><title>app</title><h1>Not found page</h1>${'<p>x</p>'.repeat(200)}`;
    writeFileSync(join(root, '404.html'), page);
    const big = await serve(root);
    try {
      const response = await get(`${big.base}/nope`, 'gzip');
      expect(response.status).toBe(404);
      expect(response.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(response.body).toString()).toBe(page);
    } finally {
      await new Promise<void>((done) => big.server.close(() => done()));
    }
  });
});
