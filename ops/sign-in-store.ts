import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { adminConfigSchema } from '../shared/admin-config';
import { adminTokensSchema } from '../shared/admin-sign-in';

/** Only the user may read a kept sign-in (0600 in a 0700 folder): its refresh token lasts hours. */
export const signInSchema = z.object({
  siteUrl: z.string(),
  config: adminConfigSchema,
  tokens: adminTokensSchema,
});
export type SignIn = z.output<typeof signInSchema>;

type Env = Readonly<Record<string, string | undefined>>;

/** The shop's own folder in $XDG_CONFIG_HOME (else ~/.config), as the XDG base directory spec has it. */
function signInFolder(env: Env): string {
  const base = env.XDG_CONFIG_HOME?.trim() || join(env.HOME?.trim() || homedir(), '.config');
  return join(base, 'live-aquatics-orders');
}

export function signInFile(env: Env, targetKey: string): string {
  return join(signInFolder(env), `${targetKey}.json`);
}

export function readSignIn(env: Env, targetKey: string): SignIn | undefined {
  const file = signInFile(env, targetKey);
  if (!existsSync(file)) return undefined;
  try {
    const parsed = signInSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function writeSignIn(env: Env, targetKey: string, signIn: SignIn): string {
  const folder = signInFolder(env);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const file = signInFile(env, targetKey);
  writeFileSync(file, `${JSON.stringify(signIn, null, 2)}\n`, { mode: 0o600 });
  // writeFileSync's mode applies only to a new file: an older one is narrowed too.
  chmodSync(file, 0o600);
  return file;
}

export function deleteSignIn(env: Env, targetKey: string): void {
  rmSync(signInFile(env, targetKey), { force: true });
}
