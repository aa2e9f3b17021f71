/** One Lighthouse run, as the Lighthouse and admin benchmarks make it. */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { chromiumPath } from '../../test/support/chromium';

const execFileAsync = promisify(execFile);
// ---------------------------------------------------------------------------------------------
// Lighthouse

export interface LighthouseRun {
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  tbtMs: number;
}

const lighthouseReport = (value: unknown): LighthouseRun => {
  const report = value as {
    categories: Record<string, { score: number | null }>;
    audits: Record<string, { numericValue?: number }>;
  };
  return {
    performance: report.categories.performance?.score ?? 0,
    accessibility: report.categories.accessibility?.score ?? 0,
    bestPractices: report.categories['best-practices']?.score ?? 0,
    lcpMs: report.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
    tbtMs: report.audits['total-blocking-time']?.numericValue ?? Number.NaN,
  };
};

const LIGHTHOUSE_BIN = resolve('node_modules/.bin/lighthouse');
const CHROME = process.env.CHROME_PATH ?? (await chromiumPath());

/** Why Lighthouse cannot run here, or undefined when it can. */
export function lighthouseMissing(): string | undefined {
  if (!existsSync(CHROME)) return `no Chromium at ${CHROME} (set CHROME_PATH)`;
  if (!existsSync(LIGHTHOUSE_BIN)) return 'lighthouse is not installed';
  return undefined;
}

/** One Lighthouse run (mobile defaults) of a URL, its report written to `output`. */
export async function runLighthouse(url: string, output: string, throttling: 'simulate' | 'devtools') {
  await execFileAsync(
    LIGHTHOUSE_BIN,
    [
      url,
      '--output=json',
      `--output-path=${output}`,
      '--quiet',
      `--throttling-method=${throttling}`,
      '--only-categories=performance,accessibility,best-practices',
      '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage',
    ],
    { env: { ...process.env, CHROME_PATH: CHROME }, timeout: 120_000 },
  );
  return lighthouseReport(JSON.parse(readFileSync(output, 'utf8')));
}
