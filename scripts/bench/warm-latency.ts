import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createStatusHandler, loadStatusDeps } from '../../lambdas/handlers/checkout-status/handler';
import { createCheckoutHandler, loadCheckoutDeps } from '../../lambdas/handlers/create-checkout/handler';
import { logger } from '../../lambdas/lib/logger';
import { PUBLIC_API_ROUTES } from '../../shared/public-routes';
import { apiGatewayEvent } from '../../test/support/api-gateway-event';
import { percentile, raw, record, round, section, shuffle } from './figures';
import { benchCheckoutEvent, checkoutEnvironment, startStandInsProcess } from './shop';

// ---------------------------------------------------------------------------------------------
// Warm latency against the simulator

async function timed(count: number, inFlight: number, request: () => Promise<{ statusCode?: number }>) {
  const durations: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        next += 1;
        const t = performance.now();
        const result = await request();
        durations.push(performance.now() - t);
        if (result.statusCode !== 200) failures += 1;
      }
    }),
  );
  return { durations, failures, seconds: (performance.now() - started) / 1000 };
}

/**
 * The commit before create-checkout reserved bottles (ef45d7f put the reservation on its path):
 * the "today" of issue 22's warm target, p99 within 2 ms of it. BENCH_WARM_BASELINE names another.
 */
const WARM_BASELINE_REF = process.env.BENCH_WARM_BASELINE ?? 'ef45d7f^';
/** Rounds of sequential checkouts, each against both builds in a new random order. */
const WARM_ROUNDS = 6;
const WARM_ROUND_REQUESTS = 100;

type CheckoutHandler = ReturnType<typeof createCheckoutHandler>;

/**
 * The baseline worktree's node_modules: today's packages (the same Stripe SDK, zod and Powertools,
 * so the comparison is of our code), plus those it imports that today's tree no longer has
 * (aws4fetch), at its own lockfile's versions, installed beside it.
 */
function linkBaselineDependencies(dir: string): void {
  const modules = join(dir, 'node_modules');
  mkdirSync(modules);
  for (const entry of readdirSync('node_modules')) {
    if (!entry.startsWith('@')) {
      symlinkSync(resolve('node_modules', entry), join(modules, entry));
      continue;
    }
    mkdirSync(join(modules, entry));
    for (const scoped of readdirSync(join('node_modules', entry))) {
      symlinkSync(resolve('node_modules', entry, scoped), join(modules, entry, scoped));
    }
  }
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string }>;
  };
  const missing = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter(
    (name) => !existsSync(join(modules, name)),
  );
  if (missing.length === 0) return;
  const side = join(dir, '.baseline-deps');
  const specs = missing.map(
    (name) => `${name}@${lock.packages[`node_modules/${name}`]?.version ?? 'latest'}`,
  );
  console.log(`  installing what the baseline needs and today's tree lacks: ${specs.join(', ')}`);
  execFileSync(
    'npm',
    ['install', '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', '--prefix', side, ...specs],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  for (const name of missing) {
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(join(side, 'node_modules', name), join(modules, name));
  }
}

/**
 * create-checkout as it was at `ref`, from a git worktree (linkBaselineDependencies), loaded into
 * this process beside today's; `undefined` (said) when the ref is not in this clone.
 */
async function baselineCheckout(
  ref: string,
  env: Record<string, string>,
): Promise<{ handler: CheckoutHandler; commit: string; remove: () => void } | undefined> {
  const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: 'pipe' }).trim();
  let commit: string;
  try {
    commit = git('rev-parse', '--short', `${ref}^{commit}`);
  } catch {
    console.log(`  no commit ${ref} in this clone: the before-the-reservation comparison is skipped`);
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-baseline-'));
  git('worktree', 'add', '--detach', dir, commit);
  const remove = () => {
    git('worktree', 'remove', '--force', dir);
  };
  try {
    linkBaselineDependencies(dir);
    const loggerModule = (await import(
      pathToFileURL(join(dir, 'lambdas/lib/logger.ts')).href
    )) as typeof import('../../lambdas/lib/logger');
    loggerModule.logger.setLogLevel('SILENT');
    const checkoutModule = (await import(
      pathToFileURL(join(dir, 'lambdas/handlers/create-checkout/handler.ts')).href
    )) as typeof import('../../lambdas/handlers/create-checkout/handler');
    return {
      handler: checkoutModule.createCheckoutHandler(() => checkoutModule.loadCheckoutDeps(env)),
      commit,
      remove,
    };
  } catch (error) {
    remove();
    throw error;
  }
}

export async function warmFigures() {
  section('Warm latency: the handlers here, the Stripe simulator and dynalite in a process of their own');
  logger.setLogLevel('SILENT');
  // create-checkout reads the shop's settings and reserves the bottles in the orders table on each
  // request, so it runs against dynalite as it runs against DynamoDB when deployed.
  const standIns = await startStandInsProcess();
  const env = checkoutEnvironment(standIns.env);
  const checkout = createCheckoutHandler(() => loadCheckoutDeps(env));
  const status = createStatusHandler(() => loadStatusDeps(env));
  const checkoutRequest = (handler: CheckoutHandler) => () => handler(benchCheckoutEvent());
  const baseline = await baselineCheckout(WARM_BASELINE_REF, env);
  try {
    const first = await checkoutRequest(checkout)();
    if (first.statusCode !== 200)
      throw new Error(`create-checkout answered ${first.statusCode}: ${first.body}`);
    const sessionId = (JSON.parse(first.body ?? '{}') as { sessionId?: string }).sessionId ?? '';
    const statusRequest = () =>
      status(
        apiGatewayEvent({
          method: 'GET',
          path: PUBLIC_API_ROUTES.checkoutStatus.path,
          headers: { accept: 'application/json' },
          queryStringParameters: { session_id: sessionId },
        }),
      );
    const before = baseline ? `create-checkout at ${baseline.commit}` : undefined;
    const rounds = await interleavedRounds([
      { name: 'create-checkout', request: checkoutRequest(checkout) },
      ...(baseline && before ? [{ name: before, request: checkoutRequest(baseline.handler) }] : []),
    ]);
    recordSequential(rounds, before, baseline?.commit);
    const results = await inFlightFigures(checkoutRequest(checkout), statusRequest);
    raw.warm = {
      ...rounds.results,
      ...results,
      'create-checkout sequential': rounds.results['create-checkout'] ?? [],
    };
  } finally {
    baseline?.remove();
    await standIns.close();
  }
}

