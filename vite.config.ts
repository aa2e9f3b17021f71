import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type LogLevel, type Plugin, type Rolldown, type UserConfig } from 'vite';
import { PUBLIC_API_ROOT } from './shared/public-routes.ts';
import { readStageSettings, siteConfigOf } from './shared/stage-config.ts';

const repoRoot = fileURLToPath(new URL('.', import.meta.url));
// Inside the repository, so the server bundle finds react and react-router in node_modules.
// A new folder each build: Node caches modules by URL, and its chunks import the entry by name.
const prerenderDir = () => join(repoRoot, `dist/.prerender-${process.pid}-${Date.now()}`);

/** What web/src/app/prerender.tsx exports, checked at the boundary rather than cast. */
interface RenderedPage {
  key: string;
  file: string;
  head: string;
  body: string;
}
function isRenderedPages(value: unknown): value is RenderedPage[] {
  return (
    Array.isArray(value) &&
    value.every(
      (page: unknown) =>
        typeof page === 'object' &&
        page !== null &&
        ['key', 'file', 'head', 'body'].every(
          (field) => typeof (page as Record<string, unknown>)[field] === 'string',
        ),
    )
  );
}

/**
 * The pages whose code is in chunks of their own (React.lazy in web/src/app/routes.tsx), by the file its
 * HTML is written to: that file preloads the chunks beside the main script, so the page's code
 * arrives in the same round trip instead of after the main script asks for it.
 */
const PAGE_CHUNKS: Record<string, string[]> = {
  // With the status request's code (web/src/lib/api-requests.ts), which the page calls at once.
  'success.html': ['web/src/features/success/success-page.tsx', 'web/src/lib/api-requests.ts'],
  'order.html': ['web/src/features/order-status/order-status-page.tsx'],
  'privacy.html': ['web/src/features/policies/policy-page.tsx'],
  'terms.html': ['web/src/features/policies/policy-page.tsx'],
  'contact.html': ['web/src/features/policies/policy-page.tsx'],
  '404.html': ['web/src/components/layout/not-found.tsx'],
};

/**
 * The pages whose script starts only once the browser has painted their HTML. A customer reaches
 * `/success` from Stripe with the main script already cached from `/`: run at once, it would
 * evaluate and hydrate before the first paint, holding back a page whose HTML is ready (and
 * Lighthouse's simulated slow 4G would count its download into the paint). See ADR 0030.
 */
const PAINT_FIRST_PAGES = new Set([
  // The shop's front page: its prerendered order form is what a customer came for; the script only
  // makes it answer, and downloaded before the first paint it would be counted into that paint.
  'index.html',
  'success.html',
  // A customer opens /order/<token> from an email: its prerendered intro is its largest paint, which
  // simulated slow 4G would otherwise count with the script downloaded before it in the trace.
  'order.html',
]);

/**
 * The inline module that starts a PAINT_FIRST_PAGES page: once the browser reports the page's first
 * contentful paint, it preloads the page's chunks and imports the entry, exactly what the page's
 * `<script>` and `<link rel="modulepreload">` tags would have done earlier. The paint entry comes
 * once the frame is on screen; a requestAnimationFrame comes before it, and a script requested
 * between the two is counted into the paint by Lighthouse's simulation. A hidden tab paints
 * nothing, so it starts at once; a browser without paint timing starts after the next frame; and
 * in any case after 3 s, so a paint never reported cannot leave the form dead. Buttons pressed
 * before then are pressed again once the app listens.
 * Allowed by its hash in the CSP (infra: inlineScriptHashes).
 */
