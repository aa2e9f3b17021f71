import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as z from 'zod/mini';
import { RefusedError } from '../shared/refusal';

/** The command line wins, then the shell, then the file, so a remembered target never overrides what was typed. */
export type TargetChoice = { kind: 'local' } | { kind: 'stage'; stage: string; region: string | undefined };

/** Where the choice came from: said beside the target, so a remembered one is never a surprise. */
export type ChoiceSource = 'command line' | 'ORDERS_STAGE' | 'file';

/** In the repository root (main.ts) and in .gitignore. */
export const TARGET_FILE_NAME = '.orders-target.json';

/** The stage name `local` means the stack of `npm start`, as `--local` does. */
const LOCAL_STAGE = 'local';

const rememberedSchema = z.union([
  z.object({ local: z.literal(true) }),
  z.object({ stage: z.string(), region: z.optional(z.string()) }),
]);

function stageOrLocal(stage: string, region: string | undefined): TargetChoice {
  return stage === LOCAL_STAGE ? { kind: 'local' } : { kind: 'stage', stage, region };
}

/** `--region` applies to a stage from any source; 'both' when the flags contradict each other. */
export function chooseTarget(
  flags: { local: boolean; stage: string | undefined; region: string | undefined },
  env: Readonly<Record<string, string | undefined>>,
  remembered: TargetChoice | undefined,
): { choice: TargetChoice; source: ChoiceSource } | 'both' | undefined {
  if (flags.local && flags.stage !== undefined) return 'both';
  if (flags.local) return { choice: { kind: 'local' }, source: 'command line' };
  if (flags.stage !== undefined)
    return { choice: stageOrLocal(flags.stage, flags.region), source: 'command line' };
  const fromEnv = env.ORDERS_STAGE?.trim();
  if (fromEnv)
    return {
      choice: stageOrLocal(fromEnv, flags.region ?? (env.ORDERS_REGION?.trim() || undefined)),
      source: 'ORDERS_STAGE',
    };
  if (remembered === undefined) return undefined;
  return {
    choice:
      remembered.kind === 'stage' ? { ...remembered, region: flags.region ?? remembered.region } : remembered,
    source: 'file',
  };
}

export function readRememberedTarget(file: string): TargetChoice | undefined {
  if (!existsSync(file)) return undefined;
  let saved: unknown;
  try {
    saved = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // Not JSON: refused below like any other content this module did not write.
    saved = undefined;
  }
  const parsed = rememberedSchema.safeParse(saved);
  if (!parsed.success)
    throw new RefusedError(
      `${file} does not say where (expected {"local": true} or {"stage": "NAME"}): delete it, or give --local or --stage NAME.`,
    );
  return 'local' in parsed.data ? { kind: 'local' } : stageOrLocal(parsed.data.stage, parsed.data.region);
}

export function rememberTarget(file: string, choice: TargetChoice): void {
  const saved =
    choice.kind === 'local'
      ? { local: true }
      : { stage: choice.stage, ...(choice.region === undefined ? {} : { region: choice.region }) };
  writeFileSync(file, `${JSON.stringify(saved, null, 2)}\n`);
}

export function describeChoice(choice: TargetChoice): string {
  return choice.kind === 'local'
    ? 'the local stack'
    : `stage ${choice.stage}${choice.region === undefined ? '' : ` in ${choice.region}`}`;
}
