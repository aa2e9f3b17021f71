import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { kib, raw, record, section } from './figures';
import { WEB_DIR } from './shop';

// ---------------------------------------------------------------------------------------------
// Web: first-load JS and CSS, per chunk

export function compressed(bytes: Buffer) {
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

export function webFigures() {
  section('Web: first load (dist/web/index.html)');
  const html = readFileSync(join(WEB_DIR, 'index.html'), 'utf8');
  const firstLoad = [
    ...html.matchAll(/<script[^>]+src="\/([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/([^"]+\.js)"/g),
    // A paint-first page's inline starter imports the entry (vite.config.ts: paintFirstStarter).
    ...html.matchAll(/import\("\/([^"]+\.js)"\)/g),
    ...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="\/([^"]+\.css)"/g),
  ].map((match) => match[1] ?? '');
  const all = readdirSync(join(WEB_DIR, 'assets'))
    .filter((file) => /\.(js|css)$/.test(file))
    .map((file) => `assets/${file}`);
  // The stylesheet is inlined into each page (vite.config.ts): counted as CSS of the first load.
  const inlineStyles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match, index) => ({
    file: `index.html <style> ${index + 1}.css`,
    firstLoad: true,
    ...compressed(Buffer.from(match[1] ?? '')),
  }));
  const chunks = [
    ...all.map((file) => ({
      file,
      firstLoad: firstLoad.includes(file),
      ...compressed(readFileSync(join(WEB_DIR, file))),
    })),
    ...inlineStyles,
  ];
  for (const chunk of chunks.sort((a, b) => Number(b.firstLoad) - Number(a.firstLoad) || b.raw - a.raw)) {
    console.log(
      `  ${chunk.firstLoad ? 'first' : 'later'}  ${chunk.file.padEnd(42)} ${`${kib(chunk.raw)} KiB`.padStart(10)}  gzip ${`${kib(chunk.gzip)} KiB`.padStart(9)}  brotli ${`${kib(chunk.brotli)} KiB`.padStart(9)}`,
    );
  }
  const total = (ext: string, key: 'gzip' | 'brotli') =>
    chunks.filter((c) => c.firstLoad && c.file.endsWith(ext)).reduce((sum, c) => sum + c[key], 0);
  raw.webChunks = chunks;
  for (const [name, ext, targetKib] of [
    ['first-load JS', '.js', 85],
    ['CSS', '.css', 10],
  ] as const) {
    record({
      section: 'web',
      name: `${name} (gzip)`,
      value: kib(total(ext, 'gzip')),
      unit: 'KiB',
      target: `≤ ${targetKib}`,
      pass: total(ext, 'gzip') <= targetKib * 1024,
    });
    record({ section: 'web', name: `${name} (brotli)`, value: kib(total(ext, 'brotli')), unit: 'KiB' });
  }

  const root = /<div id="root" data-page="\/">([\s\S]*)<\/div>\s*<noscript>/.exec(html)?.[1] ?? '';
  const expected = [
    '<h1>Live Aquatics Order</h1>',
    'Daphnia Magna</span>',
    '£9.75',
    '£14.70',
    'Important Information</h2>',
  ];
  const missing = expected.filter((text) => !root.includes(text));
  const notFound =
    existsSync(join(WEB_DIR, '404.html')) &&
    readFileSync(join(WEB_DIR, '404.html'), 'utf8').includes('data-page="not-found"');
  record({
    section: 'web',
    name: '/ prerendered',
    value:
      missing.length === 0 && notFound
        ? 'yes'
        : `no (${[...missing, ...(notFound ? [] : ['404.html'])].join(', ')})`,
    unit: '',
    detail: 'title, product card, prices, Important Information in the HTML; 404 page prerendered',
    target: 'yes',
    pass: missing.length === 0 && notFound,
  });
}
