// Pages under docs/reports/ that a tool rewrites in part (benchmarks.md from `npm run bench`,
// mutation.md from `npm run mutation`): the tool owns one marked block, the prose around it is
// written by hand and kept.

/** A Markdown table laid out as Biome formats one, so a rewritten page passes `npm run lint`. */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cells = [header, ...rows].map((row) => header.map((_, i) => escapeCell(row[i] ?? '')));
  // Biome pads by characters, not UTF-16 units; the figures hold no wide characters.
  const width = (text: string) => [...text].length;
  const widths = header.map((_, i) => Math.max(3, ...cells.map((row) => width(row[i] ?? ''))));
  const line = (row: readonly string[]) =>
    `| ${row.map((cell, i) => cell + ' '.repeat((widths[i] ?? 0) - width(cell))).join(' | ')} |`;
  const [head = [], ...body] = cells;
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

function escapeCell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

/**
 * Replaces what lies between the block's two marker comments with `content`, keeping the rest of
 * the page. A page without the markers is a mistake (someone deleted them), not a page to
 * overwrite: the hand-written text around the block would be lost.
 */
export function replaceGeneratedBlock(page: string, name: string, content: string): string {
  const { start, end } = blockMarkers(name);
  const from = page.indexOf(start);
  const to = page.indexOf(end);
  if (from === -1 || to === -1 || to < from) {
    throw new Error(`The page has no "${start}" … "${end}" block to rewrite.`);
  }
  return `${page.slice(0, from + start.length)}\n\n${content.trim()}\n\n${page.slice(to)}`;
}

/** The text between the block's markers, or undefined when the page has none. */
export function generatedBlock(page: string, name: string): string | undefined {
  const { start, end } = blockMarkers(name);
  const from = page.indexOf(start);
  const to = page.indexOf(end);
  return from === -1 || to === -1 || to < from ? undefined : page.slice(from + start.length, to);
}

function blockMarkers(name: string) {
  return {
    start: `<!-- ${name}: start (written by the tool; edits here are overwritten) -->`,
    end: `<!-- ${name}: end -->`,
  };
}
