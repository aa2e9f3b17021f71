import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createAdminApiHandler, originValueFromEnv } from '../../../../lambdas/handlers/admin-api/handler';
import { logger } from '../../../../lambdas/lib/logger';
import { withJwtAuthorizer } from '../../../../local/jwt-authorizer';
import { apiGatewayEvent, jsonBody } from '../../../support/api-gateway-event';
import { signingKey, signToken, TEST_CLIENT_ID, TEST_ISSUER } from '../../../support/jwt-tokens';

// Every admin route, written out: a route added later without a test here is not covered.
const ROUTES = [
  { method: 'GET', path: '/functions/v1/admin/orders' },
  { method: 'POST', path: '/functions/v1/admin/orders/dispatch' },
  { method: 'POST', path: '/functions/v1/admin/orders/delay' },
  { method: 'POST', path: '/functions/v1/admin/orders/refund' },
  { method: 'POST', path: '/functions/v1/admin/orders/address' },
  { method: 'POST', path: '/functions/v1/admin/shop/pause' },
  { method: 'POST', path: '/functions/v1/admin/shop/resume' },
  { method: 'POST', path: '/functions/v1/admin/requests/payment' },
  { method: 'POST', path: '/functions/v1/admin/requests/decline' },
  { method: 'GET', path: '/functions/v1/admin/order' },
  { method: 'GET', path: '/functions/v1/admin/status' },
  { method: 'GET', path: '/functions/v1/admin/capacity' },
  { method: 'POST', path: '/functions/v1/admin/capacity' },
  { method: 'GET', path: '/functions/v1/admin/dispatch-csv' },
  { method: 'GET', path: '/functions/v1/admin/packing-slips' },
] as const;

beforeAll(() => logger.setLogLevel('SILENT'));

const key = signingKey();
const otherKey = signingKey();

// Dependencies that cannot load: a request that got past the checks would answer 503, not 401/403.
const admin = createAdminApiHandler(() => Promise.reject(new Error('no dependencies in this test')));
const viaAuthorizer = withJwtAuthorizer(admin, {
  issuer: TEST_ISSUER,
  clientId: TEST_CLIENT_ID,
  jwks: key.jwks,
});

function request(route: { method: string; path: string }, token?: string) {
  return apiGatewayEvent({
    method: route.method,
    path: route.path,
    lowerCaseHeaders: true,
    headers: {
      'content-type': 'application/json',
      ...(token !== undefined && { authorization: `Bearer ${token}` }),
    },
    ...(route.method === 'POST' && { body: { references: ['ABCDEF123456'] } }),
  });
}

describe.each(ROUTES)('$method $path', (route) => {
  it.each([
    ['no token', undefined],
    ['an expired token', signToken(key, { expiresIn: -5 })],
    ['a token signed by another key', signToken(otherKey)],
    [
      'a token of another user pool',
      signToken(key, { issuer: 'https://cognito-idp.eu-west-2.amazonaws.com/other' }),
    ],
    ['a token for another app client', signToken(key, { clientId: 'someone-elses-client' })],
    ['a token that is not a JWT', 'not-a-token'],
  ])('answers 401 with %s, before the function runs', async (_case, token) => {
    const result = await viaAuthorizer(request(route, token));

    expect(result.statusCode).toBe(401);
    expect(result.headers?.['cache-control']).toBe('no-store');
  });

  it('answers 403, no-store, to a signed-in user outside the merchants group', async () => {
    const result = await viaAuthorizer(request(route, signToken(key, { groups: ['customers'] })));

    expect(result.statusCode).toBe(403);
    expect(jsonBody(result)).toEqual({
      error: 'This account is not a merchant of this shop.',
      code: 'not-a-merchant',
    });
    expect(result.headers?.['cache-control']).toBe('no-store');
  });

  it('answers 403 to a user in no group at all', async () => {
    const result = await viaAuthorizer(request(route, signToken(key, { groups: [] })));

    expect(result.statusCode).toBe(403);
    expect(jsonBody(result)).toMatchObject({ code: 'not-a-merchant' });
  });

  it('answers 401 when no authorizer ran (a route deployed without one is not open)', async () => {
    const result = await admin(request(route, signToken(key)));

    expect(result.statusCode).toBe(401);
    expect(jsonBody(result)).toEqual({ error: 'Sign in first.' });
  });

  it('lets a merchant through, with an ID token or an access token', async () => {
    for (const use of ['id', 'access'] as const) {
      const result = await viaAuthorizer(request(route, signToken(key, { use })));

      // Past the checks: only the missing dependencies stop it.
      expect(result.statusCode).toBe(503);
      expect(result.headers?.['cache-control']).toBe('no-store');
    }
  });
});

