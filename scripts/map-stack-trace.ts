/**
 * `npm run map-stack-trace -- <package folder> < trace.txt`: rewrites a stack trace logged by a
 * deployed Lambda (positions in its minified `index.mjs` and `chunks/*.mjs`) to source files and lines.
 *
 * The functions run without `--enable-source-maps` (it added 13–23 % to every cold load; see
 * docs/decisions/0015-source-maps-not-read-at-run-time.md), but each deployment still carries its bundle's maps
 * beside the code, so the maps of exactly the version that logged the trace are in the function's
 * package: `aws lambda get-function --function-name <name> --query Code.Location` gives a link to
 * the zip; unzip it and pass the folder here (or the path of one of its `.mjs.map` files).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, join } from 'node:path';

const [target] = process.argv.slice(2);
if (!target || !existsSync(target)) {
  console.error('usage: npm run map-stack-trace -- <unzipped package folder> < trace.txt');
  process.exit(2);
}
// A map file's own folder may be chunks/: the package root is the folder that holds index.mjs.
let root = statSync(target).isDirectory() ? target : dirname(target);
if (!existsSync(join(root, 'index.mjs.map')) && existsSync(join(root, '..', 'index.mjs.map')))
  root = join(root, '..');

const maps = new Map<string, SourceMap | undefined>();
function mapOf(file: string): SourceMap | undefined {
  if (!maps.has(file)) {
    const path = join(root, `${file}.map`);
    maps.set(file, existsSync(path) ? new SourceMap(JSON.parse(readFileSync(path, 'utf8'))) : undefined);
  }
  return maps.get(file);
}

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk));
const trace = Buffer.concat(chunks).toString('utf8');

// "file:///var/task/index.mjs:1:23456" or "/var/task/chunks/chunk-AB12CD34.mjs:1:23456": 1-based line and column.
const mapped = trace.replace(
  /(?:file:\/\/)?[^\s()]*?\/?((?:chunks\/)?[\w-]+\.mjs):(\d+):(\d+)/g,
  (whole, file: string, line: string, column: string) => {
    const entry = mapOf(file)?.findEntry(Number(line) - 1, Number(column) - 1);
    if (entry === undefined || !('originalSource' in entry) || entry.originalSource === undefined)
      return whole;
    const source = entry.originalSource.replace(/^(?:\.\.\/)+/, '');
    return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  },
);
process.stdout.write(mapped);
