import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, type StripeEnv, stripeEnvSchema } from '../../../lambdas/lib/config';
import { SecretUnavailableError } from '../../../lambdas/lib/secrets-extension';
import { loadStripeSecrets } from '../../../lambdas/lib/stripe';
import { bundledInputs, loadedOnStart } from '../../support/bundle';

/*
 * The Stripe keys as a deployed function reads them: through the AWS Parameters and Secrets
 * extension's HTTP endpoint on localhost. A tiny HTTP server on a free port stands in for the
 * extension; the code is pointed at it with the extension's own port variable.
 */

const SESSION_TOKEN = 'session-token-of-this-sandbox';
const KEY_ARN = 'arn:aws:secretsmanager:eu-west-2:123456789012:secret:StripeCheckoutKey-AbCdEf';
const WEBHOOK_ARN = 'arn:aws:secretsmanager:eu-west-2:123456789012:secret:StripeWebhookSigningSecret-AbCdEf';

interface SeenRequest {
  path: string;
  secretId: string | null;
  token: string | undefined;
}

let server: Server;
let port: number;
let secrets: Map<string, string>;
let answerStatus: number | undefined;
const seen: SeenRequest[] = [];

function answer(request: IncomingMessage): { status: number; body: string } {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const secretId = url.searchParams.get('secretId');
  seen.push({
    path: url.pathname,
    secretId,
    token: request.headers['x-aws-parameters-secrets-token']?.toString(),
  });
  if (answerStatus !== undefined) return { status: answerStatus, body: '{"message":"boom"}' };
  if (request.headers['x-aws-parameters-secrets-token'] !== SESSION_TOKEN) return { status: 401, body: '' };
  const value = secretId === null ? undefined : secrets.get(secretId);
  if (url.pathname !== '/secretsmanager/get' || value === undefined)
    return { status: 400, body: 'not found' };
  return {
    status: 200,
    body: JSON.stringify({ ARN: secretId, Name: 'x', SecretString: value, VersionId: 'v1' }),
  };
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const { status, body } = answer(request);
    response.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  seen.length = 0;
  answerStatus = undefined;
  secrets = new Map([
    [KEY_ARN, '{"stripeSecretKey":"rk_live_51AbCdEfGh"}'],
    [WEBHOOK_ARN, '{"stripeWebhookSecret":"whsec_ZyXwVu"}'],
  ]);
});

function deployedEnv(overrides: Record<string, string | undefined> = {}): StripeEnv {
  return stripeEnvSchema.parse({
    STRIPE_SECRET_ID: KEY_ARN,
    STRIPE_LIVEMODE: 'true',
    PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: String(port),
    ...overrides,
  });
}

const load = (env: StripeEnv, token: string | undefined = SESSION_TOKEN) =>
  loadStripeSecrets(env, { sessionToken: token, timeoutMs: 2_000 });

