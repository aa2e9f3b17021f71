import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BENCHMARKS_PAGE, type BenchRun, updateBenchmarksPage } from '../../scripts/benchmarks-page';

const PAGE = [
  '# Benchmarks',
  '',
  'How the bench is run, written by hand.',
  '',
  '<!-- bench figures: start (written by the tool; edits here are overwritten) -->',
  '',
  'An older run.',
  '',
  '<!-- bench figures: end -->',
  '',
  '## Reading it',
  '',
  'Kept as it is.',
  '',
].join('\n');

const RUN: BenchRun = {
  at: '2026-11-26T09:05:41.123Z',
  commit: 'abc1234',
  uncommitted: false,
  node: 'v20.19.2',
  cpus: 2,
  loadAverage: 0.4321,
  partial: false,
  figures: [
    {
      section: 'web',
      name: 'first-load JS (gzip)',
      value: 84.9,
      unit: 'KiB',
      target: '≤ 85',
      mark: 'pass',
    },
    { section: 'web', name: 'first-load JS (brotli)', value: 73.7, unit: 'KiB', mark: 'info' },
    {
      section: 'lambda',
      name: 'create-checkout cold load',
      value: 47.1,
      unit: 'ms',
      detail: 'range 41.3–65.1 ms',
      target: '≤ 40',
      mark: 'miss',
    },
    {
      section: 'fulfilment',
      name: 'per order: DynamoDB | SES',
      value: '4 | 2',
      unit: '',
      mark: 'info',
    },
  ],
};

describe('docs/reports/benchmarks.md from npm run bench', () => {
  it('rewrites only the generated block: the run, its machine and the table as Biome lays it out', () => {
    // Act
    const page = updateBenchmarksPage(PAGE, RUN);

    // Assess
    expect(page).toBe(
      [
        '# Benchmarks',
        '',
        'How the bench is run, written by hand.',
        '',
        '<!-- bench figures: start (written by the tool; edits here are overwritten) -->',
        '',
        'Latest run: 2026-11-26 09:05 UTC, commit `abc1234`, Node v20.19.2 on 2 CPUs (load average 0.43 at the start). 1 target missed.',
        '',
        '|          | Figure                     | Measured | Target | Detail             |',
        '| -------- | -------------------------- | -------- | ------ | ------------------ |',
        '| pass     | first-load JS (gzip)       | 84.9 KiB | ≤ 85   |                    |',
        '|          | first-load JS (brotli)     | 73.7 KiB |        |                    |',
        '| **miss** | create-checkout cold load  | 47.1 ms  | ≤ 40   | range 41.3–65.1 ms |',
        '|          | per order: DynamoDB \\| SES | 4 \\| 2   |        |                    |',
        '',
        '<!-- bench figures: end -->',
        '',
        '## Reading it',
        '',
        'Kept as it is.',
        '',
      ].join('\n'),
    );
  });

  it('says when the tree measured had uncommitted changes, and when every target was met', () => {
    // Act
    const page = updateBenchmarksPage(PAGE, {
      ...RUN,
      uncommitted: true,
      cpus: 1,
      figures: RUN.figures.filter((figure) => figure.mark !== 'miss'),
    });

    // Assess
    expect(page).toContain(
      'Latest run: 2026-11-26 09:05 UTC, commit `abc1234` with uncommitted changes, Node v20.19.2 on 1 CPU (load average 0.43 at the start). Every target met.',
    );
  });

  it('leaves the page alone after a partial run, so the table is always one whole run', () => {
    // Act
    const page = updateBenchmarksPage(PAGE, { ...RUN, partial: true });

    // Assess
    expect(page).toBeUndefined();
  });

  it('refuses a page whose markers are gone rather than overwrite the hand-written text', () => {
    // Prepare
    const withoutMarkers = '# Benchmarks\n\nHand-written only.\n';

    // Act
    const rewrite = () => updateBenchmarksPage(withoutMarkers, RUN);

    // Assess
    expect(rewrite).toThrow(
      'The page has no "<!-- bench figures: start (written by the tool; edits here are overwritten) -->" … "<!-- bench figures: end -->" block to rewrite.',
    );
  });

  it('writes the committed page in docs/reports/, which keeps the block a run replaces', () => {
    // Act
    const rewritten = updateBenchmarksPage(readFileSync(BENCHMARKS_PAGE, 'utf8'), RUN);

    // Assess
    expect(BENCHMARKS_PAGE).toBe('docs/reports/benchmarks.md');
    expect(rewritten).toContain('Latest run: 2026-11-26 09:05 UTC, commit `abc1234`');
  });
});
