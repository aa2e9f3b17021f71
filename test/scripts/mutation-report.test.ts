import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  isPartialRun,
  MUTATION_PAGE,
  type MutationRun,
  updateMutationPage,
} from '../../scripts/mutation-report';

/** A mutant as Stryker's JSON reporter writes it (mutation-testing-report-schema). */
function mutant(id: number, status: string) {
  return {
    id: String(id),
    mutatorName: 'ConditionalExpression',
    replacement: 'true',
    location: { start: { line: id, column: 1 }, end: { line: id, column: 5 } },
    status,
    static: false,
  };
}

const mutants = (statuses: string[]) => statuses.map((status, i) => mutant(i + 1, status));

/** A report in Stryker's format: three files, every status the score counts or leaves out. */
const REPORT = {
  schemaVersion: '2',
  thresholds: { high: 90, low: 80 },
  projectRoot: '/work/shop',
  files: {
    'shared/pricing.ts': {
      language: 'typescript',
      source: 'export const x = 1;',
      mutants: mutants([
        'Killed',
        'Killed',
        'Killed',
        'Timeout',
        'Survived',
        'NoCoverage',
        'Ignored',
        'Ignored',
        'CompileError',
      ]),
    },
    'lambdas/lib/http.ts': {
      language: 'typescript',
      source: 'export const y = 2;',
      mutants: mutants(['Killed', 'Killed', 'RuntimeError']),
    },
    // Module-level code only: every mutant static, so ignored, and no score to show.
    'shared/checkout-status.ts': {
      language: 'typescript',
      source: 'export const z = 3;',
      mutants: mutants(['Ignored', 'Ignored', 'Ignored']),
    },
  },
};

const START = '<!-- mutation figures: start (written by the tool; edits here are overwritten) -->';
const END = '<!-- mutation figures: end -->';

/** A page as an earlier run left it: two rows, one of a file this report also covers. */
const PAGE = [
  '# Mutation testing',
  '',
  'Written by hand.',
  '',
  START,
  '',
  '**90.00 %** over 2 files.',
  '',
  '| file                 | score    | detected | survived | no coverage | run                  |',
  '| -------------------- | -------- | -------- | -------- | ----------- | -------------------- |',
  '| `shared/dispatch.ts` | 93.55 %  | 58       | 3        | 1           | 2026-11-25 `8e8daf2` |',
  '| `shared/pricing.ts`  | 91.67 %  | 22       | 2        | 0           | 2026-11-25 `8e8daf2` |',
  '| `lambdas/gone.ts`    | 50.00 %  | 1        | 1        | 0           | 2026-11-25 `8e8daf2` |',
  '',
  END,
  '',
  'Also by hand.',
  '',
].join('\n');

const RUN: MutationRun = {
  at: '2026-11-26T10:00:00.000Z',
  commit: 'abc1234',
  uncommitted: false,
  partial: false,
};

describe('docs/reports/mutation.md from a Stryker report', () => {
  it('writes the committed page in docs/reports/, which keeps the block a run replaces', () => {
    // Act
    const page = updateMutationPage(readFileSync(MUTATION_PAGE, 'utf8'), REPORT, { ...RUN, partial: true });

    // Assess
    expect(MUTATION_PAGE).toBe('docs/reports/mutation.md');
    expect(page).toContain('Latest run: 2026-11-26 `abc1234`, 3 files (`--mutate`)');
  });

  it("writes a full run's score as Stryker computes it, (killed + timeout) ÷ (killed + timeout + survived + no coverage), file by file", () => {
    // Act
    const page = updateMutationPage(PAGE, REPORT, RUN);

    // Assess
    expect(page).toBe(
      [
        '# Mutation testing',
        '',
        'Written by hand.',
        '',
        START,
        '',
        '**75.00 %** over 2 files (6 of 8 mutants detected; 1 survived, 1 without coverage); the target is 90 %.',
        '',
        'Latest run: 2026-11-26 `abc1234`, every file (a full run). Not counted in it: 5 ignored (static mutants, log messages), 2 that did not compile or crashed the run.',
        '',
        '| file                  | score    | detected | survived | no coverage | run                  |',
        '| --------------------- | -------- | -------- | -------- | ----------- | -------------------- |',
        '| `lambdas/lib/http.ts` | 100.00 % | 2        | 0        | 0           | 2026-11-26 `abc1234` |',
        '| `shared/pricing.ts`   | 66.67 %  | 4        | 1        | 1           | 2026-11-26 `abc1234` |',
        '',
        END,
        '',
        'Also by hand.',
        '',
      ].join('\n'),
    );
  });

  it('after a run of some files, replaces their rows and keeps the others with their own run', () => {
    // Act
    const page = updateMutationPage(PAGE, REPORT, { ...RUN, partial: true, uncommitted: true });

    // Assess
    expect(page).toContain(
      [
        '**90.28 %** over 4 files (65 of 72 mutants detected; 5 survived, 2 without coverage); the target is 90 %.',
        '',
        'Latest run: 2026-11-26 `abc1234` with changes, 3 files (`--mutate`), merged into the rows of earlier runs. Not counted in it: 5 ignored (static mutants, log messages), 2 that did not compile or crashed the run.',
        '',
        '| file                  | score    | detected | survived | no coverage | run                               |',
        '| --------------------- | -------- | -------- | -------- | ----------- | --------------------------------- |',
        '| `lambdas/gone.ts`     | 50.00 %  | 1        | 1        | 0           | 2026-11-25 `8e8daf2`              |',
        '| `lambdas/lib/http.ts` | 100.00 % | 2        | 0        | 0           | 2026-11-26 `abc1234` with changes |',
        '| `shared/dispatch.ts`  | 93.55 %  | 58       | 3        | 1           | 2026-11-25 `8e8daf2`              |',
        '| `shared/pricing.ts`   | 66.67 %  | 4        | 1        | 1           | 2026-11-26 `abc1234` with changes |',
      ].join('\n'),
    );
  });

  it('drops a kept row whose file no longer exists', () => {
    // Act
    const page = updateMutationPage(
      PAGE,
      REPORT,
      { ...RUN, partial: true },
      (file) => file !== 'lambdas/gone.ts',
    );

    // Assess
    expect(page).not.toContain('lambdas/gone.ts');
    expect(page).toContain('| `shared/dispatch.ts`  | 93.55 %  | 58       | 3        | 1           |');
  });

  it('refuses a file that is not a Stryker report, naming what is wrong', () => {
    // Prepare
    const notAReport = { files: { 'shared/pricing.ts': { mutants: [{ status: 'Dead' }] } } };

    // Act
    const write = () => updateMutationPage(PAGE, notAReport, RUN);

    // Assess
    expect(write).toThrow(/files.*shared\/pricing\.ts.*mutants.*status/s);
  });

  it.each([
    [['--mutate', 'shared/pricing.ts'], true],
    [['--mutate=shared/pricing.ts'], true],
    [['-m', 'shared/pricing.ts'], true],
    [['--concurrency', '1'], false],
    [[], false],
  ])('reads %j as a partial run: %s', (args, partial) => {
    expect(isPartialRun(args)).toBe(partial);
  });
});