function paintFirstStarter(entry: string, preloads: readonly string[]): string {
  const urls = (list: readonly string[]) => JSON.stringify(list.map((name) => `/${name}`));
  return (
    '<script type="module">' +
    // A tap on a prerendered button before the app has started would do nothing (or submit the bare
    // form): held, and given again once the entry has run and React listens (it hydrates on it).
    'const held=[];const hold=(event)=>{const button=event.target instanceof Element&&event.target.closest("button");' +
    'if(button){event.preventDefault();event.stopImmediatePropagation();held.push(button)}};' +
    'document.addEventListener("click",hold,true);' +
    `const start=()=>{for(const href of ${urls(preloads)}){const link=document.createElement("link");` +
    'link.rel="modulepreload";link.crossOrigin="";link.href=href;document.head.append(link)}' +
    `import(${JSON.stringify(`/${entry}`)}).then(()=>{document.removeEventListener("click",hold,true);` +
    'for(const button of held.splice(0))button.click()})};' +
    'let started=false;const once=()=>{if(!started){started=true;start()}};' +
    'if(document.visibilityState==="hidden")once();' +
    'else if(PerformanceObserver.supportedEntryTypes?.includes("paint")){' +
    'new PerformanceObserver((list)=>{if(list.getEntriesByName("first-contentful-paint").length>0)once()})' +
    '.observe({type:"paint",buffered:true});setTimeout(once,3000)}' +
    'else requestAnimationFrame(()=>setTimeout(once))' +
    '</script>'
  );
}

/** A chunk's file and every chunk it imports statically, however deep, as root-relative URLs. */
function chunkUrls(bundle: Rolldown.OutputBundle, fileName: string, seen = new Set<string>()): Set<string> {
  const chunk = bundle[fileName];
  if (seen.has(fileName) || chunk?.type !== 'chunk') return seen;
  seen.add(fileName);
  for (const imported of chunk.imports) chunkUrls(bundle, imported, seen);
  return seen;
}

/**
 * The site's one stylesheet (2.8 KiB gzip), moved from its `<link>` into a `<style>` in the page:
 * the first paint no longer waits for a second request, one round trip sooner (about 0.6 s on
 * Lighthouse's throttled slow 4G). The file is removed, as nothing links it any more; the CSP
 * allows the style by its hash, taken from the built pages (infra: inlineStyleHashes).
 */
async function inlineStylesheet(html: string, outDir: string): Promise<string> {
  const links = [...html.matchAll(/<link rel="stylesheet"[^>]* href="\/(assets\/[^"]+\.css)">/g)];
  const [link, ...others] = links;
  if (!link?.[1] || others.length > 0) {
    throw new Error(`index.html should link one stylesheet (build.cssCodeSplit: false), not ${links.length}`);
  }
  const file = join(outDir, link[1]);
  const css = (await readFile(file, 'utf8')).trim();
  // `</` in a stylesheet (a string or comment) would end the <style> element early.
  if (css.includes('</')) throw new Error(`${link[1]} contains "</" and cannot be inlined`);
  await rm(file);
  return html.replace(link[0], () => `<style>${css}</style>`);
}

/**
 * A page's `<meta name="referrer">` (the order page's no-referrer) moved from where the page's
 * hoisted head goes (after the icon links) to just after the charset: the browser applies it from
 * there, so no request of the page, the icons' included, carries its address (the order's token).
 */
function referrerPolicyFirst(html: string): string {
  const meta = /<meta name="referrer" [^>]*>/.exec(html)?.[0];
  if (meta === undefined) return html;
  const charset = /<head>\s*<meta charset="[^"]*" ?\/?>/.exec(html)?.[0];
  if (charset === undefined) throw new Error('index.html should open its <head> with <meta charset>');
  return html.replace(meta, '').replace(charset, () => `${charset}${meta}`);
}

/** The admin's page: built from its own HTML file and entry (web/admin.html, web/src/admin-main.tsx). */
const ADMIN_HTML = 'admin.html';

/** What a build of the admin gives the page written for it. */
interface AdminBuild {
  /** `<script>` of the admin's entry chunk, as Vite wrote it into the built admin.html. */
  entryTag: string;
  /** The chunks the entry imports statically, which the page preloads beside it. */
  preloads: string[];
  /** The stylesheet the built admin.html links: the shop's, or the template's inlined style is not the admin's. */
  stylesheet: string;
}

