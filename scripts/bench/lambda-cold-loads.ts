import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { type BundleFiles, bundleAsDeployed } from '../../test/support/bundle';
import { kib, median, range, raw, record, round, section, shuffle } from './figures';
import { COLD_ROUNDS, LAMBDAS, type LambdaName } from './shop';

// ---------------------------------------------------------------------------------------------
// Lambdas: bundle size and cold module load

/** Bundled exactly as the CDK stack bundles it (test/support/bundle.ts). */
const bundle = bundleAsDeployed;

const DYNAMODB_EXPORTS =
  "export { DynamoDBClient, ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';\n" +
  "export { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';";
const STRIPE_EXPORTS = "export { default as Stripe } from 'stripe';";
const ZOD_EXPORTS = "export { z } from 'zod';";
const LOGGER_EXPORTS = "export { Logger } from '@aws-lambda-powertools/logger';";
const SES_EXPORTS = "export { SESClient, SendEmailCommand, SESServiceException } from '@aws-sdk/client-ses';";

/**
 * The Node built-ins Lambda's Node runtime has loaded before it imports the handler
 * (aws-lambda-nodejs-runtime-interface-client: its HTTP client to the Runtime API, its response
 * stream, console patch, errors and handler loader). A handler does not pay for them there, so it
 * does not here: each load below runs after them, the baseline's too.
 */
const RUNTIME_BUILTINS = ['http', 'net', 'util', 'assert', 'fs', 'module', 'path'];