interface Rounds {
  results: Record<string, number[]>;
  failures: Record<string, number>;
  cpuMs: Record<string, number>;
}

type Request = () => Promise<{ statusCode?: number }>;

/** WARM_ROUNDS of sequential checkouts, each build in a new random order: drift on a busy machine spreads over both. */
async function interleavedRounds(builds: Array<{ name: string; request: Request }>): Promise<Rounds> {
  const rounds: Rounds = { results: {}, failures: {}, cpuMs: {} };
  for (const build of builds) await timed(50, 4, build.request);
  for (let round = 0; round < WARM_ROUNDS; round += 1) {
    for (const build of shuffle([...builds])) {
      const cpuBefore = process.cpuUsage();
      const run = await timed(WARM_ROUND_REQUESTS, 1, build.request);
      const cpu = process.cpuUsage(cpuBefore);
      rounds.results[build.name] = [...(rounds.results[build.name] ?? []), ...run.durations];
      rounds.failures[build.name] = (rounds.failures[build.name] ?? 0) + run.failures;
      rounds.cpuMs[build.name] = (rounds.cpuMs[build.name] ?? 0) + (cpu.user + cpu.system) / 1000;
    }
  }
  return rounds;
}

/** The sequential rounds' figures: today's p50 / p99, and beside the build from before the reservation. */
function recordSequential({ results, failures, cpuMs }: Rounds, before: string | undefined, commit?: string) {
  /** This process's CPU per checkout: the handler's own work, the stand-ins' being in theirs. */
  const cpuPerCheckout = (name: string) => (cpuMs[name] ?? 0) / (WARM_ROUNDS * WARM_ROUND_REQUESTS);
  const p99 = (name: string) => percentile(results[name] ?? [], 99);
  const count = WARM_ROUNDS * WARM_ROUND_REQUESTS;
  const countOf = (name: string) =>
    (failures[name] ?? 0) > 0 ? `${failures[name]} answers were not 200` : `${count} requests`;
  record({
    section: 'warm',
    name: 'create-checkout warm sequential p50 / p99',
    value: `${round(percentile(results['create-checkout'] ?? [], 50), 2)} / ${round(p99('create-checkout'), 2)}`,
    unit: 'ms',
    detail: countOf('create-checkout'),
    target: 'p99 ≤ 10',
    pass: p99('create-checkout') <= 10 && (failures['create-checkout'] ?? 0) === 0,
  });
  if (before === undefined) return;
  const difference = p99('create-checkout') - p99(before);
  record({
    section: 'warm',
    name: 'create-checkout warm sequential p50 / p99 before the reservation',
    value: `${round(percentile(results[before] ?? [], 50), 2)} / ${round(p99(before), 2)}`,
    unit: 'ms',
    detail: `${countOf(before)}; commit ${WARM_BASELINE_REF} (${commit}), rounds interleaved with today's`,
  });
  record({
    section: 'warm',
    name: 'create-checkout warm p99: the reservation adds',
    value: round(difference, 2),
    unit: 'ms',
    target: '≤ 2',
    pass: difference <= 2 && (failures[before] ?? 0) === 0,
  });
  record({
    section: 'warm',
    name: 'create-checkout CPU per checkout, today / before the reservation',
    value: `${round(cpuPerCheckout('create-checkout'), 2)} / ${round(cpuPerCheckout(before), 2)}`,
    unit: 'ms',
    detail: "this process's CPU over the same rounds; the stand-ins' is in theirs",
    target: 'at most 1 more today',
    pass: cpuPerCheckout('create-checkout') - cpuPerCheckout(before) <= 1,
  });
}

/** create-checkout with 16 in flight, and checkout-status sequential and with 16 in flight. */
async function inFlightFigures(checkout: Request, status: Request): Promise<Record<string, number[]>> {
  const results: Record<string, number[]> = {};
  await timed(50, 4, status);
  for (const [name, request, mode, requests, inFlight] of [
    ['create-checkout', checkout, '16 in flight', 480, 16],
    ['checkout-status', status, 'sequential', 300, 1],
    ['checkout-status', status, '16 in flight', 480, 16],
  ] as const) {
    const run = await timed(requests, inFlight, request);
    results[`${name} ${mode}`] = run.durations;
    record({
      section: 'warm',
      name: `${name} warm ${mode} p50 / p99`,
      value: `${round(percentile(run.durations, 50), 2)} / ${round(percentile(run.durations, 99), 2)}`,
      unit: 'ms',
      detail: run.failures > 0 ? `${run.failures} answers were not 200` : `${requests} requests`,
    });
  }
  return results;
}