/**
 * Builds the admin into the shop's output folder, a build of its own. As a second input of the
 * shop's build it would share React and the router with the shop in a chunk of their own, and
 * `/`'s first load would change (two files instead of one): built apart, the shop's chunks are
 * exactly what they would be with no admin at all (ADR 0033). The price: the admin carries its
 * own copy of React and the router, which a merchant's browser fetches once.
 */
async function buildAdmin(
  define: Record<string, string>,
  outDir: string,
  logLevel: LogLevel,
): Promise<AdminBuild> {
  const browser = browserOptions(define);
  const result = await build({
    configFile: false,
    root: join(repoRoot, 'web'),
    logLevel,
    // web/public is the shop build's to copy.
    publicDir: false,
    ...browser,
    build: {
      ...browser.build,
      outDir,
      emptyOutDir: false,
      rollupOptions: { input: join(repoRoot, 'web', ADMIN_HTML) },
    },
  });
  const outputs = Array.isArray(result) ? result : [result];
  const output = outputs.flatMap((item) => ('output' in item ? item.output : []));
  const bundle: Rolldown.OutputBundle = Object.fromEntries(output.map((item) => [item.fileName, item]));
  const entry = output.find((item) => item.type === 'chunk' && item.isEntry);
  if (!entry) throw new Error('The admin build has no entry chunk');
  const html = await readFile(join(outDir, ADMIN_HTML), 'utf8');
  const entryTag = html.match(/<script type="module" crossorigin src="\/([^"]+\.js)"><\/script>/);
  const stylesheet = html.match(/<link rel="stylesheet"[^>]* href="\/(assets\/[^"]+\.css)">/);
  if (entryTag?.[1] !== entry.fileName || !stylesheet?.[1]) {
    throw new Error(`The built ${ADMIN_HTML} should load ${entry.fileName} and link one stylesheet`);
  }
  return {
    entryTag: entryTag[0],
    preloads: [...chunkUrls(bundle, entry.fileName)].filter((name) => name !== entry.fileName),
    stylesheet: stylesheet[1],
  };
}

/**
 * Writes the prerendered pages (web/src/app/pages.ts, and the admin's) into the built HTML: after
 * the browser build (and the admin's, buildAdmin), a server build of web/src/app/prerender.tsx
 * renders each page, and its markup goes into `#root` (marked with `data-page`, which main.tsx and
 * admin-main.tsx check before hydrating), its <title> into <head>. One template, so every page
 * carries the same head and inlined style and links the same hashed script, apart from admin.html,
 * which links the admin's. The server build gets the same `define`, so the pages show the seller
 * the script does.
 */
