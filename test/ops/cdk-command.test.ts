import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type CdkCommandDeps, runCdkCommand, stsCallerIdentity } from '../../ops/cdk-command';
import { formatJson } from '../../ops/stage-file';

/*
 * `npm run deploy|synth|diff|destroy -- --stage NAME` (issue 48): no stage, no AWS; a stage, then
 * the account, region, stage and domain in one line and a question, or --yes.
 */

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const ACCOUNT = '123456789012';

/** A stand-in for STS: answers GetCallerIdentity as STS does (AWS Query, XML); counts requests. */
interface FakeSts {
  url: string;
  requests: string[];
  account: string;
  close: () => Promise<void>;
}

async function startFakeSts(): Promise<FakeSts> {
  const fake = { requests: [] as string[], account: ACCOUNT };
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      fake.requests.push(body);
      response.writeHead(200, { 'content-type': 'text/xml' });
      response.end(
        `<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <GetCallerIdentityResult>
    <Arn>arn:aws:iam::${fake.account}:user/operator</Arn>
    <UserId>AIDAEXAMPLEOPERATOR</UserId>
    <Account>${fake.account}</Account>
  </GetCallerIdentityResult>
  <ResponseMetadata><RequestId>01234567-89ab-cdef-0123-456789abcdef</RequestId></ResponseMetadata>
</GetCallerIdentityResponse>`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** A cdk.json with two stages: prod pinned to an account, with a domain; test without either. */
function writeCdkJson(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'cdk-command-')), 'cdk.json');
  writeFileSync(
    path,
    formatJson({
      app: 'npx tsx infra/bin/app.ts',
      context: {
        stage: 'dev',
        stages: {
          prod: { account: ACCOUNT, region: 'eu-west-2', domainName: 'shop.example.co.uk' },
          test: { region: 'eu-west-1', sellerName: 'Test' },
        },
      },
    }),
  );
  return path;
}

let sts: FakeSts;
let cdkJsonPath: string;

beforeAll(async () => {
  sts = await startFakeSts();
  cdkJsonPath = writeCdkJson();
});
afterAll(async () => {
  await sts?.close();
});

/** The shell of an operator with (fake) credentials whose STS is the stand-in. */
function stubCredentials(): void {
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIAEXAMPLEOPERATOR1');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'not-a-real-secret-key');
  vi.stubEnv('AWS_SESSION_TOKEN', undefined);
  vi.stubEnv('AWS_PROFILE', undefined);
  vi.stubEnv('AWS_CONFIG_FILE', join(tmpdir(), 'no-such-aws-config'));
  vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', join(tmpdir(), 'no-such-aws-credentials'));
  vi.stubEnv('AWS_ENDPOINT_URL_STS', sts.url);
  vi.stubEnv('AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED', 'true');
}

beforeEach(() => {
  sts.requests.length = 0;
  sts.account = ACCOUNT;
});
afterEach(() => {
  vi.unstubAllEnvs();
});

/** One run in this process: what it printed and ran. */
async function run(
  command: Parameters<typeof runCdkCommand>[0],
  args: readonly string[],
  overrides: Partial<CdkCommandDeps> = {},
) {
  const out: string[] = [];
  const err: string[] = [];
  const runCdk = vi.fn(async (_args: readonly string[]) => 0);
  const callerIdentity = vi.fn(stsCallerIdentity);
  const code = await runCdkCommand(command, args, {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    env: {},
    cdkJsonPath,
    callerIdentity,
    runCdk,
    ...overrides,
  });
  return { code, out, err, runCdk, callerIdentity };
}

