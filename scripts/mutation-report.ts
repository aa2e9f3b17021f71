/**
 * Run after Stryker by `npm run mutation`: reads its JSON report (reports/mutation/mutation.json)
 * and rewrites the figures block of docs/reports/mutation.md. With `--mutate` (a run of some files only)
 * the files run replace their own rows and the other rows stay, each with the date and commit of
 * the run that made it; a full run replaces every row.
 *
 * The score is Stryker's: detected (killed + timeout) ÷ valid (detected + survived + no coverage).
 * Ignored mutants (static ones, log messages) and mutants that did not compile or crashed the run
 * are not counted, as in Stryker's own report.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { generatedBlock, markdownTable, replaceGeneratedBlock } from './docs-page';

/** Where stryker.config.mjs's JSON reporter writes. */
const REPORT = 'reports/mutation/mutation.json';
/** The page whose figures block a run rewrites (generated pages live in docs/reports/). */
export const MUTATION_PAGE = 'docs/reports/mutation.md';
/** The name of the block `npm run mutation` owns in docs/reports/mutation.md. */
export const MUTATION_BLOCK = 'mutation figures';

const MUTANT_STATUSES = [
  'Killed',
  'Survived',
  'NoCoverage',
  'Timeout',
  'CompileError',
  'RuntimeError',
  'Ignored',
  'Pending',
] as const;

/** The part of Stryker's report (mutation-testing-report-schema) the figures come from. */
const strykerReport = z.object({
  thresholds: z.object({ high: z.number(), low: z.number() }).optional(),
  files: z.record(z.string(), z.object({ mutants: z.array(z.object({ status: z.enum(MUTANT_STATUSES) })) })),
});

/** One file's mutants as the score counts them. */
export interface FileFigures {
  file: string;
  /** Killed or timed out: a test noticed the change. */
  detected: number;
  survived: number;
  noCoverage: number;
  /** The date and commit of the run these figures are from. */
  run: string;
}

/** The run whose report is being written. */
export interface MutationRun {
  /** ISO 8601. */
  at: string;
  commit: string;
  /** The working tree had changes: the run mutated that commit plus them. */
  uncommitted: boolean;
  /** Only some files were mutated (`--mutate`): the other rows are kept from earlier runs. */
  partial: boolean;
}

/** Stryker's score in percent; NaN when nothing was valid, as Stryker reports it. */
export function mutationScore(figures: Pick<FileFigures, 'detected' | 'survived' | 'noCoverage'>): number {
  const valid = figures.detected + figures.survived + figures.noCoverage;
  return valid === 0 ? Number.NaN : (figures.detected / valid) * 100;
}

/** Counts a Stryker JSON report, file by file. Throws, naming the problem, on anything else. */
export function countReport(report: unknown, run: string) {
  const parsed = strykerReport.parse(report);
  const files = Object.entries(parsed.files).map(([file, { mutants }]): FileFigures => {
    const count = (...statuses: (typeof MUTANT_STATUSES)[number][]) =>
      mutants.filter((mutant) => statuses.includes(mutant.status)).length;
    return {
      file,
      detected: count('Killed', 'Timeout'),
      survived: count('Survived'),
      noCoverage: count('NoCoverage'),
      run,
    };
  });
  const all = Object.values(parsed.files).flatMap((file) => file.mutants);
  return {
    files,
    ignored: all.filter((mutant) => mutant.status === 'Ignored').length,
    errors: all.filter((mutant) => mutant.status === 'CompileError' || mutant.status === 'RuntimeError')
      .length,
    target: parsed.thresholds?.high,
  };
}

const TABLE_HEADER = ['file', 'score', 'detected', 'survived', 'no coverage', 'run'];