function prerender(define: Record<string, string>): Plugin {
  /** Per HTML file, the extra chunks it preloads (see PAGE_CHUNKS). */
  const pagePreloads = new Map<string, string[]>();
  /** Where the browser build went: `build.outDir`, or `--outDir` (the CDK app's site build). */
  let outDir = join(repoRoot, 'dist/web');
  /** The shop build's, so the admin's build lists its files beside the shop's, or stays as quiet. */
  let logLevel: LogLevel = 'info';
  return {
    name: 'shop:prerender',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
      logLevel = config.logLevel ?? logLevel;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
      const entry = chunks.find((chunk) => chunk.isEntry);
      if (!entry) throw new Error('The build has no entry chunk');
      const loaded = chunkUrls(bundle, entry.fileName);
      for (const [file, modules] of Object.entries(PAGE_CHUNKS)) {
        const urls = new Set<string>();
        for (const module of modules) {
          const chunk = chunks.find((item) => item.facadeModuleId === join(repoRoot, module));
          if (!chunk) throw new Error(`No chunk of its own for ${module}`);
          for (const name of chunkUrls(bundle, chunk.fileName)) if (!loaded.has(name)) urls.add(name);
        }
        pagePreloads.set(file, [...urls]);
      }
    },
    async closeBundle() {
      const admin = await buildAdmin(define, outDir, logLevel);
      const serverDir = prerenderDir();
      await build({
        configFile: false,
        root: join(repoRoot, 'web'),
        logLevel: 'warn',
        define,
        plugins: [react()],
        build: {
          ssr: join(repoRoot, 'web/src/app/prerender.tsx'),
          outDir: serverDir,
          emptyOutDir: true,
          rollupOptions: { output: { entryFileNames: 'prerender.mjs' } },
        },
      });
      const module: Record<string, unknown> = await import(
        pathToFileURL(join(serverDir, 'prerender.mjs')).href
      );
      const renderPages = module.renderPages;
      if (typeof renderPages !== 'function') throw new Error('prerender.tsx exports no renderPages');
      const pages: unknown = await renderPages();
      if (!isRenderedPages(pages)) throw new Error('renderPages returned something other than pages');
      const built = await readFile(join(outDir, 'index.html'), 'utf8');
      if (!built.includes('<div id="root"></div>')) throw new Error('index.html has no empty #root');
      if (!built.includes(`href="/${admin.stylesheet}"`)) {
        throw new Error(
          `${ADMIN_HTML} links ${admin.stylesheet}, not the shop's stylesheet, which every page inlines`,
        );
      }
      const template = await inlineStylesheet(built, outDir);
      const entryTags = [
        ...template.matchAll(/<script type="module" crossorigin src="\/([^"]+\.js)"><\/script>/g),
      ];
      const [entryTag, ...otherEntries] = entryTags;
      if (!entryTag?.[1] || otherEntries.length > 0) {
        throw new Error(`index.html should load one module script, not ${entryTags.length}`);
      }
      for (const page of pages) {
        // React marks a boundary it gave up on with <!--$!-->: the page would be drawn by the browser.
        if (page.body.includes('<!--$!-->'))
          throw new Error(`Prerendering ${page.file} failed in a Suspense boundary`);
        const isAdmin = page.file === ADMIN_HTML;
        const chunks = (isAdmin ? admin.preloads : pagePreloads.get(page.file)) ?? [];
        const paintFirst = PAINT_FIRST_PAGES.has(page.file);
        const preloads = paintFirst
          ? ''
          : chunks.map((name) => `<link rel="modulepreload" crossorigin href="/${name}">`).join('');
        const ownEntryTag = isAdmin ? admin.entryTag : entryTag[0];
        const html = template
          .replace(entryTag[0], () =>
            paintFirst ? paintFirstStarter(entryTag[1] ?? '', chunks) : ownEntryTag,
          )
          .replace(/<title>[^<]*<\/title>/, page.head || '$&')
          .replace('</head>', `${preloads}</head>`)
          .replace('<div id="root"></div>', `<div id="root" data-page="${page.key}">${page.body}</div>`);
        // The admin installs as an app of its own, opening on This week (ADR 0055); the shop's pages keep theirs.
        const manifested = isAdmin ? html.replace('"/manifest.webmanifest"', '"/admin.webmanifest"') : html;
        await writeFile(join(outDir, page.file), referrerPolicyFirst(manifested));
      }
      await rm(serverDir, { recursive: true, force: true });
    },
  };
}

/**
 * Vite wraps every dynamic `import()` in a helper that preloads the chunk's imports and CSS
 * (vitejs/vite#18551: even with `build.modulePreload: false`). With no preload list
 * (`modulePreload: false`) and one stylesheet inlined into every page (`cssCodeSplit: false`), it
 * only ever calls the import: this plugin makes it say so, 0.6 KiB gzip off the first load.
 * A stylesheet per chunk would need the helper back, so that setting stops the build.
 */
