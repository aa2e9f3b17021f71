import { build } from 'esbuild';

/** The source files esbuild bundles from a Lambda entry point, as the deployed function carries them. */
export async function bundledInputs(entryPoint: string): Promise<string[]> {
  const result = await build({
    entryPoints: [entryPoint],
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs);
}
