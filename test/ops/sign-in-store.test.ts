import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deleteSignIn, readSignIn, type SignIn, signInFile, writeSignIn } from '../../ops/sign-in-store';

const signIn = (idToken: string): SignIn => ({
  siteUrl: 'https://shop.example',
  config: { signInUrl: 'https://auth.example', clientId: 'client-1' },
  tokens: {
    idToken,
    accessToken: 'access',
    refreshToken: 'refresh',
    expiresAt: 1_800_000_000_000,
    email: 'merchant@live-aquatics.test',
  },
});

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'sign-in-store-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe("the CLI's kept sign-in", () => {
  it('is kept in $XDG_CONFIG_HOME/live-aquatics-orders, readable by the user alone (file 0600, folder 0700)', () => {
    const env = { XDG_CONFIG_HOME: join(home, 'config') };

    const file = writeSignIn(env, 'local', signIn('id-1'));

    expect(file).toBe(join(home, 'config', 'live-aquatics-orders', 'local.json'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, 'config', 'live-aquatics-orders')).mode & 0o777).toBe(0o700);
    expect(readSignIn(env, 'local')).toEqual(signIn('id-1'));
  });

  it('is under ~/.config without XDG_CONFIG_HOME', () => {
    expect(signInFile({ HOME: home }, 'stage-prod')).toBe(
      join(home, '.config', 'live-aquatics-orders', 'stage-prod.json'),
    );
  });

  it('is one per target: signing in to a stage leaves the local one as it was, and logout forgets one only', () => {
    const env = { XDG_CONFIG_HOME: home };
    writeSignIn(env, 'local', signIn('local-id'));
    writeSignIn(env, 'stage-prod', signIn('prod-id'));

    deleteSignIn(env, 'stage-prod');

    expect(readSignIn(env, 'local')?.tokens.idToken).toBe('local-id');
    expect(readSignIn(env, 'stage-prod')).toBeUndefined();
  });

  it('narrows a file left readable by others when it is written again', () => {
    const env = { XDG_CONFIG_HOME: home };
    const file = writeSignIn(env, 'local', signIn('id-1'));
    chmodSync(file, 0o644);

    writeSignIn(env, 'local', signIn('id-2'));

    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('is none when the file is not one the CLI wrote', () => {
    const env = { XDG_CONFIG_HOME: home };
    const file = writeSignIn(env, 'local', signIn('id-1'));
    writeFileSync(file, '{"tokens": "not these"}');

    expect(readSignIn(env, 'local')).toBeUndefined();
  });
});