/** The real entry, as `npm run deploy` starts it, with only the environment given. */
function runEntry(
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      join(repoRoot, 'node_modules/.bin/tsx'),
      ['ops/cdk-main.ts', ...args],
      {
        cwd: repoRoot,
        env: { PATH: process.env.PATH ?? '', HOME: mkdtempSync(join(tmpdir(), 'home-')), ...env },
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A shell with credentials whose every AWS endpoint is the stand-in. */
const FAKE_SHELL = () => ({
  AWS_ACCESS_KEY_ID: 'AKIAEXAMPLEOPERATOR1',
  AWS_SECRET_ACCESS_KEY: 'not-a-real-secret-key',
  AWS_REGION: 'eu-west-2',
  AWS_ENDPOINT_URL: sts.url,
  AWS_ENDPOINT_URL_STS: sts.url,
  AWS_ENDPOINT_URL_CLOUDFORMATION: sts.url,
  AWS_EC2_METADATA_DISABLED: 'true',
});

describe('without a stage it refuses before any AWS call', () => {
  it('names --stage and the stages cdk.json holds; neither the account is looked up nor cdk run', async () => {
    const { code, err, callerIdentity, runCdk } = await run('deploy', []);

    expect(code).toBe(1);
    expect(err).toEqual([
      'Refused: say which stage: npm run deploy -- --stage NAME (stages in cdk.json: prod, test; dev: the example stage).',
    ]);
    expect(callerIdentity).not.toHaveBeenCalled();
    expect(runCdk).not.toHaveBeenCalled();
  });

  it('refuses a stage cdk.json does not hold the same way', async () => {
    stubCredentials();

    const { code, err, runCdk } = await run('deploy', ['--stage', 'staging', '--yes']);

    expect(code).toBe(1);
    expect(err[0]).toMatch(/^Refused: no stage staging in cdk.json; say which stage: .*--stage NAME/);
    expect(sts.requests).toEqual([]);
    expect(runCdk).not.toHaveBeenCalled();
  });

  it('the entry, with no credentials at all (AWS_* unset): exit 1, naming --stage', async () => {
    const { code, stdout, stderr } = await runEntry(['deploy'], {});

    expect(code).not.toBe(0);
    expect(stderr).toContain('--stage');
    expect(stderr).not.toMatch(/credentials|account/i);
    expect(stdout).toBe('');
  }, 30_000);

  it('the entry, with credentials and AWS endpoints at a local server: it gets no request', async () => {
    const { code, stderr } = await runEntry(['deploy'], FAKE_SHELL());

    expect(code).not.toBe(0);
    expect(stderr).toContain('Refused: say which stage: npm run deploy -- --stage NAME');
    expect(sts.requests).toHaveLength(0);

    // The control: the same shell with a stage does reach the server (and, with no terminal and
    // no --yes, runs nothing).
    const control = await runEntry(['deploy', '--stage', 'dev'], FAKE_SHELL());
    expect(control.stdout).toContain(
      `Deploys stage dev (no custom domain) to account ${ACCOUNT} in eu-west-2.`,
    );
    expect(control.code).toBe(1);
    expect(sts.requests).toHaveLength(1);
  }, 60_000);
});

describe('--help', () => {
  it('is its own, in at most 40 lines', async () => {
    const { code, out, runCdk } = await run('deploy', ['--help']);

    expect(code).toBe(0);
    expect(out.length).toBeLessThanOrEqual(40);
    expect(out[0]).toBe('Usage: npm run deploy -- --stage NAME [--yes] [-- CDK flags]');
    expect(runCdk).not.toHaveBeenCalled();
  });
});

describe('with a stage, deploy and destroy say where and ask', () => {
  it('names the account (from STS), region, stage and domain; without a terminal or --yes nothing runs', async () => {
    stubCredentials();

    const { code, out, err, runCdk } = await run('deploy', ['--stage', 'prod']);

    expect(out).toEqual([`Deploys stage prod (shop.example.co.uk) to account ${ACCOUNT} in eu-west-2.`]);
    expect(sts.requests).toHaveLength(1);
    expect(sts.requests[0]).toContain('Action=GetCallerIdentity');
    expect(err).toEqual(['Nothing done: no terminal to ask in. Run again with --yes to deploy stage prod.']);
    expect(runCdk).not.toHaveBeenCalled();
    expect(code).toBe(1);
  });

  it('with --yes runs cdk deploy for the stage, with the flags after -- as they are', async () => {
    stubCredentials();

    const { code, runCdk } = await run('deploy', [
      '--stage',
      'prod',
      '--yes',
      '--',
      '--require-approval',
      'never',
    ]);

    expect(runCdk.mock.calls).toEqual([
      [['deploy', '--all', '-c', 'stage=prod', '--no-notices', '--require-approval', 'never']],
    ]);
    expect(code).toBe(0);
  });

  it("returns cdk's exit code", async () => {
    stubCredentials();

    const { code } = await run('deploy', ['--stage', 'prod', '--yes'], { runCdk: async () => 3 });

    expect(code).toBe(3);
  });

  it('asks at a terminal; y runs it, anything else does not', async () => {
    stubCredentials();
    const questions: string[] = [];

    const yes = await run('deploy', ['--stage', 'prod'], {
      ask: async (question) => {
        questions.push(question);
        return 'y';
      },
    });
    const no = await run('deploy', ['--stage', 'prod'], { ask: async () => '' });

    expect(questions).toEqual([`Deploy stage prod to account ${ACCOUNT} (eu-west-2)? [y/N] `]);
    expect(yes.runCdk).toHaveBeenCalledTimes(1);
    expect(yes.code).toBe(0);
    expect(no.runCdk).not.toHaveBeenCalled();
    expect(no.err).toEqual(['Nothing done.']);
    expect(no.code).toBe(1);
  });

  it('destroy: no custom domain, the region of the stage, and cdk destroy without its own question', async () => {
    stubCredentials();

    const { code, out, runCdk } = await run('destroy', ['--stage', 'test', '--yes']);

    expect(out).toEqual([
      `Destroys stage test (no custom domain) in account ${ACCOUNT}, eu-west-1: LiveAquatics-test, LiveAquatics-test-Edge (the data stack stays).`,
    ]);
    expect(runCdk.mock.calls).toEqual([
      [
        [
          'destroy',
          '-c',
          'stage=test',
          '--no-notices',
          '--force',
          'LiveAquatics-test',
          'LiveAquatics-test-Edge',
        ],
      ],
    ]);
    expect(code).toBe(0);
  });

  it('destroy --with-data: the data stack too, said in the line and the question', async () => {
    stubCredentials();
    const questions: string[] = [];

    const { code, out, runCdk } = await run('destroy', ['--stage', 'prod', '--with-data'], {
      ask: async (question) => {
        questions.push(question);
        return 'yes';
      },
    });

    expect(out).toEqual([
      `Destroys stage prod (shop.example.co.uk) in account ${ACCOUNT}, eu-west-2: LiveAquatics-prod, LiveAquatics-prod-Edge, LiveAquatics-prod-Data.`,
    ]);
    expect(questions).toEqual([`Destroy stage prod in account ${ACCOUNT} (eu-west-2)? [y/N] `]);
    expect(runCdk.mock.calls[0]?.[0]).toEqual([
      'destroy',
      '-c',
      'stage=prod',
      '--no-notices',
      '--force',
      'LiveAquatics-prod',
      'LiveAquatics-prod-Edge',
      'LiveAquatics-prod-Data',
    ]);
    expect(code).toBe(0);
  });

  it('--with-data is a destroy flag only', async () => {
    stubCredentials();

    const { code, err, runCdk } = await run('deploy', ['--stage', 'prod', '--with-data', '--yes']);

    expect(err[0]).toMatch(/^Refused: .*--with-data/);
    expect(runCdk).not.toHaveBeenCalled();
    expect(code).toBe(1);
  });

  it('refuses credentials of another account than the one the stage is pinned to', async () => {
    stubCredentials();
    sts.account = '210987654321';

    const { code, err, runCdk } = await run('deploy', ['--stage', 'prod', '--yes']);

    expect(err).toEqual([
      `Refused: stage prod belongs to account ${ACCOUNT} (cdk.json), but the shell's credentials are for 210987654321: sign in to ${ACCOUNT}.`,
    ]);
    expect(runCdk).not.toHaveBeenCalled();
    expect(code).toBe(1);
  });

  it('refuses, naming the sign-in, when the account cannot be looked up', async () => {
    const { code, err, runCdk } = await run('deploy', ['--stage', 'prod', '--yes'], {
      callerIdentity: async () => {
        throw new Error('Could not load credentials from any providers');
      },
    });

    expect(err[0]).toMatch(/^Refused: cannot tell which AWS account .* sign in/);
    expect(runCdk).not.toHaveBeenCalled();
    expect(code).toBe(1);
  });
});

describe('synth and diff need the stage but do not ask', () => {
  it('synth of dev, the example stage: no account lookup, the quiet flags of before', async () => {
    const { code, out, callerIdentity, runCdk } = await run('synth', ['--stage', 'dev']);

    expect(callerIdentity).not.toHaveBeenCalled();
    expect(out).toEqual([]);
    expect(runCdk.mock.calls).toEqual([
      [['synth', '-c', 'stage=dev', '--no-notices', '--quiet', '--no-version-reporting']],
    ]);
    expect(code).toBe(0);
  });

  it('diff runs cdk diff for the stage with the flags after --', async () => {
    const { code, callerIdentity, runCdk } = await run('diff', ['--stage', 'prod', '--', '--fail']);

    expect(callerIdentity).not.toHaveBeenCalled();
    expect(runCdk.mock.calls).toEqual([[['diff', '-c', 'stage=prod', '--no-notices', '--fail']]]);
    expect(code).toBe(0);
  });

  it('synth without a stage checks dev, the example stage, offline (it touches no AWS)', async () => {
    const { code, out, callerIdentity, runCdk } = await run('synth', []);

    expect(out).toContain('No --stage: synthesising dev, the example stage (offline).');
    expect(callerIdentity).not.toHaveBeenCalled();
    expect(runCdk.mock.calls).toEqual([
      [['synth', '-c', 'stage=dev', '--no-notices', '--quiet', '--no-version-reporting']],
    ]);
    expect(code).toBe(0);
  });
});

describe('the scripts and the pipeline go through it', () => {
  it('package.json: deploy, synth, diff, destroy; validate synthesises dev', () => {
    const { scripts } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };

    for (const command of ['deploy', 'synth', 'diff', 'destroy'])
      expect(scripts[command]).toBe(`tsx ops/cdk-main.ts ${command}`);
    expect(scripts.validate).toMatch(/npm run synth -- --stage dev$/);
  });

  it('deploy.yml names each stage and says --yes', () => {
    const workflow = readFileSync(join(repoRoot, '.github/workflows/deploy.yml'), 'utf8');

    expect(workflow).toContain('npm run deploy -- --stage test --yes -- --require-approval never');
    expect(workflow).toContain('npm run deploy -- --stage prod --yes -- --require-approval never');
    expect(workflow).not.toContain('-c stage=');
  });
});
