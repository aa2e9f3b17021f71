/**
 * `npm run bench` (after `npm run build:web`, which the npm script runs first): the figures the
 * performance targets are judged by. Nothing here is asserted in a test; timing belongs in a bench.
 *
 * Method
 * - Web: the JS and CSS that dist/web/index.html loads before anything else (its module script,
 *   modulepreloads, stylesheets and inlined `<style>`), each chunk raw, gzip -9 and brotli q11 (what CloudFront
 *   serves is one of the two); chunks loaded later are listed apart. Prerender check: the HTML of
 *   `/` holds the title, product card, prices and Important Information, marked for hydration,
 *   and the 404 page has its own prerendered file.
 * - Admin (`npm run bench -- admin`): what `/admin` loads before the merchant can sign in: the
 *   scripts and modulepreloads of dist/web/admin.html (the admin's own entry, built apart from the
 *   shop's: ADR 0033) and every chunk they import, gzip -9, its stylesheet apart, and which of them
 *   `/` loads too (none, by design); and Lighthouse's LCP of the page (signed out: the sign-in),
 *   3 runs, median and range. Reported, no target; `/`'s first load is the web part's.
 * - Lighthouse (npm `lighthouse`, mobile defaults: simulated slow 4G and 4x CPU slowdown) against
 *   the whole local shop on free ports, whose static server compresses as CloudFront does: `/`
 *   and `/success` for a session paid in the simulator, 3 runs each, median and range; the same
 *   with devtools throttling (real slowed network and CPU) for comparison, no target. Skipped,
 *   saying so, when there is no Chromium (CHROME_PATH, default /usr/bin/chromium).
 * - Lambdas: each handler bundled as the CDK stack bundles it (infra's lambda-bundle.ts: esbuild,
 *   minified ESM, the require banner, on-demand chunks, maps without sources), plus an empty
 *   module bundled the same way as the baseline. The size is what Node reads at start (index.mjs
 *   and its static chunk imports); chunks only an `import()` reaches are listed apart. Each load
 *   is a fresh `node` process timing `await import()` of index.mjs, after the built-ins Lambda's
 *   runtime has loaded before it imports a handler (RUNTIME_BUILTINS); runs are interleaved
 *   (every round loads every bundle, in a new random order, with and without source maps), so
 *   drift on a busy machine spreads over all of them instead of landing on whichever runs first. Reported: median minus the baseline's median, and the range, of 15
 *   rounds. As deployed: the map beside the file, Node not told to read it (ADR 0015); the run
 *   with `--enable-source-maps` (as deployed before) is shown beside it. The floors: the
 *   libraries a handler loads (the SDKs, zod, Powertools), alone and bundled the same way, loaded
 *   in the same rounds; each handler's row names its floor and that floor's load, and its target is
 *   that floor + 5 ms (issue 47).
 * - Checkout (checkout-storage.ts): create-checkout's DynamoDB calls, cold and warm, against 3
 *   (ADR 0052), and its own CPU per checkout against 5 ms (issue 47): its DynamoDB and Stripe calls
 *   answered in-process from recorded answers, so no SDK runs (checkout-cpu.ts); the process's CPU
 *   with the SDKs beside it, split into the AWS SDK's and Stripe's shares.
 * - Warm latency: the create-checkout and checkout-status handlers in this process, built from an
 *   environment as in Lambda, against the Stripe simulator and dynalite in a child process
 *   (scripts/bench/stand-ins.ts: in AWS their work is done elsewhere, so their CPU is not the
 *   handler's). create-checkout's sequential p50 and p99 come from 6 rounds of 100 requests, each
 *   round also run, in a random order, against create-checkout as it was before the capacity
 *   reservation (commit ef45d7f^, a git worktree on today's packages plus those it needs that
 *   today's tree lacks): the difference of the
 *   p99s is what the reservation adds, and this process's CPU per checkout of each build is
 *   the handler's own work. Then 480 checkouts with 16 in flight, and checkout-status:
 *   300 sequential, 480 with 16 in flight. After a warm-up; logging is silenced.
 * - Fulfilment: the webhook handler over dynalite, the SES stand-in and the simulator (the test
 *   harness's real wiring); 400 sessions paid beforehand, then their `checkout.session.completed`
 *   deliveries with 16 in flight, timed end to end. Then every session must have exactly one order,
 *   one confirmation and one merchant notice. DynamoDB, SES and Stripe calls are counted per order.
 * - Cost: every stage of cdk.json synthesised in memory (no bundling) through the cost model
 *   (scripts/stage-costs.ts): its fixed monthly costs, counted from its own stacks and settings,
 *   and its costs per 1,000 orders at the measured durations.
 *
 * Each benchmark is a file of scripts/bench/, run alone by its name (`npm run bench -- checkout`).
 * Every figure is printed beside its target with a pass/miss mark and written to
 * bench-results.json (git-ignored); a run of every part also rewrites the figures block of
 * docs/reports/benchmarks.md, with the date, commit and machine. Node here is 20; Lambda runs Node 24 on
 * arm64, so absolute cold loads differ there, the comparisons between bundles do not.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { BENCHMARKS_PAGE, updateBenchmarksPage } from '../benchmarks-page';
import { adminFigures } from './admin';
import { checkoutStorageFigures } from './checkout-storage';
import { costFigures } from './cost';
import { figures, printTable, raw } from './figures';
import { fulfilmentFigures } from './fulfilment';
import { lambdaFigures } from './lambda-cold-loads';
import { lighthouseFigures } from './lighthouse';
import { warmFigures } from './warm-latency';
import { webFigures } from './web';

/** The commit measured, and whether the working tree had changes (then it is not that commit). */
function currentCommit(): { commit: string; uncommitted: boolean } {
  const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
  try {
    return { commit: git('rev-parse', '--short', 'HEAD'), uncommitted: git('status', '--porcelain') !== '' };
  } catch {
    return { commit: 'unknown', uncommitted: true };
  }
}

