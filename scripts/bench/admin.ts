import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kib, median, range, raw, record, section } from './figures';
import { type LighthouseRun, lighthouseMissing, runLighthouse } from './lighthouse-run';
import { LIGHTHOUSE_RUNS, quietLocalShop, WEB_DIR } from './shop';
import { compressed } from './web';

// ---------------------------------------------------------------------------------------------
// The merchant's /admin: its own first load and LCP

/** The chunks a built chunk imports statically (`from"./x.js"`, `import"./x.js"`), however deep. */
function staticImports(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const code = readFileSync(join(WEB_DIR, file), 'utf8');
  for (const match of code.matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.js)"/g)) {
    staticImports(`assets/${match[1]}`, seen);
  }
  return seen;
}

export async function adminFigures() {
  section('Admin: what /admin loads before the sign-in (dist/web/admin.html)');
  if (!existsSync(join(WEB_DIR, 'admin.html'))) {
    record({ section: 'admin', name: '/admin first-load JS (gzip)', value: 'no admin.html', unit: '' });
    return;
  }
  /** A page's module scripts and modulepreloads, and every chunk they import. */
  const firstLoad = (htmlFile: string) => {
    const html = readFileSync(join(WEB_DIR, htmlFile), 'utf8');
    const files = new Set<string>();
    for (const match of [
      ...html.matchAll(/<script[^>]+src="\/([^"]+\.js)"/g),
      ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/([^"]+\.js)"/g),
      ...html.matchAll(/import\("\/([^"]+\.js)"\)/g),
    ]) {
      staticImports(match[1] ?? '', files);
    }
    return files;
  };
  const admin = [...firstLoad('admin.html')];
  const home = firstLoad('index.html');
  const shared = admin.filter((file) => home.has(file));
  const size = (files: readonly string[]) =>
    files.reduce((sum, file) => sum + compressed(readFileSync(join(WEB_DIR, file))).gzip, 0);
  const stylesheets = new Set(
    admin.flatMap((file) =>
      [...readFileSync(join(WEB_DIR, file), 'utf8').matchAll(/["'`]\/(assets\/[\w.-]+\.css)["'`]/g)].map(
        (match) => match[1] ?? '',
      ),
    ),
  );
  for (const file of [...admin, ...stylesheets]) {
    const sizes = compressed(readFileSync(join(WEB_DIR, file)));
    console.log(
      `  ${home.has(file) ? 'home ' : 'admin'}  ${file.padEnd(42)} gzip ${`${kib(sizes.gzip)} KiB`.padStart(9)}`,
    );
  }
  raw.adminChunks = { admin, shared, stylesheets: [...stylesheets] };
  record({
    section: 'admin',
    name: '/admin first-load JS (gzip)',
    value: kib(size(admin)),
    unit: 'KiB',
    detail: `${admin.length} chunk(s), ${shared.length} of them also in /'s first load (${kib(size(shared))} KiB); stylesheet ${kib(size([...stylesheets]))} KiB`,
  });

  const why = lighthouseMissing();
  if (why !== undefined) {
    console.log(`  NOT RUN: ${why}. The admin's LCP is missing from this run.`);
    record({ section: 'admin', name: '/admin LCP', value: `not run: ${why}`, unit: '' });
    return;
  }
  const shop = await quietLocalShop();
  const outDir = mkdtempSync(join(tmpdir(), 'shop-lighthouse-admin-'));
  try {
    const runs: LighthouseRun[] = [];
    for (let run = 0; run < LIGHTHOUSE_RUNS; run += 1) {
      runs.push(await runLighthouse(`${shop.url}/admin`, join(outDir, `admin-${run}.json`), 'simulate'));
    }
    raw.adminLighthouse = runs;
    const lcp = runs.map((r) => r.lcpMs);
    record({
      section: 'admin',
      name: '/admin LCP',
      value: Math.round(median(lcp)),
      unit: 'ms',
      detail: `signed out (the sign-in); range ${range(lcp)} ms; performance ${median(runs.map((r) => r.performance))}`,
    });
  } finally {
    rmSync(outDir, { recursive: true, force: true });
    await shop.close();
  }
}
