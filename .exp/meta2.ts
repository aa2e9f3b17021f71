import { build } from 'esbuild';
import { lambdaBuildOptions } from '../infra/lib/constructs/lambda-bundle';

const r = await build({
  ...lambdaBuildOptions(process.argv[2], '/tmp/m2', 'node20'),
  metafile: true,
  write: false,
});
const outs = r.metafile.outputs;
const index = Object.keys(outs).find((f) => f.endsWith('/index.mjs'))!;
const atStart = new Set([index]);
const q = [index];
for (let f = q.pop(); f; f = q.pop())
  for (const i of outs[f].imports)
    if (i.kind === 'import-statement' && !i.external && !atStart.has(i.path)) {
      atStart.add(i.path);
      q.push(i.path);
    }
const byPkg: Record<string, number> = {};
for (const f of atStart)
  for (const [path, v] of Object.entries(outs[f].inputs)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
    const k = m ? m[1] : path.split('/').slice(0, 2).join('/');
    byPkg[k] = (byPkg[k] ?? 0) + v.bytesInOutput;
  }
for (const [k, v] of Object.entries(byPkg)
  .sort((a, b) => b[1] - a[1])
  .slice(0, 30))
  console.log((v / 1024).toFixed(1).padStart(7), k);
