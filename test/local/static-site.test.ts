import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticSite } from '../../local/static-site';

let server: Server;
let base: string;

beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), 'static-site-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>app</title>');
  writeFileSync(join(root, 'assets', 'app-123.js'), 'console.log(1)');
  writeFileSync(join(root, 'favicon.svg'), '<svg/>');
  server = createServer(createStaticSite(root));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

describe('the local static site, serving the build as CloudFront does', () => {
  it.each(['/', '/success', '/success?session_id=cs_test_x', '/privacy', '/terms', '/contact'])(
    'serves the app at %s with 200',
    async (path) => {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('<title>app</title>');
    },
  );

  it.each(['/nope', '/success/extra', '/index.htm'])(
    'serves the app at %s with 404, for its 404 page',
    async (path) => {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(404);
      expect(await response.text()).toContain('<title>app</title>');
    },
  );

  it('serves build files with their type, assets as immutable', async () => {
    const asset = await fetch(`${base}/assets/app-123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const icon = await fetch(`${base}/favicon.svg`);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.headers.get('cache-control')).toBe('no-cache');
  });

  it('never serves files outside the build folder', async () => {
    const response = await fetch(`${base}/%2e%2e/%2e%2e/etc/passwd`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('<title>app</title>');
  });

  it('answers a malformed URL with 400, not a crash', async () => {
    const response = await fetch(`${base}/%E0%A4%A`);
    expect(response.status).toBe(400);
  });
});