function coldLoad(file: string, sourceMaps: boolean): number {
  const runtime = RUNTIME_BUILTINS.map((name) => `await import('node:${name}');`).join(' ');
  const out = execFileSync(
    process.execPath,
    [
      ...(sourceMaps ? ['--enable-source-maps'] : []),
      '--input-type=module',
      '-e',
      `${runtime} const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(performance.now() - t);`,
    ],
    // A clean environment apart from PATH: the handlers read their settings on first request, not on load.
    { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', NODE_NO_WARNINGS: '1' } },
  );
  return Number(out.trim().split('\n').pop());
}

/**
 * The libraries alone, with the bindings the handlers import, bundled as a handler is: what a
 * handler that loads them pays at start before any code of ours runs, the floor under its target.
 * `under`: the handlers whose cold load is read against it.
 */
const LIBRARY_FLOORS: { name: string; exports: string[]; under: LambdaName[] }[] = [
  { name: 'DynamoDB document client', exports: [DYNAMODB_EXPORTS], under: [] },
  { name: 'Stripe SDK', exports: [STRIPE_EXPORTS], under: [] },
  {
    name: 'Stripe, DynamoDB, zod and Powertools logger',
    exports: [STRIPE_EXPORTS, DYNAMODB_EXPORTS, ZOD_EXPORTS, LOGGER_EXPORTS],
    under: ['create-checkout', 'checkout-status'],
  },
  {
    name: 'those and SES',
    exports: [STRIPE_EXPORTS, DYNAMODB_EXPORTS, ZOD_EXPORTS, LOGGER_EXPORTS, SES_EXPORTS],
    under: ['order-page'],
  },
  {
    name: 'those, SES and Powertools metrics',
    exports: [
      STRIPE_EXPORTS,
      DYNAMODB_EXPORTS,
      ZOD_EXPORTS,
      LOGGER_EXPORTS,
      SES_EXPORTS,
      "export { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';",
    ],
    under: ['stripe-webhook', 'reconcile-orders'],
  },
];

export async function lambdaFigures() {
  section(`Lambdas: bundles and cold module load (${COLD_ROUNDS} interleaved rounds)`);
  const dir = mkdtempSync(join(tmpdir(), 'shop-bench-'));
  // The floors' entries import packages, so they sit where Node's resolution finds node_modules.
  mkdirSync(join('node_modules', '.cache'), { recursive: true });
  const floorDir = mkdtempSync(join('node_modules', '.cache', 'shop-bench-floors-'));
  try {
    const { files, written } = await bundleAll(dir, floorDir);
    const loads = loadInterleaved(files);
    const base = {
      maps: median(loads.get('baseline|maps') ?? []),
      plain: median(loads.get('baseline|plain') ?? []),
    };
    console.log(
      `  baseline (empty module): ${round(base.maps, 2)} ms with source maps, ${round(base.plain, 2)} ms without`,
    );
    raw.coldLoads = Object.fromEntries(loads);
    const floors = recordFloors(loads, base.plain);
    for (const name of LAMBDAS) recordLambda(name, written[name] ?? {}, loads, base, floors);
  } finally {
    rmSync(floorDir, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The baseline, each floor and each handler, bundled each in its own folder as in its Lambda package. */
async function bundleAll(dir: string, floorDir: string) {
  const emptyEntry = join(dir, 'empty.ts');
  writeFileSync(emptyEntry, 'export const handler = async () => ({ statusCode: 200 });\n');
  const files = new Map<string, string>();
  const written: Partial<Record<LambdaName, BundleFiles>> = {};
  await bundle(emptyEntry, join(dir, 'baseline'));
  files.set('baseline', join(dir, 'baseline', 'index.mjs'));
  for (const [index, { name, exports }] of LIBRARY_FLOORS.entries()) {
    const entry = join(floorDir, `floor-${index}.ts`);
    writeFileSync(entry, `${exports.join('\n')}\n`);
    await bundle(entry, join(dir, `floor-${index}`));
    files.set(name, join(dir, `floor-${index}`, 'index.mjs'));
  }
  for (const name of LAMBDAS) {
    written[name] = await bundle(`lambdas/handlers/${name}/handler.ts`, join(dir, name));
    files.set(name, join(dir, name, 'index.mjs'));
  }
  return { files, written };
}

/** Every bundle loaded COLD_ROUNDS times, with and without source maps, each round in a new random order. */
function loadInterleaved(files: ReadonlyMap<string, string>): Map<string, number[]> {
  const loads = new Map<string, number[]>();
  for (let round = 0; round < COLD_ROUNDS; round += 1) {
    const order = shuffle([...files.keys()].flatMap((name) => [`${name}|maps`, `${name}|plain`]));
    for (const key of order) {
      const [name = '', variant] = key.split('|');
      const ms = coldLoad(files.get(name) ?? '', variant === 'maps');
      loads.set(key, [...(loads.get(key) ?? []), ms]);
    }
  }
  return loads;
}

/** Each floor's load above the baseline, recorded; by floor name. */
function recordFloors(loads: ReadonlyMap<string, number[]>, basePlain: number): Map<string, number> {
  const floors = new Map<string, number>();
  for (const { name } of LIBRARY_FLOORS) {
    const plain = loads.get(`${name}|plain`) ?? [];
    floors.set(name, median(plain) - basePlain);
    record({
      section: 'lambda',
      name: `floor: ${name} alone, cold load`,
      value: round(median(plain) - basePlain),
      unit: 'ms',
      detail: `range ${range(plain, basePlain)} ms; the libraries only, bundled as a handler is`,
    });
  }
  return floors;
}

/** A handler's bundle size and its cold loads, beside its floor: target floor + 5 ms (issue 47). */
function recordLambda(
  name: LambdaName,
  { atStart = [], onDemand = [] }: Partial<BundleFiles>,
  loads: ReadonlyMap<string, number[]>,
  base: { maps: number; plain: number },
  floors: ReadonlyMap<string, number>,
) {
  // What Node reads with index.mjs (its static chunk imports too); chunks reached only through
  // import() are read when that code runs, and are listed apart.
  const sizeOf = (list: string[], suffix = '') =>
    list.reduce((total, file) => total + statSync(`${file}${suffix}`).size, 0);
  const gzipSize = atStart.reduce((total, file) => total + gzipSync(readFileSync(file)).length, 0);
  const loadsWithMaps = loads.get(`${name}|maps`) ?? [];
  const plain = loads.get(`${name}|plain`) ?? [];
  const withMaps = median(loadsWithMaps) - base.maps;
  const withoutMaps = median(plain) - base.plain;
  const floorName = LIBRARY_FLOORS.find((floor) => floor.under.includes(name))?.name;
  const floor = floorName === undefined ? undefined : floors.get(floorName);
  // The old 50/55 ms targets are retired: a handler loads within 5 ms of its libraries alone.
  const target = floor === undefined ? undefined : floor + 5;
  // Loaded in the same rounds, so each round's difference cancels that round's load on the machine.
  const floorLoads = loads.get(`${floorName}|plain`) ?? [];
  const overFloor = median(plain.map((ms, index) => ms - (floorLoads[index] ?? Number.NaN)));
  record({
    section: 'lambda',
    name: `${name} bundle (loaded at start)`,
    value: kib(sizeOf(atStart)),
    unit: 'KiB',
    detail:
      `${atStart.length} file(s), gzip ${kib(gzipSize)} KiB; maps ${kib(sizeOf(atStart, '.map'))} KiB` +
      (onDemand.length > 0 ? `; ${onDemand.length} chunk(s) on demand, ${kib(sizeOf(onDemand))} KiB` : ''),
  });
  record({
    section: 'lambda',
    name: `${name} cold load (as deployed: no --enable-source-maps)`,
    value: round(withoutMaps),
    unit: 'ms',
    detail:
      `range ${range(plain, base.plain)} ms` +
      (floor === undefined
        ? ''
        : `; its libraries alone (${floorName}) ${round(floor)} ms; round by round it loads ${round(overFloor)} ms over them (median)`),
    ...(target !== undefined && { target: `≤ ${round(target)} (floor + 5)`, pass: withoutMaps <= target }),
  });
  record({
    section: 'lambda',
    name: `${name} cold load (with --enable-source-maps, as before)`,
    value: round(withMaps),
    unit: 'ms',
    detail: `range ${range(loadsWithMaps, base.maps)} ms; maps cost ${round(((withMaps - withoutMaps) / withoutMaps) * 100)} %`,
  });
}
