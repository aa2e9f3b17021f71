import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Assembly } from '../../local/rehearse/assembly';
import { type RunningFunction, startFunction } from '../../local/rehearse/function-host';
import { createHttpApi } from '../../local/rehearse/http-api';
import { tempDir } from '../infra/support';

/**
 * A bundle that counts its invocations (module state: what a new environment starts again), and
 * sleeps or exits its process when asked.
 */
function sleepyBundle(): string {
  const dir = tempDir('rehearse-function-');
  writeFileSync(
    join(dir, 'index.mjs'),
    `let invocations = 0;
export const handler = async (event) => {
  invocations += 1;
  if (event.exitCode !== undefined) process.exit(event.exitCode);
  if (event.sleepMs) await new Promise((done) => setTimeout(done, event.sleepMs));
  return { invocations };
};
`,
  );
  return dir;
}

/** A bundle that fails its init (a missing setting, say) until the file `ready` exists in its folder. */
function flakyInitBundle(): string {
  const dir = tempDir('rehearse-function-');
  writeFileSync(
    join(dir, 'index.mjs'),
    `import { existsSync } from 'node:fs';
if (!existsSync(new URL('./ready', import.meta.url))) throw new Error('not ready yet');
export const handler = async () => ({ answered: true });
`,
  );
  return dir;
}

describe('the rehearsal’s function host', () => {
  let running: RunningFunction | undefined;
  afterEach(async () => {
    await running?.close();
  });

  /** Starts SleepyFunction (or the bundle in `bundleDir`) with the template's Timeout. */
  async function start(
    timeoutSeconds: number,
    log: (line: string) => void = () => undefined,
    bundleDir = sleepyBundle(),
  ) {
    running = await startFunction(
      { name: 'SleepyFunction', bundleDir, handler: 'index.handler', env: {}, timeoutSeconds },
      log,
    );
    return running;
  }

  it('stops an invocation at the template’s Timeout as Lambda does, and starts the next one cold', async () => {
    const lines: string[] = [];
    running = await start(1, (line) => lines.push(line));
    const started = Date.now();
    await expect(running.invoke({ sleepMs: 10_000 })).rejects.toThrow(
      'SleepyFunction: Task timed out after 1.00 seconds',
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^\[SleepyFunction\] \d{4}-\d\d-\d\dT[\d:.]+Z rehearsal-1 Task timed out after 1\.00 seconds$/,
      ),
    );
    // The timed-out environment is discarded: the next invocation is the first of a new one.
    await expect(running.invoke({})).resolves.toEqual({ invocations: 1 });
  }, 30_000);

  it('keeps the environment of invocations that end in time', async () => {
    running = await start(3);
    await expect(running.invoke({ sleepMs: 100 })).resolves.toEqual({ invocations: 1 });
    await expect(running.invoke({})).resolves.toEqual({ invocations: 2 });
  }, 30_000);

  it('fails the invocation whose process exits, and answers the next from a new environment, as Lambda does', async () => {
    const lines: string[] = [];
    running = await start(3, (line) => lines.push(line));

    await expect(running.invoke({ exitCode: 1 })).rejects.toThrow(
      'SleepyFunction: Runtime exited with error: exit status 1',
    );

    expect(lines).toContainEqual(
      expect.stringMatching(
        /^\[SleepyFunction\] \d{4}-\d\d-\d\dT[\d:.]+Z Runtime exited with error: exit status 1$/,
      ),
    );
    await expect(running.invoke({})).resolves.toEqual({ invocations: 1 });
    await expect(running.invoke({})).resolves.toEqual({ invocations: 2 });
  }, 30_000);

  it('runs a failed init again at the next invocation, as Lambda does, and answers once it succeeds', async () => {
    const bundleDir = flakyInitBundle();
    const lines: string[] = [];
    running = await start(3, (line) => lines.push(line), bundleDir);

    await expect(running.invoke({})).rejects.toThrow('SleepyFunction failed at load: not ready yet');
    writeFileSync(join(bundleDir, 'ready'), '');

    await expect(running.invoke({})).resolves.toEqual({ answered: true });
    expect(lines.filter((line) => line === 'SleepyFunction failed at load: not ready yet')).toHaveLength(2);
  }, 30_000);
});

/** A bundle whose handler takes 5 s to answer, whatever the request. */
function slowBundle(): string {
  const dir = tempDir('rehearse-function-');
  writeFileSync(
    join(dir, 'index.mjs'),
    `export const handler = async () => {
  await new Promise((done) => setTimeout(done, 5000));
  return { statusCode: 200, body: 'late' };
};
`,
  );
  return dir;
}

/** An app template of one route to SlowFunction, its integration limited to `timeoutMs`. */
function oneRouteAssembly(timeoutMs: number): Assembly {
  const template = {
    Resources: {
      SlowRoute: {
        Type: 'AWS::ApiGatewayV2::Route',
        Properties: {
          RouteKey: 'POST /functions/v1/slow',
          Target: { 'Fn::Join': ['', ['integrations/', { Ref: 'SlowIntegration' }]] },
        },
      },
      SlowIntegration: {
        Type: 'AWS::ApiGatewayV2::Integration',
        Properties: {
          IntegrationType: 'AWS_PROXY',
          IntegrationUri: { 'Fn::GetAtt': ['SlowFunction', 'Arn'] },
          TimeoutInMillis: timeoutMs,
        },
      },
    },
    Outputs: {},
  };
  const app = { name: 'LiveAquatics-dev', template };
  return {
    dir: '',
    assetDir: () => undefined,
    region: 'eu-west-2',
    app,
    stacks: new Map([[app.name, app]]),
    resolve: (_stack, value) => value,
    resolveString: (_stack, value) => String(value),
  };
}

describe('the rehearsal’s HTTP API', () => {
  let running: RunningFunction | undefined;
  let closeServer: (() => void) | undefined;
  afterEach(async () => {
    closeServer?.();
    await running?.close();
  });

  it('answers 504 when the function outlasts the integration’s TimeoutInMillis, as API Gateway does', async () => {
    const lines: string[] = [];
    running = await startFunction(
      {
        name: 'SlowFunction',
        bundleDir: slowBundle(),
        handler: 'index.handler',
        env: {},
        timeoutSeconds: 10,
      },
      () => undefined,
    );
    const serveApi = await createHttpApi({
      assembly: oneRouteAssembly(300),
      functions: new Map([['SlowFunction', running]]),
      identityProvider: { url: 'http://127.0.0.1:1', jwksUrl: 'http://127.0.0.1:1/jwks' },
      log: (line) => lines.push(line),
    });
    const server = createServer((req, res) => void serveApi(req, res, {}));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    closeServer = () => server.close();
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('the API is not on a TCP port');

    const started = Date.now();
    const slow = await fetch(`http://127.0.0.1:${address.port}/functions/v1/slow`, { method: 'POST' });

    expect(slow.status).toBe(504);
    expect(await slow.json()).toEqual({ message: 'Gateway Timeout' });
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(lines).toContain('SlowFunction: no answer within the integration’s 300 ms: 504');
  }, 30_000);
});