describe('the group claim', () => {
  it('is read in API Gateway\'s "[a b]" form, among other groups', async () => {
    const event = {
      ...request(ROUTES[0]),
      requestContext: {
        ...request(ROUTES[0]).requestContext,
        authorizer: { jwt: { claims: { sub: 'u1', 'cognito:groups': '[packers merchants]' }, scopes: null } },
      },
    };

    expect((await admin(event)).statusCode).toBe(503);
  });

  it.each([
    ['a group named "staff,merchants"', ['staff,merchants']],
    ['a group named "merchants,staff" beside another', ['packers', 'merchants,staff']],
    ['a group named "[merchants]"', ['[merchants]']],
  ])('does not take %s for the merchants group (403)', async (_case, groups) => {
    const result = await viaAuthorizer(request(ROUTES[0], signToken(key, { groups })));

    expect(result.statusCode).toBe(403);
    expect(jsonBody(result)).toMatchObject({ code: 'not-a-merchant' });
  });

  it('does not take the "staff,merchants" group as API Gateway passes it, "[staff,merchants]" (403)', async () => {
    const event = {
      ...request(ROUTES[0]),
      requestContext: {
        ...request(ROUTES[0]).requestContext,
        authorizer: { jwt: { claims: { sub: 'u1', 'cognito:groups': '[staff,merchants]' }, scopes: null } },
      },
    };

    expect((await admin(event)).statusCode).toBe(403);
  });

  it('does not take a group whose name only contains "merchants"', async () => {
    const result = await viaAuthorizer(request(ROUTES[0], signToken(key, { groups: ['merchants-old'] })));

    expect(result.statusCode).toBe(403);
  });
});

describe('routing', () => {
  it('answers 404, no-store, for an admin path that does not exist', async () => {
    const result = await viaAuthorizer(
      apiGatewayEvent({
        path: '/functions/v1/admin/nothing',
        lowerCaseHeaders: true,
        headers: { authorization: `Bearer ${signToken(key)}` },
      }),
    );

    expect(result.statusCode).toBe(404);
    expect(result.headers?.['cache-control']).toBe('no-store');
  });

  it('answers 405 to the wrong method on a route', async () => {
    const result = await viaAuthorizer(
      request({ method: 'POST', path: '/functions/v1/admin/orders' }, signToken(key)),
    );

    expect(result.statusCode).toBe(405);
  });

  it('answers 405 naming both methods on the path that has two', async () => {
    const result = await viaAuthorizer(
      request({ method: 'DELETE', path: '/functions/v1/admin/capacity' }, signToken(key)),
    );

    expect(result.statusCode).toBe(405);
    expect(result.headers?.allow).toBe('GET, POST');
    expect(jsonBody(result)).toEqual({ error: 'Use GET or POST.' });
  });
});

describe('the origin check (the admin routes carry the JWT authorizer, not the origin-verify one)', () => {
  const guarded = withJwtAuthorizer(
    createAdminApiHandler(() => Promise.reject(new Error('no dependencies in this test')), {
      expectedOrigin: async () => 'cloudfront-only-value',
    }),
    { issuer: TEST_ISSUER, clientId: TEST_CLIENT_ID, jwks: key.jwks },
  );
  const withHeader = (value?: string) =>
    apiGatewayEvent({
      path: '/functions/v1/admin/orders',
      lowerCaseHeaders: true,
      headers: {
        authorization: `Bearer ${signToken(key)}`,
        ...(value !== undefined && { 'x-origin-verify': value }),
      },
    });

  it('refuses a merchant request that did not come through CloudFront', async () => {
    expect((await guarded(withHeader())).statusCode).toBe(403);
    expect((await guarded(withHeader('guess'))).statusCode).toBe(403);
  });

  it('says which 403 it is: not through CloudFront, apart from not a merchant', async () => {
    // Prepare: a merchant's token without the header, and a non-merchant's with it.
    const bypassing = withHeader('guess');
    const outsider = apiGatewayEvent({
      path: '/functions/v1/admin/orders',
      lowerCaseHeaders: true,
      headers: {
        authorization: `Bearer ${signToken(key, { groups: ['customers'] })}`,
        'x-origin-verify': 'cloudfront-only-value',
      },
    });

    // Act
    const [notThroughCloudFront, notAMerchant] = [await guarded(bypassing), await guarded(outsider)];

    // Assess: the same status, bodies told apart by their code.
    expect(notThroughCloudFront.statusCode).toBe(403);
    expect(jsonBody(notThroughCloudFront)).toEqual({ error: 'Forbidden.', code: 'not-through-cloudfront' });
    expect(notThroughCloudFront.headers?.['cache-control']).toBe('no-store');
    expect(notAMerchant.statusCode).toBe(403);
    expect(jsonBody(notAMerchant)).toEqual({
      error: 'This account is not a merchant of this shop.',
      code: 'not-a-merchant',
    });
  });

  it("lets one with CloudFront's value through to the next check", async () => {
    expect((await guarded(withHeader('cloudfront-only-value'))).statusCode).toBe(503);
  });
});

describe("the origin check's secret, read through the secrets extension", () => {
  it('asks the extension on the port the template gives it, not only on 2773', async () => {
    const asked: string[] = [];
    const extension = createServer((request, response) => {
      asked.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ SecretString: 'value-from-the-moved-port' }));
    });
    await new Promise<void>((done) => extension.listen(0, '127.0.0.1', done));
    const port = (extension.address() as AddressInfo).port;
    // What the Lambda runtime sets: the extension's proof that the caller is the function.
    vi.stubEnv('AWS_SESSION_TOKEN', 'session');
    try {
      const expected = originValueFromEnv({
        ORIGIN_VERIFY_SECRET_ID: 'origin-verify',
        PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: String(port),
      });
      await expect(expected?.()).resolves.toBe('value-from-the-moved-port');
      expect(asked).toEqual(['/secretsmanager/get?secretId=origin-verify']);
    } finally {
      vi.unstubAllEnvs();
      extension.close();
    }
  });
});
