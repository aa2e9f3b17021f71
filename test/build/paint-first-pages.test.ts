import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The built pages as the browser gets them: /, /success and /order paint their prerendered HTML
// before their script starts; every other page loads its script from the start, as before.

let outDir: string;
beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'shop-web-build-'));
  await build({ configFile: 'vite.config.ts', logLevel: 'silent', build: { outDir, emptyOutDir: true } });
}, 120_000);
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const page = (file: string) => readFileSync(join(outDir, file), 'utf8');
const ENTRY_TAG = /<script type="module" crossorigin src="(\/assets\/index-[\w-]+\.js)"><\/script>/;

describe('pages that paint before their script starts', () => {
  it('/success has no script or preload tag; its inline starter waits for a painted frame, then preloads its chunks and imports the entry', () => {
    const success = page('success.html');
    const entry = ENTRY_TAG.exec(page('404.html'))?.[1];

    expect(entry).toBeDefined();
    expect(success).not.toMatch(/<script[^>]*\ssrc=/);
    expect(success).not.toContain('<link rel="modulepreload"');
    const starters = [...success.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map(
      ([, code]) => code ?? '',
    );
    expect(starters).toHaveLength(1);
    const [starter = ''] = starters;
    expect(starter).toContain(`import(${JSON.stringify(entry)})`);
    expect(starter).toMatch(/"\/assets\/success-page-[\w-]+\.js"/);
    expect(starter).toMatch(/"\/assets\/api-requests-[\w-]+\.js"/);
    // Started by the reported first contentful paint: a frame callback comes before the paint is on screen.
    expect(starter).toContain('list.getEntriesByName("first-contentful-paint").length>0)once()');
    expect(starter).toContain('.observe({type:"paint",buffered:true});setTimeout(once,3000)');
    expect(starter).toContain('if(document.visibilityState==="hidden")once()');
    expect(starter).toContain('else requestAnimationFrame(()=>setTimeout(once))');
  });

  it('/ has no script tag either: its starter imports the entry, with nothing more to preload, after its first paint', () => {
    const home = page('index.html');

    expect(home).not.toMatch(/<script[^>]*\ssrc=/);
    expect(home).not.toContain('<link rel="modulepreload"');
    const [starter = ''] = [...home.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map(
      ([, code]) => code ?? '',
    );
    expect(starter).toContain(`import(${JSON.stringify(ENTRY_TAG.exec(page('404.html'))?.[1])})`);
    expect(starter).toContain('for(const href of [])');
    expect(starter).toContain('list.getEntriesByName("first-contentful-paint").length>0)once()');
  });

  it('/order/<token> starts its script, its chunk preloaded, after its first paint too', () => {
    const order = page('order.html');

    expect(order).not.toMatch(/<script[^>]*\ssrc=/);
    expect(order).not.toContain('<link rel="modulepreload"');
    const [starter = ''] = [...order.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map(
      ([, code]) => code ?? '',
    );
    expect(starter).toContain(`import(${JSON.stringify(ENTRY_TAG.exec(page('404.html'))?.[1])})`);
    expect(starter).toMatch(/"\/assets\/order-status-page-[\w-]+\.js"/);
    expect(starter).toContain('list.getEntriesByName("first-contentful-paint").length>0)once()');
  });

  it('every other page loads the entry by its script tag at once, and the policy pages preload their chunk', () => {
    for (const file of ['404.html', 'privacy.html', 'terms.html', 'contact.html']) {
      expect(page(file)).toMatch(ENTRY_TAG);
      expect(page(file)).not.toMatch(/<script type="module">/);
    }
    expect(page('privacy.html')).toMatch(
      /<link rel="modulepreload" crossorigin href="\/assets\/policy-page-/,
    );
  });
});
