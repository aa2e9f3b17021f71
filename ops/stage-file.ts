import { readFileSync, writeFileSync } from 'node:fs';
import * as z from 'zod/mini';
import { RefusedError } from '../shared/refusal';
import { DEFAULT_REGION } from '../shared/stage-config';

// The stage's block under context.stages in cdk.json (infra/lib/config.ts): nothing else in the
// file is touched, and it keeps the layout Biome gives it.

const cdkJsonSchema = z.looseObject({
  context: z.optional(
    z.looseObject({ stages: z.optional(z.record(z.string(), z.record(z.string(), z.unknown()))) }),
  ),
});

export type StageBlock = Readonly<Record<string, unknown>>;

function readCdkJson(path: string) {
  const parsed = cdkJsonSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success)
    throw new RefusedError(
      `${path} is not a CDK app's cdk.json (its "context.stages" is not a map of stages).`,
    );
  return parsed.data;
}

export function readStageBlock(path: string, stage: string): StageBlock | undefined {
  return readCdkJson(path).context?.stages?.[stage];
}

/** Nothing is written, not even the same bytes, when the block is already as given. */
export function writeStageBlock(
  path: string,
  stage: string,
  block: StageBlock,
): 'created' | 'updated' | 'unchanged' {
  const file = readCdkJson(path);
  const current = file.context?.stages?.[stage];
  if (current !== undefined && JSON.stringify(sortedKeys(current)) === JSON.stringify(sortedKeys(block)))
    return 'unchanged';
  const context = file.context ?? {};
  const next = { ...file, context: { ...context, stages: { ...context.stages, [stage]: { ...block } } } };
  writeFileSync(path, formatJson(next));
  return current === undefined ? 'created' : 'updated';
}

function sortedKeys(block: StageBlock): [string, unknown][] {
  return Object.entries(block).sort(([a], [b]) => a.localeCompare(b));
}

/** Biome's line width. */
const LINE_WIDTH = 110;

/** JSON as Biome formats it: two-space indent, short lists of plain values inline. */
export function formatJson(value: unknown): string {
  const text = JSON.stringify(value, null, 2).replace(
    /^( *)("[^"\n]*": )?\[\n((?: *(?:"[^"\n]*"|[\d.eE+-]+|true|false|null),?\n)+) *\]/gm,
    (whole, indent: string, key: string | undefined, items: string) => {
      const inline = `${indent}${key ?? ''}[${items
        .split('\n')
        .map((item) => item.trim())
        .filter((item) => item !== '')
        .join(' ')}]`;
      return inline.length <= LINE_WIDTH ? inline : whole;
    },
  );
  return `${text}\n`;
}

/** A stage's region: the first named of the flag, its block's and the shell's, else infra's default. */
export function stageRegion(env: Readonly<Record<string, string | undefined>>, ...named: unknown[]): string {
  for (const value of [...named, env.AWS_REGION, env.AWS_DEFAULT_REGION])
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  return DEFAULT_REGION;
}

export interface StageTarget {
  account?: string | undefined;
  region?: string | undefined;
  domainName?: string | undefined;
}

export function readStageNames(path: string): Map<string, StageTarget> {
  const text = (value: unknown) =>
    typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  const stages = new Map<string, StageTarget>();
  for (const [name, block] of Object.entries(readCdkJson(path).context?.stages ?? {})) {
    stages.set(name, {
      account: text(block.account),
      region: text(block.region),
      domainName: text(block.domainName),
    });
  }
  return stages;
}