describe('loadStripeSecrets through the Parameters and Secrets extension', () => {
  it('asks the extension on localhost for the key, with the sandbox session token', async () => {
    const secrets = await load(deployedEnv());

    expect(secrets).toEqual({ secretKey: 'rk_live_51AbCdEfGh', webhookSecret: undefined });
    expect(seen).toEqual([{ path: '/secretsmanager/get', secretId: KEY_ARN, token: SESSION_TOKEN }]);
  });

  it('reads the webhook signing secret from its own secret, only when the function is given one', async () => {
    const secrets = await load(deployedEnv({ STRIPE_WEBHOOK_SECRET_ID: WEBHOOK_ARN }));

    expect(secrets).toEqual({ secretKey: 'rk_live_51AbCdEfGh', webhookSecret: 'whsec_ZyXwVu' });
    expect(seen.map((r) => r.secretId).sort()).toEqual([KEY_ARN, WEBHOOK_ARN].sort());
  });

  it.each([
    ['rk_test_51AbCdEfGh', 'false'],
    ['sk_test_51AbCdEfGh', 'false'],
    ['sk_live_51AbCdEfGh', 'true'],
  ])('accepts %s when STRIPE_LIVEMODE is %s', async (key, livemode) => {
    secrets.set(KEY_ARN, JSON.stringify({ stripeSecretKey: key }));

    expect((await load(deployedEnv({ STRIPE_LIVEMODE: livemode }))).secretKey).toBe(key);
  });

  it('refuses a test key in a live deployment, and a live key in a test one', async () => {
    secrets.set(KEY_ARN, '{"stripeSecretKey":"rk_test_51AbCdEfGh"}');
    await expect(load(deployedEnv())).rejects.toThrow(/holds a test key but STRIPE_LIVEMODE is true/);

    secrets.set(KEY_ARN, '{"stripeSecretKey":"rk_live_51AbCdEfGh"}');
    await expect(load(deployedEnv({ STRIPE_LIVEMODE: 'false' }))).rejects.toThrow(/holds a live key/);
  });

  it('refuses the placeholder CloudFormation created, without echoing it', async () => {
    secrets.set(KEY_ARN, 'Zr8aQ2pLk9mN4vB7xC1dF6gH3jK5sT0w');

    const error = await load(deployedEnv()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(String(error)).toContain(`${KEY_ARN}: secret must be JSON {"stripeSecretKey"`);
    expect(String(error)).not.toContain('Zr8aQ2pLk9mN4vB7xC1dF6gH3jK5sT0w');
  });

  it('refuses a publishable key or a webhook secret in the key secret', async () => {
    secrets.set(KEY_ARN, '{"stripeSecretKey":"pk_live_51AbCdEfGh"}');
    await expect(load(deployedEnv())).rejects.toBeInstanceOf(ConfigError);
    secrets.set(WEBHOOK_ARN, '{"stripeWebhookSecret":"rk_live_51AbCdEfGh"}');
    secrets.set(KEY_ARN, '{"stripeSecretKey":"rk_live_51AbCdEfGh"}');
    await expect(load(deployedEnv({ STRIPE_WEBHOOK_SECRET_ID: WEBHOOK_ARN }))).rejects.toBeInstanceOf(
      ConfigError,
    );
  });

  describe('fails closed', () => {
    it.each([400, 500, 503])('when the extension answers %i', async (status) => {
      answerStatus = status;

      await expect(load(deployedEnv())).rejects.toThrow(
        new SecretUnavailableError(`${KEY_ARN}: the secrets extension answered ${status}`),
      );
    });

    it('when the session token is missing (not running in Lambda)', async () => {
      await expect(load(deployedEnv(), '')).rejects.toThrow(/AWS_SESSION_TOKEN is not set/);
      expect(seen).toEqual([]);
    });

    it('when the session token is wrong', async () => {
      await expect(load(deployedEnv(), 'someone-else')).rejects.toThrow(/answered 401/);
    });

    it('when nothing listens on the port', async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const closedPort = (closed.address() as AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));

      await expect(
        load(deployedEnv({ PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: String(closedPort) })),
      ).rejects.toThrow(
        new SecretUnavailableError(`${KEY_ARN}: the secrets extension on port ${closedPort} did not answer`),
      );
    });

    it('when the answer has no SecretString', async () => {
      secrets.delete(KEY_ARN);
      await expect(load(deployedEnv())).rejects.toThrow(/answered 400/);
    });
  });

  it("uses port 2773, the extension's default, when none is configured", () => {
    expect(
      deployedEnv({ PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: undefined })
        .PARAMETERS_SECRETS_EXTENSION_HTTP_PORT,
    ).toBe(undefined);
    expect(() => deployedEnv({ PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: '70000' })).toThrow();
  });

  it('falls back to STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET locally, asking no extension', async () => {
    const env = stripeEnvSchema.parse({
      STRIPE_SECRET_KEY: 'sk_test_local',
      STRIPE_WEBHOOK_SECRET: 'whsec_local',
      STRIPE_LIVEMODE: 'false',
    });

    expect(await load(env)).toEqual({ secretKey: 'sk_test_local', webhookSecret: 'whsec_local' });
    expect(seen).toEqual([]);
  });
});

describe('bundles of the public functions', () => {
  it.each(['create-checkout', 'checkout-status'])(
    '%s carries no Secrets Manager client: its keys come through the extension over HTTP',
    async (name) => {
      const inputs = await bundledInputs(`lambdas/handlers/${name}/handler.ts`);

      expect(
        inputs.filter((path) =>
          /node_modules\/(@aws-sdk\/client-secrets-manager|@aws-lambda-powertools\/parameters)\//.test(path),
        ),
      ).toEqual([]);
      expect(inputs).toContain('lambdas/lib/secrets-extension.ts');
    },
    30_000,
  );

  // create-checkout and shop-status read the settings and capacity items through the document
  // client; checkout-status reads the order's page key for the success page's link (ADR 0047).
  // Nothing else of AWS at start.
  it.each(['create-checkout', 'shop-status', 'checkout-status'])(
    '%s loads the DynamoDB client when it starts, and no other AWS client',
    async (name) => {
      const loaded = await loadedOnStart(`lambdas/handlers/${name}/handler.ts`);
      const clients = new Set(
        loaded.flatMap((path) => /node_modules\/@aws-sdk\/(client-[a-z-]+)\//.exec(path)?.[1] ?? []),
      );
      expect([...clients]).toEqual(['client-dynamodb']);
    },
    30_000,
  );

  it('checkout-status carries the DynamoDB client and no other AWS client (no SES: it sends nothing)', async () => {
    const inputs = await bundledInputs('lambdas/handlers/checkout-status/handler.ts');
    const clients = new Set(
      inputs.flatMap((path) => /node_modules\/@aws-sdk\/(client-[a-z-]+)\//.exec(path)?.[1] ?? []),
    );
    expect([...clients]).toEqual(['client-dynamodb']);
  }, 30_000);

  it("create-checkout carries the SES client only for requests mode, behind request-writer's import()", async () => {
    const inputs = await bundledInputs('lambdas/handlers/create-checkout/handler.ts');
    const loaded = await loadedOnStart('lambdas/handlers/create-checkout/handler.ts');

    expect(inputs.some((path) => path.includes('node_modules/@aws-sdk/client-dynamodb/'))).toBe(true);
    expect(inputs.some((path) => path.includes('node_modules/@aws-sdk/client-ses/'))).toBe(true);
    expect(inputs).toContain('lambdas/handlers/create-checkout/request-writer.ts');
    expect(loaded).not.toContain('lambdas/handlers/create-checkout/request-writer.ts');
    expect(loaded).not.toContain('lambdas/domain/operations/request-actions.ts');
    expect(loaded).not.toContain('lambdas/lib/ses-client.ts');
  }, 30_000);
});
