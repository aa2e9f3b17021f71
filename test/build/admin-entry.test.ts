import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// The site as `npm run build:web` builds it, once for every test here. The admin is built apart
// from the shop (ADR 0033): `/`'s first load is what it would be with no admin at all, and /admin
// still gets its prerendered shell, hydrated by the admin's own entry.

let outDir: string;
beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'shop-web-build-'));
  // vitest's NODE_ENV=test would bundle React's development build.
  vi.stubEnv('NODE_ENV', 'production');
  await build({ configFile: 'vite.config.ts', logLevel: 'silent', build: { outDir, emptyOutDir: true } });
}, 120_000);
afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(outDir, { recursive: true, force: true });
});

const read = (file: string) => readFileSync(join(outDir, file), 'utf8');

/** `files` and every chunk they import; with `later`, also those their `import()`s load on demand. */
function chunksFrom(files: string[], { later = false } = {}): string[] {
  const reached = new Set<string>();
  const imports = later
    ? /(?:from|import)\s*\(?"\.\/([\w.-]+\.js)"/g
    : /(?:from|import)\s*"\.\/([\w.-]+\.js)"/g;
  const visit = (file: string) => {
    if (reached.has(file)) return;
    reached.add(file);
    for (const [, imported] of read(file).matchAll(imports)) visit(`assets/${imported}`);
  };
  for (const file of files) visit(file);
  return [...reached];
}

/** The chunks a page loads before anything else: its scripts, its preloads and what they import. */
function firstLoad(page: string): string[] {
  const html = read(page);
  const entries = [
    ...html.matchAll(/<script[^>]+src="\/([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/([^"]+\.js)"/g),
    // The paint-first starter's entry and preloads (/success).
    ...html.matchAll(/"\/(assets\/[\w.-]+\.js)"/g),
  ].flatMap(([, file]) => (file === undefined ? [] : [file]));
  return chunksFrom(entries);
}

const SHOP_PAGES = [
  'index.html',
  'success.html',
  'order.html',
  'privacy.html',
  'terms.html',
  'contact.html',
  '404.html',
];

describe('the admin, built apart from the shop', () => {
  it("no shop page's first load mentions the admin: not its route or path, its API, nor its chunks", () => {
    for (const page of SHOP_PAGES) {
      expect(read(page), page).not.toMatch(/admin/i);
      const files = firstLoad(page);
      expect(files.length, page).toBeGreaterThan(0);
      // "admin" is in the route's path, the admin API's paths (/functions/v1/admin/…) and the
      // names of the admin's chunks and stylesheet: none of them may reach a customer's first load.
      for (const file of files) expect(read(file), `${page}: ${file}`).not.toMatch(/admin/i);
    }
  });

  it("/admin's prerendered shell loads the admin's own entry, none of `/`'s first load, with the shop's head and inlined style", () => {
    const admin = read('admin.html');
    const home = read('index.html');
    const files = firstLoad('admin.html');

    expect(admin).toContain('<div id="root" data-page="/admin">');
    expect(admin).toContain('Loading the admin…');
    expect(admin).toContain('<title>Admin · Live Aquatics</title>');
    expect(admin).toMatch(/<script type="module" crossorigin src="\/assets\/admin-[\w-]+\.js"><\/script>/);
    expect(files.some((file) => read(file).includes('/functions/v1/admin'))).toBe(true);
    const shop = new Set(firstLoad('index.html'));
    expect(files.filter((file) => shop.has(file))).toEqual([]);
    // One stylesheet for every page, so the CSP's one style hash covers the admin too.
    const style = (html: string) => /<style>[\s\S]*?<\/style>/.exec(html)?.[0];
    expect(style(admin)).toBeDefined();
    expect(style(admin)).toBe(style(home));
    // The same head but for the manifest: the admin installs as an app of its own (ADR 0055).
    expect(admin).toContain('<link rel="manifest" href="/admin.webmanifest" />');
    expect(home).toContain('<link rel="manifest" href="/manifest.webmanifest" />');
    expect(admin.split('<title>')[0]).toBe(
      home.split('<title>')[0]?.replace('/manifest.webmanifest', '/admin.webmanifest'),
    );
    for (const file of files) expect(existsSync(join(outDir, file)), file).toBe(true);
  });

  it("the admin's code, loaded now or later, carries none of the shop's checkout requests: it has its own API client", () => {
    const admin = /src="\/(assets\/admin-[\w-]+\.js)"/.exec(read('admin.html'))?.[1] ?? '';
    const reached = chunksFrom([admin], { later: true });

    expect(reached.length).toBeGreaterThan(0);
    expect(reached.some((file) => read(file).includes('/functions/v1/admin'))).toBe(true);
    for (const file of reached) {
      expect(file).not.toMatch(/api-requests|response-schemas/);
      expect(read(file), file).not.toContain('/functions/v1/create-checkout');
    }
  });

  it("order.html's no-referrer comes right after the charset, before any tag that makes a request", () => {
    const order = read('order.html');
    const head = order.slice(order.indexOf('<head>'), order.indexOf('</head>'));

    expect(head).toMatch(
      /^<head>\s*<meta charset="UTF-8" \/><meta name="referrer" content="no-referrer"\/>\s*<meta /,
    );
    expect(head.match(/<meta name="referrer"/g)).toHaveLength(1);
    expect(head.indexOf('<meta name="referrer"')).toBeLessThan(head.search(/<link |<script /));
    expect(read('index.html')).not.toContain('<meta name="referrer"');
  });

  it("the customer's order page is a chunk of its own: none of it in `/`'s first load, and order.html preloads it", () => {
    const home = firstLoad('index.html');
    expect(home.some((file) => file.includes('order-status-page'))).toBe(false);
    for (const file of home) {
      expect(read(file), file).not.toContain('Loading your order');
      expect(read(file), file).not.toContain('correctionOpenUntil');
    }
    expect(firstLoad('order.html').some((file) => /^assets\/order-status-page-[\w-]+\.js$/.test(file))).toBe(
      true,
    );
  });
});

/** A string literal as the minifier writes it: in double quotes or backticks. */
const literal = (text: string) => new RegExp(`["\`]${text.replace(/[|/]/g, '\\$&')}["\`]`);

// React Router's production build names its components for DevTools and creates them with calls a
// bundler cannot prove pure; the build (vite.config.ts: routerWithoutDevtoolsNames) lets the
// components the shop never uses fall away.
describe("the router code in `/`'s first load", () => {
  const script = () => firstLoad('index.html').map(read).join('\n');

  it('keeps what the shop uses: the browser history, its routes and links', () => {
    // createBrowserHistory's actions and Link's click handler (it ignores a click with a modifier).
    expect(script()).toMatch(literal('POP'));
    expect(script()).toMatch(literal('PUSH'));
    expect(script()).toContain('metaKey');
    // The production build: React's development warnings are not in it.
    expect(script()).not.toContain('Invalid hook call');
  });

  it('leaves out the components it never uses: NavLink, Form and its submission', () => {
    // NavLink marks the active link; Form's submission reads a submitter's type.
    expect(script()).not.toMatch(literal('aria-current'));
    expect(script()).not.toMatch(literal('submit|image'));
    expect(script()).not.toContain('application/x-www-form-urlencoded');
  });
});