/** The rows a page's block holds, so a partial run can keep the ones it did not mutate. */
export function rowsOfPage(page: string): FileFigures[] {
  const block = generatedBlock(page, MUTATION_BLOCK) ?? '';
  return block
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => {
      const [file, , detected, survived, noCoverage, run] = line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim());
      const numbers = [detected, survived, noCoverage].map(Number);
      if (!file || run === undefined || numbers.some((n) => !Number.isInteger(n))) return [];
      const [d = 0, s = 0, n = 0] = numbers;
      return [{ file: file.replaceAll('`', ''), detected: d, survived: s, noCoverage: n, run }];
    });
}

const percent = (score: number) => (Number.isNaN(score) ? 'n/a' : `${score.toFixed(2)} %`);
const thousands = (n: number) => n.toLocaleString('en-GB');
const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;

/**
 * The page with its figures block rewritten from a Stryker report. `fileExists` drops kept rows
 * of files that are gone (moved or deleted since their run).
 */
export function updateMutationPage(
  page: string,
  report: unknown,
  run: MutationRun,
  fileExists: (file: string) => boolean = () => true,
): string {
  const label = `${run.at.slice(0, 10)} \`${run.commit}\`${run.uncommitted ? ' with changes' : ''}`;
  const counted = countReport(report, label);
  const runFiles = new Set(counted.files.map((f) => f.file));
  const kept = run.partial
    ? rowsOfPage(page).filter((row) => !runFiles.has(row.file) && fileExists(row.file))
    : [];
  // A file whose every mutant was ignored (module-level code only) has no score to show.
  const rows = [...counted.files.filter((f) => !Number.isNaN(mutationScore(f))), ...kept].sort((a, b) =>
    a.file.localeCompare(b.file),
  );
  const total = rows.reduce(
    (sum, row) => ({
      detected: sum.detected + row.detected,
      survived: sum.survived + row.survived,
      noCoverage: sum.noCoverage + row.noCoverage,
    }),
    { detected: 0, survived: 0, noCoverage: 0 },
  );
  const valid = total.detected + total.survived + total.noCoverage;
  const scope = run.partial
    ? `${files(counted.files.length)} (\`--mutate\`), merged into the rows of earlier runs`
    : 'every file (a full run)';
  const block = [
    `**${percent(mutationScore(total))}** over ${files(rows.length)} (${thousands(total.detected)} of ${thousands(valid)} ` +
      `mutants detected; ${thousands(total.survived)} survived, ${thousands(total.noCoverage)} without coverage)` +
      `${counted.target === undefined ? '.' : `; the target is ${counted.target} %.`}`,
    '',
    `Latest run: ${label}, ${scope}. Not counted in it: ${thousands(counted.ignored)} ignored (static ` +
      `mutants, log messages), ${thousands(counted.errors)} that did not compile or crashed the run.`,
    '',
    markdownTable(
      TABLE_HEADER,
      rows.map((row) => [
        `\`${row.file}\``,
        percent(mutationScore(row)),
        String(row.detected),
        String(row.survived),
        String(row.noCoverage),
        row.run,
      ]),
    ),
  ].join('\n');
  return replaceGeneratedBlock(page, MUTATION_BLOCK, block);
}

/** `--mutate a,b`, `--mutate=a,b` or `-m a,b`: Stryker ran only those files. */
export function isPartialRun(args: readonly string[]): boolean {
  return args.some((arg) => arg === '--mutate' || arg === '-m' || arg.startsWith('--mutate='));
}

function main() {
  const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
  const run: MutationRun = {
    at: new Date().toISOString(),
    commit: git('rev-parse', '--short', 'HEAD'),
    uncommitted: git('status', '--porcelain') !== '',
    partial: isPartialRun(process.argv.slice(2)),
  };
  const report: unknown = JSON.parse(readFileSync(REPORT, 'utf8'));
  writeFileSync(
    MUTATION_PAGE,
    updateMutationPage(readFileSync(MUTATION_PAGE, 'utf8'), report, run, (file) => existsSync(file)),
  );
  console.log(
    `Written to ${MUTATION_PAGE}${run.partial ? ' (the files of this run; other rows kept)' : ''}.`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
