import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

interface ToolRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run orders -- <args>` as its own process: exit code, stdout and stderr. */
function orders(args: string[], env: NodeJS.ProcessEnv): Promise<ToolRun> {
  return tool(root, 'main.ts', args, env);
}

/**
 * One of ops/'s entry points run as npm runs it (tsx), from `repo`: the repository, or a copy of
 * it made of links (the main is then run by its linked path, so it reads that copy's cdk.json).
 */
function tool(repo: string, main: string, args: string[], env: NodeJS.ProcessEnv): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    // tsx's loader in the one Node process: the `tsx` command would start a second one to relay to.
    const child = spawn(
      process.execPath,
      ['--preserve-symlinks-main', '--import', 'tsx', join(repo, 'ops', main), ...args],
      { cwd: repo, env },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The environment of the operator's shell, without the SDK setting the mains are there to set. */
function withoutSdkSetting(): NodeJS.ProcessEnv {
  const { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: _operatorsOwn, ...env } = process.env;
  return env;
}

describe('npm run orders: the process prints only its own answer', () => {
  it('without a sign-in, says where and to sign in, and nothing else', async () => {
    // Prepare: an empty configuration folder; ORDERS_STAGE says where, so no target file is written.
    const config = mkdtempSync(join(tmpdir(), 'orders-config-'));
    const environment = { ...withoutSdkSetting(), ORDERS_STAGE: 'local', XDG_CONFIG_HOME: config };

    // Act
    const { code, stdout, stderr } = await orders(['list'], environment);

    // Assess: exit code 1 with the command's one line, naming where.
    rmSync(config, { recursive: true, force: true });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.split('\n')).toEqual([
      'Not signed in to local stack (http://localhost:3000). Sign in first: npm run orders -- login --local',
      '',
    ]);
  }, 30_000);
});

describe('npm run setup and npm run doctor: the process prints only its own answer', () => {
  // The repository as links, with a cdk.json of its own holding stage quiet: each command gets
  // as far as building its AWS SDK clients (where the SDK's notice is printed) without touching
  // the repository's cdk.json. Every AWS call goes to a port where nothing listens, so each
  // command ends at its first AWS call, with its own words.
  let repo: string;
  beforeAll(() => {
    repo = mkdtempSync(join(tmpdir(), 'quiet-tools-'));
    for (const name of ['ops', 'lambdas', 'shared', 'node_modules', 'package.json', 'tsconfig.json'])
      symlinkSync(join(root, name), join(repo, name));
    writeFileSync(
      join(repo, 'cdk.json'),
      JSON.stringify({ context: { stages: { quiet: { region: 'eu-west-2' } } } }),
    );
  });
  afterAll(() => {
    if (repo !== undefined) rmSync(repo, { recursive: true, force: true });
  });
  const noAws = () => {
    const { AWS_PROFILE: _profile, AWS_SESSION_TOKEN: _token, ...env } = withoutSdkSetting();
    return {
      ...env,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL: 'http://127.0.0.1:9',
      AWS_MAX_ATTEMPTS: '1',
    };
  };

  it("setup: its checks' first lines, then its refusal, and nothing from the SDK", async () => {
    // Act
    const { code, stdout, stderr } = await tool(
      repo,
      'setup-main.ts',
      ['--stage', 'quiet', '--yes'],
      noAws(),
    );

    // Assess: the STS check fails, after the clients were built.
    expect(code).toBe(1);
    expect(stderr).not.toContain('NodeVersionSupportWarning');
    expect(stderr).toBe('');
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('Setting up stage quiet in eu-west-2.');
    expect(lines.slice(1, 3)).toEqual(['', 'Checks before anything changes:']);
    expect(lines.at(-3)).toMatch(/^✗ No working AWS credentials \(.*ECONNREFUSED.*\): sign in first/);
    expect(lines.slice(-2)).toEqual(['Nothing after this point was changed.', '']);
  }, 30_000);

  it('doctor: its one line about the stack it could not read, and nothing from the SDK', async () => {
    // Act
    const { code, stdout, stderr } = await tool(repo, 'doctor-main.ts', ['--stage', 'quiet'], noAws());

    // Assess: CloudFormation's DescribeStacks fails, after the clients were built.
    expect(code).toBe(1);
    expect(stderr).not.toContain('NodeVersionSupportWarning');
    expect(stderr).toBe('');
    expect(stdout).toBe('✗ Error: connect ECONNREFUSED 127.0.0.1:9\n');
  }, 30_000);
});
