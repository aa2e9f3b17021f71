import type { BenchFigure } from '../benchmarks-page';

const KIB = 1024;
// ---------------------------------------------------------------------------------------------
// Figures, targets and the table

type Figure = BenchFigure;
export const figures: Figure[] = [];
export const raw: Record<string, unknown> = {};

export function record(figure: Omit<Figure, 'mark'> & { pass?: boolean }) {
  const { pass, ...rest } = figure;
  figures.push({ ...rest, mark: pass === undefined ? 'info' : pass ? 'pass' : 'miss' });
}

export const kib = (bytes: number) => Math.round((bytes / KIB) * 10) / 10;
export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}
export const range = (values: readonly number[], offset = 0) =>
  `${round(Math.min(...values) - offset)}–${round(Math.max(...values) - offset)}`;

export function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

export function section(title: string) {
  console.log(`\n== ${title}`);
}

export function printTable() {
  console.log('\n== Results');
  const rows = figures.map((f) => [
    f.mark === 'pass' ? 'PASS' : f.mark === 'miss' ? 'MISS' : '    ',
    f.name,
    `${f.value}${f.unit ? ` ${f.unit}` : ''}`,
    f.target ?? '',
    f.detail ?? '',
  ]);
  const widths = [4, 62, 22, 12].map((w, i) => Math.max(w, ...rows.map((r) => (r[i] ?? '').length)));
  for (const row of rows)
    console.log(row.map((cell, i) => (i < 4 ? cell.padEnd(widths[i] ?? 0) : cell)).join('  '));
}
