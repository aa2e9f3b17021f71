import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toOrderItem } from '../../lambdas/domain/checkout/paid-checkout';
import { type LocalShop, startLocalShop } from '../../local/local-shop';
import { paidCheckout } from '../support/order-fixtures';

// `npm run orders` as the merchant runs it against `npm start`: its own process, no AWS
// credentials in its environment, signed in through the local stand-in for Cognito with the code
// flow, PKCE and a loopback redirect; the test plays the browser.

const root = join(import.meta.dirname, '..', '..');
let shop: LocalShop;
let config: string;
let documents: DynamoDBDocumentClient;
let orderKey: Record<string, unknown> = {};
const reference = 'cliSignIn001';
const sessionId = `cs_test_orderscli${'x'.repeat(20)}${reference}`;

beforeAll(async () => {
  const webRoot = mkdtempSync(join(tmpdir(), 'orders-cli-sign-in-'));
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>shop</title>');
  shop = await startLocalShop({
    port: 0,
    dynamoPort: 0,
    sesPort: 0,
    simulatorPort: 0,
    dataDir: undefined,
    webRoot,
    stripe: undefined,
    log: () => undefined,
  });
  config = mkdtempSync(join(tmpdir(), 'orders-cli-config-'));
  documents = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region: 'eu-west-2',
      endpoint: shop.dynamoUrl,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  // One paid order, dated today, for tomorrow's list.
  const now = new Date();
  const order = toOrderItem(
    paidCheckout({ sessionId, promisedDispatchDate: undefined, checkoutCreatedAt: now }),
    { now, cutoffHours: 36 },
  );
  await documents.send(new PutCommand({ TableName: 'live-aquatics-orders', Item: order }));
  orderKey = { pk: order.pk };
}, 60_000);

afterAll(async () => {
  documents?.destroy();
  await shop?.close();
  if (config !== undefined) rmSync(config, { recursive: true, force: true });
});

/** The environment of a shell with no AWS credentials at all, pointed at this local shop. */
function shell(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('AWS_')) env[name] = value;
  return {
    ...env,
    ORDERS_STAGE: 'local',
    ORDERS_LOCAL_URL: shop.url,
    XDG_CONFIG_HOME: config,
    ORDERS_NO_BROWSER: '1',
  };
}

function start(args: string[]): ChildProcessWithoutNullStreams {
  // tsx's loader in the one Node process: the `tsx` command would start a second one to relay to.
  return spawn(process.execPath, ['--import', 'tsx', join(root, 'ops', 'main.ts'), ...args], {
    cwd: root,
    env: shell(),
  });
}

function finished(child: ChildProcessWithoutNullStreams) {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += String(chunk);
  });
  child.stderr.on('data', (chunk) => {
    stderr += String(chunk);
  });
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

function orders(args: string[]) {
  return finished(start(args));
}

/** The first line the process prints that matches, as it prints it. */
function lineOf(child: ChildProcessWithoutNullStreams, pattern: RegExp): Promise<string> {
  return new Promise((done, fail) => {
    let seen = '';
    child.stdout.on('data', (chunk) => {
      seen += String(chunk);
      const line = seen.split('\n').find((l) => pattern.test(l));
      if (line !== undefined) done(line);
    });
    child.on('close', () => fail(new Error(`no line matching ${pattern}: ${seen}`)));
  });
}

const signInFile = () => join(config, 'live-aquatics-orders', 'local.json');

describe('npm run orders against npm start, signed in as the merchant', () => {
  it('login: the browser signs in at the printed address and comes back to the loopback; the tokens are kept for the user only', async () => {
    // Act: the CLI prints the address; the "browser" opens it, signs in, and follows the redirect.
    const child = start(['login']);
    const result = finished(child);
    const line = await lineOf(child, /^Sign in to .* in your browser: /);
    const address = line.slice(line.indexOf(': http') + 2);
    const form = await (await fetch(address)).text();
    const request = /name="request" value="([^"]+)"/.exec(form)?.[1] ?? '';
    const signedIn = await fetch(new URL('/login', shop.identityProvider.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        request,
        email: 'merchant@live-aquatics.test',
        password: 'Daphnia-Local-2026',
      }).toString(),
      redirect: 'manual',
    });
    const callback = signedIn.headers.get('location') ?? '';
    const back = await fetch(callback);
    const { code, stdout } = await result;

    // Assess
    expect(new URL(address).searchParams.get('code_challenge_method')).toBe('S256');
    expect(callback).toMatch(/^http:\/\/localhost:4781[5-7]\/callback\?code=/);
    expect(back.status).toBe(200);
    expect(await back.text()).toContain('Signed in: you can close this tab.');
    expect(code).toBe(0);
    expect(stdout).toContain(`Signed in as merchant@live-aquatics.test to local stack (${shop.url})`);
    expect(statSync(signInFile()).mode & 0o777).toBe(0o600);
  }, 60_000);

  it('list shows the order, with no AWS credentials in the shell', async () => {
    const { code, stdout } = await orders(['list']);

    expect(code).toBe(0);
    expect(stdout).toMatch(
      new RegExp(`^${reference}\\s+\\S+ \\d+ \\w+, \\d\\d:\\d\\d\\s+Zoë Brontë\\s+SW1A 2AA`, 'm'),
    );
  }, 30_000);

  it("an action is recorded in the order's history under the signed-in merchant's email", async () => {
    // A script: --yes, and --early for an order paid after a weekend's cut-off.
    const { code } = await orders(['mark-dispatched', reference, '--yes', '--early']);

    expect(code).toBe(0);
    const { Item } = await documents.send(
      new GetCommand({ TableName: 'live-aquatics-orders', Key: orderKey }),
    );
    expect(Item?.history).toContainEqual(
      expect.objectContaining({ actor: 'merchant@live-aquatics.test', action: 'dispatched' }),
    );
  }, 30_000);

  it('an expired token is renewed with the refresh token, and the renewal kept', async () => {
    // Prepare: the kept tokens as they are once their 30 minutes have passed.
    const kept = JSON.parse(readFileSync(signInFile(), 'utf8'));
    writeFileSync(signInFile(), JSON.stringify({ ...kept, tokens: { ...kept.tokens, expiresAt: 0 } }));

    // Act
    const { code, stdout } = await orders(['find', reference]);

    // Assess
    expect(code).toBe(0);
    expect(stdout).toContain(reference);
    const renewed = JSON.parse(readFileSync(signInFile(), 'utf8'));
    expect(renewed.tokens.idToken).not.toBe(kept.tokens.idToken);
    expect(renewed.tokens.expiresAt).toBeGreaterThan(Date.now());
    expect(renewed.tokens.refreshToken).toBe(kept.tokens.refreshToken);
  }, 30_000);

  it('logout revokes the refresh token and forgets the sign-in; a command then says to sign in', async () => {
    // Prepare
    const { tokens } = JSON.parse(readFileSync(signInFile(), 'utf8'));

    // Act
    const out = await orders(['logout']);
    const after = await orders(['list']);

    // Assess
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`Signed out of local stack (${shop.url}).`);
    const refresh = await fetch(new URL('/oauth2/token', shop.identityProvider.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: shop.identityProvider.clientId,
        refresh_token: tokens.refreshToken,
      }).toString(),
    });
    expect(refresh.status).toBe(400);
    expect(after.code).toBe(1);
    expect(after.stderr).toContain(
      `Not signed in to local stack (${shop.url}). Sign in first: npm run orders -- login --local`,
    );
  }, 30_000);
});