// The AWS SDK's Node-version notice, switched off as the operator commands do: it is not a figure.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
// The Stripe SDK warns once per request when its telemetry buffer is full: noise at these rates.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (!warning.message.includes('Request metrics buffer is full')) console.warn(warning);
});

const only = new Set(process.argv.slice(2));
const want = (name: string) => only.size === 0 || only.has(name);
const started = {
  at: new Date().toISOString(),
  ...currentCommit(),
  node: process.version,
  cpus: availableParallelism(),
  loadAverage: loadavg()[0] ?? 0,
};

/** Each benchmark by the name `npm run bench -- <name>` runs it alone; in this order, as cost reads the others' figures. */
const BENCHMARKS: ReadonlyArray<readonly [string, () => unknown]> = [
  ['web', webFigures],
  ['lambda', lambdaFigures],
  ['checkout', checkoutStorageFigures],
  ['warm', warmFigures],
  ['fulfilment', fulfilmentFigures],
  ['lighthouse', lighthouseFigures],
  ['admin', adminFigures],
  ['cost', costFigures],
];
for (const [name, run] of BENCHMARKS) if (want(name)) await run();
printTable();
writeFileSync('bench-results.json', `${JSON.stringify({ ...started, figures, raw }, null, 2)}\n`);
console.log('\nWritten to bench-results.json');
const page = updateBenchmarksPage(readFileSync(BENCHMARKS_PAGE, 'utf8'), {
  ...started,
  partial: only.size > 0,
  figures,
});
if (page === undefined) {
  console.log(`${BENCHMARKS_PAGE} left as it is: only a run of every part rewrites it.`);
} else {
  writeFileSync(BENCHMARKS_PAGE, page);
  console.log(`Written to ${BENCHMARKS_PAGE}`);
}
