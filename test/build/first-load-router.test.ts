import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// `/`'s first load is one script (the shop's entry chunk). React Router's production build names
// its components for DevTools and creates them with calls a bundler cannot prove pure; the build
// (vite.config.ts: routerWithoutDevtoolsNames) lets the components the shop never uses fall away.

let outDir: string;
beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'shop-web-build-'));
  // As `npm run build:web` builds it: vitest's NODE_ENV=test would bundle React's development build.
  vi.stubEnv('NODE_ENV', 'production');
  await build({ configFile: 'vite.config.ts', logLevel: 'silent', build: { outDir, emptyOutDir: true } });
}, 120_000);
afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(outDir, { recursive: true, force: true });
});

/** A string literal as the minifier writes it: in double quotes or backticks. */
const literal = (text: string) => new RegExp(`["\`]${text.replace(/[|/]/g, '\\$&')}["\`]`);

function firstLoadScript(): string {
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  const entry =
    /<script type="module" crossorigin src="\/(assets\/index-[\w-]+\.js)"|"\/(assets\/index-[\w-]+\.js)"/.exec(
      html,
    );
  const file = entry?.[1] ?? entry?.[2];
  if (file === undefined) throw new Error('index.html names no entry script');
  return readFileSync(join(outDir, file), 'utf8');
}

describe("the router code in `/`'s first load", () => {
  it('keeps what the shop uses: the browser history, its routes and links', () => {
    const script = firstLoadScript();
    // createBrowserHistory's actions and Link's click handler (it ignores a click with a modifier).
    expect(script).toMatch(literal('POP'));
    expect(script).toMatch(literal('PUSH'));
    expect(script).toContain('metaKey');
    // The production build: React's development warnings are not in it.
    expect(script).not.toContain('Invalid hook call');
  });

  it('leaves out the components it never uses: NavLink, Form and its submission', () => {
    const script = firstLoadScript();
    // NavLink marks the active link; Form's submission reads a submitter's type.
    expect(script).not.toMatch(literal('aria-current'));
    expect(script).not.toMatch(literal('submit|image'));
    expect(script).not.toContain('application/x-www-form-urlencoded');
  });
});