function plainDynamicImports(): Plugin {
  const helperId = '\0vite/preload-helper.js';
  return {
    name: 'shop:plain-dynamic-imports',
    apply: 'build',
    enforce: 'pre',
    configResolved(config) {
      if (config.build.cssCodeSplit || config.build.modulePreload !== false) {
        throw new Error('plainDynamicImports needs build.cssCodeSplit and build.modulePreload false');
      }
    },
    load(id) {
      return id === helperId ? 'export const __vitePreload = (load) => load();' : undefined;
    },
  };
}

/**
 * React Router's production build makes its components at the top level with calls a bundler
 * cannot prove pure (`var NavLink = React.forwardRef(…)`) and names them for React DevTools with
 * property writes (`NavLink.displayName = "NavLink"`): both keep a component the app never uses
 * (NavLink, Form and its submission code, the other routers) in the bundle. Marking those React
 * calls pure, which they are, and dropping the DevTools names, which production React never reads,
 * lets them fall away: 1.9 KiB gzip off `/`'s first load.
 */
function routerWithoutDevtoolsNames(): Plugin {
  const productionBuild = /\/node_modules\/react-router\/dist\/production\/[^/]+\.mjs$/;
  return {
    name: 'shop:router-without-devtools-names',
    apply: 'build',
    transform(code, id) {
      if (!productionBuild.test(id)) return undefined;
      return {
        code: code
          .replace(/^[\w$]+\.displayName = "[^"]*";$/gm, '')
          .replace(
            /^(var [\w$]+ = )(React\d*\.(?:forwardRef|createContext|memo)\()/gm,
            '$1/* @__PURE__ */ $2',
          ),
        map: null,
      };
    },
  };
}

/**
 * What the shop's build and the admin's (buildAdmin) share: the stage's settings, the plugins that
 * shape the bundle, the router's production build, and the output settings the CSP and the
 * inlined stylesheet rely on.
 */
function browserOptions(define: Record<string, string>) {
  return {
    define,
    plugins: [plainDynamicImports(), routerWithoutDevtoolsNames(), react()],
    resolve: {
      // react-router publishes a production build beside the development one its package exports
      // name; the same code without development-only checks, 0.5 KiB gzip off the first load.
      alias: [
        {
          find: /^react-router$/,
          replacement: join(repoRoot, 'node_modules/react-router/dist/production/index.mjs'),
        },
      ],
    },
    build: {
      // Keep every asset a file: the CSP (`script-src 'self'` and the paint-first starters' hashes,
      // `style-src 'self'` and the inlined stylesheet's hash) refuses other inline content, and a
      // data: URL would need an exception.
      assetsInlineLimit: 0,
      // No list of each lazy chunk's imports in the first load (0.2 KiB gzip, mostly file hashes):
      // the HTML files preload each page's chunks themselves (PAGE_CHUNKS), and the order flow's
      // imports follow it a round trip later, right after hydration, before anyone can click.
      modulePreload: false,
      // One stylesheet for the whole site, inlined into every page (inlineStylesheet); with
      // per-chunk CSS, lazy chunks would ask for the entry's stylesheet file again.
      cssCodeSplit: false,
    },
  } satisfies UserConfig;
}

export default defineConfig(() => {
  // The stage's settings, as the CDK app gives them (infra/lib/site-build.ts), or the local
  // stage's: checked here with the stage's schema, so the page carries the answer rather than the
  // checks (web/src/config.ts).
  const define = { __SITE_CONFIG__: JSON.stringify(siteConfigOf(readStageSettings(process.env))) };
  const browser = browserOptions(define);
  return {
    ...browser,
    root: 'web',
    plugins: [...browser.plugins, prerender(define)],
    build: { ...browser.build, outDir: '../dist/web', emptyOutDir: true },
    server: {
      // `npm run dev:web` against the local stack (`npm start`), which serves the API on port 3000.
      proxy: { [PUBLIC_API_ROOT]: 'http://localhost:3000' },
    },
  };
});
