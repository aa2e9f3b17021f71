import { build, type Metafile } from 'esbuild';
import { lambdaBuildOptions } from '../../infra/lib/constructs/lambda-bundle';

async function metafileOf(entryPoint: string): Promise<Metafile> {
  const result = await build({
    entryPoints: [entryPoint],
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return result.metafile;
}

/** The source files esbuild bundles from a Lambda entry point, as the deployed function carries them. */
export async function bundledInputs(entryPoint: string): Promise<string[]> {
  return Object.keys((await metafileOf(entryPoint)).inputs);
}

/**
 * The source files evaluated when the bundle loads: those reached from the entry point by static
 * imports and requires, not through an `import()` that runs only when the code asks for it.
 */
export async function loadedOnStart(entryPoint: string): Promise<string[]> {
  const { inputs } = await metafileOf(entryPoint);
  const reached = new Set<string>([entryPoint]);
  const queue = [entryPoint];
  for (let path = queue.pop(); path !== undefined; path = queue.pop()) {
    for (const imported of inputs[path]?.imports ?? []) {
      if (imported.kind === 'dynamic-import' || imported.external || reached.has(imported.path)) continue;
      reached.add(imported.path);
      queue.push(imported.path);
    }
  }
  return [...reached];
}

/** The JS files of a deployed bundle: those Node loads with `index.mjs`, and those only an `import()` loads. */
export interface BundleFiles {
  atStart: string[];
  onDemand: string[];
}

/**
 * Bundles a handler exactly as infra's ShopFunction does (lambda-bundle.ts) into `outdir`, for a
 * target this Node can load: `index.mjs`, its chunks and maps.
 */
export async function bundleAsDeployed(entryPoint: string, outdir: string): Promise<BundleFiles> {
  const { metafile } = await build({ ...lambdaBuildOptions(entryPoint, outdir, 'node20'), metafile: true });
  const scripts = Object.keys(metafile.outputs).filter((file) => file.endsWith('.mjs'));
  const index = scripts.find((file) => file.endsWith('/index.mjs'));
  if (index === undefined) throw new Error(`no index.mjs bundled from ${entryPoint}`);
  const atStart = new Set([index]);
  const queue = [index];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    for (const imported of metafile.outputs[file]?.imports ?? []) {
      if (imported.kind !== 'import-statement' || imported.external || atStart.has(imported.path)) continue;
      atStart.add(imported.path);
      queue.push(imported.path);
    }
  }
  return { atStart: [...atStart], onDemand: scripts.filter((file) => !atStart.has(file)) };
}
