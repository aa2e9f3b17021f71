/**
 * Where a browser test saves a picture the docs show: into docs/screenshots only when asked
 * (`DOCS_PICTURES=1`), so a test run leaves the checkout as it found it; else beside the run's
 * other output, to look at.
 */
export function docsPicture(name: string): string {
  return process.env.DOCS_PICTURES === '1' ? `docs/screenshots/${name}` : `test-results/pictures/${name}`;
}
