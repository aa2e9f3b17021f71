import { markdownTable, replaceGeneratedBlock } from './docs-page';

/** One figure of `npm run bench`: measured, and judged against its target when it has one. */
export interface BenchFigure {
  section: string;
  name: string;
  value: number | string;
  unit: string;
  detail?: string;
  target?: string;
  mark: 'pass' | 'miss' | 'info';
}

/** Where and when the figures were measured: a figure means little without its machine. */
export interface BenchRun {
  /** When the run started, ISO 8601. */
  at: string;
  /** The commit measured, as `git rev-parse --short HEAD` names it. */
  commit: string;
  /** The working tree had changes: what was measured is that commit plus them. */
  uncommitted: boolean;
  node: string;
  cpus: number;
  /** The one-minute load average when the run started: a busy machine slows every timing. */
  loadAverage: number;
  /** Only some parts ran (`npm run bench -- web lambda`). */
  partial: boolean;
  figures: readonly BenchFigure[];
}

/** The page whose generated block a full run rewrites (generated pages live in docs/reports/). */
export const BENCHMARKS_PAGE = 'docs/reports/benchmarks.md';
/** The name of the block `npm run bench` owns in that page. */
export const BENCH_BLOCK = 'bench figures';

/** The figures as a Markdown table: mark, figure, measured value, target, detail. */
export function benchTable(figures: readonly BenchFigure[]): string {
  return markdownTable(
    ['', 'Figure', 'Measured', 'Target', 'Detail'],
    figures.map((f) => [
      f.mark === 'pass' ? 'pass' : f.mark === 'miss' ? '**miss**' : '',
      f.name,
      `${f.value}${f.unit ? ` ${f.unit}` : ''}`,
      f.target ?? '',
      f.detail ?? '',
    ]),
  );
}

/** The run's date, commit and machine, then its table: what docs/reports/benchmarks.md shows. */
export function benchBlock(run: BenchRun): string {
  const when = `${run.at.slice(0, 10)} ${run.at.slice(11, 16)} UTC`;
  const commit = `commit \`${run.commit}\`${run.uncommitted ? ' with uncommitted changes' : ''}`;
  const machine = `Node ${run.node} on ${count(run.cpus, 'CPU')} (load average ${run.loadAverage.toFixed(2)} at the start)`;
  const misses = run.figures.filter((f) => f.mark === 'miss').length;
  const verdict = misses === 0 ? 'Every target met.' : `${count(misses, 'target')} missed.`;
  return [`Latest run: ${when}, ${commit}, ${machine}. ${verdict}`, '', benchTable(run.figures)].join('\n');
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/**
 * The page with its generated block replaced by this run, the hand-written text kept; undefined
 * for a partial run, which leaves the page as it is: the table is always one whole run, since
 * figures from different days or machines side by side compare what cannot be compared.
 */
export function updateBenchmarksPage(page: string, run: BenchRun): string | undefined {
  return run.partial ? undefined : replaceGeneratedBlock(page, BENCH_BLOCK, benchBlock(run));
}
