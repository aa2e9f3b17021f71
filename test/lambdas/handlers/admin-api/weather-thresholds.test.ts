import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminApiHandler, loadAdminDeps } from '../../../../lambdas/handlers/admin-api/handler';
import type { HttpLambda } from '../../../../local/api-gateway-adapter';
import { withJwtAuthorizer } from '../../../../local/jwt-authorizer';
import { apiGatewayEvent, jsonBody } from '../../../support/api-gateway-event';
import { type FulfilmentHarness, startFulfilmentHarness } from '../../../support/fulfilment-harness';
import { signingKey, signToken, TEST_CLIENT_ID, TEST_ISSUER } from '../../../support/jwt-tokens';
import { adminApiEnv } from './admin-env';

// The weather check's thresholds (ADR 0036) through the admin API, against dynalite. The tests run
// in order, each on what the one before left.
const NOW = new Date('2026-12-02T10:00:00Z');
let h: FulfilmentHarness;
let admin: HttpLambda;
const key = signingKey();
const token = signToken(key, { email: 'packer@live-aquatics.test' });

beforeAll(async () => {
  h = await startFulfilmentHarness();
  const handler = createAdminApiHandler(async () => ({
    ...(await loadAdminDeps(adminApiEnv(h))),
    now: () => NOW,
  }));
  admin = withJwtAuthorizer(handler, { issuer: TEST_ISSUER, clientId: TEST_CLIENT_ID, jwks: key.jwks });
});
afterAll(() => h.close());

function call(method: 'GET' | 'POST', body?: unknown) {
  return admin(
    apiGatewayEvent({
      method,
      path: '/functions/v1/admin/weather/thresholds',
      lowerCaseHeaders: true,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body }),
    }),
  );
}

describe('admin API: the weather thresholds', () => {
  it('reads the defaults before the merchant sets any', async () => {
    const result = await call('GET');

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toEqual({
      thresholds: { atRiskBelow: 0, watchBelow: 4, watchAbove: 24, atRiskAbove: 28 },
    });
  });

  it('sets all four, which the next read and the shop settings item hold, the shop still open', async () => {
    const set = await call('POST', { atRiskBelow: -2, watchBelow: 3.5, watchAbove: 22, atRiskAbove: 27 });

    expect(set.statusCode).toBe(200);
    expect(jsonBody(set)).toEqual({
      thresholds: { atRiskBelow: -2, watchBelow: 3.5, watchAbove: 22, atRiskAbove: 27 },
    });
    expect(jsonBody(await call('GET'))).toEqual(jsonBody(set));
    const { Item } = await h.standIns.inspector.send(
      new GetCommand({ TableName: h.standIns.tableName, Key: { pk: 'SETTINGS#shop' } }),
    );
    expect(Item).toMatchObject({ mode: 'open', updatedAt: '2026-12-02T10:00:00.000Z' });
  });

  it('refuses a value that is not a temperature, field by field (400), and changes nothing', async () => {
    const result = await call('POST', {
      atRiskBelow: -2,
      watchBelow: 'cold',
      watchAbove: 22,
      atRiskAbove: 60,
    });

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result)).toMatchObject({
      fields: {
        watchBelow: 'Watch below is a temperature from −30 to 50 °C.',
        atRiskAbove: 'At risk above is a temperature from −30 to 50 °C.',
      },
    });
    expect(jsonBody(await call('GET'))).toEqual({
      thresholds: { atRiskBelow: -2, watchBelow: 3.5, watchAbove: 22, atRiskAbove: 27 },
    });
  });

  it('refuses thresholds out of order (409) in words, and changes nothing', async () => {
    const result = await call('POST', { atRiskBelow: 5, watchBelow: 4, watchAbove: 24, atRiskAbove: 28 });

    expect(result.statusCode).toBe(409);
    expect(jsonBody(result)).toEqual({
      error:
        'Weather thresholds must read: at risk below ≤ watch below < watch above ≤ at risk above, each between −30 and 50 °C.',
    });
    expect(jsonBody(await call('GET'))).toMatchObject({ thresholds: { atRiskBelow: -2 } });
  });
});
