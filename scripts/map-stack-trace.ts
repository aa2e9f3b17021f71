/**
 * `npm run map-stack-trace -- <index.mjs.map> < trace.txt`: rewrites a stack trace logged by a
 * deployed Lambda (positions in the minified `index.mjs`) to source files and lines.
 *
 * The functions run without `--enable-source-maps` (it added 13–23 % to every cold load; see
 * docs/decisions/0009-router-and-bundles.md), but each deployment still carries its bundle's map
 * beside the code, so the map of exactly the version that logged the trace is in the function's
 * package: `aws lambda get-function --function-name <name> --query Code.Location` gives a link to
 * the zip; unzip it and pass its `index.mjs.map` here.
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';

const [mapFile] = process.argv.slice(2);
if (!mapFile) {
  console.error('usage: npm run map-stack-trace -- <path/to/index.mjs.map> < trace.txt');
  process.exit(2);
}
const map = new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')));

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk));
const trace = Buffer.concat(chunks).toString('utf8');

// "file:///var/task/index.mjs:1:23456" or "/var/task/index.mjs:1:23456": 1-based line and column.
const mapped = trace.replace(
  /(?:file:\/\/)?[^\s()]*index\.mjs:(\d+):(\d+)/g,
  (whole, line: string, column: string) => {
    const entry = map.findEntry(Number(line) - 1, Number(column) - 1);
    if (!('originalSource' in entry) || entry.originalSource === undefined) return whole;
    const source = entry.originalSource.replace(/^(?:\.\.\/)+/, '');
    return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  },
);
process.stdout.write(mapped);
