import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toOrderItem } from '../../../../lambdas/domain/checkout/paid-checkout';
import { createAdminApiHandler, loadAdminDeps } from '../../../../lambdas/handlers/admin-api/handler';
import type { HttpLambda } from '../../../../local/api-gateway-adapter';
import { type ForecastStandIn, startForecastStandIn } from '../../../../local/forecast-stand-in';
import { withJwtAuthorizer } from '../../../../local/jwt-authorizer';
import { quoteOrder } from '../../../../shared/pricing';
import { apiGatewayEvent, jsonBody } from '../../../support/api-gateway-event';
import { type FulfilmentHarness, startFulfilmentHarness } from '../../../support/fulfilment-harness';
import { signingKey, signToken, TEST_CLIENT_ID, TEST_ISSUER } from '../../../support/jwt-tokens';
import { adminApiEnv } from './admin-env';

// The weather check through the admin API, against the Open-Meteo stand-in, dynalite and the SES
// stand-in. Two orders paid on Tuesday 1 December 2026 go on Monday 7 December (to arrive Tuesday
// 8 December): Ann's to Aberdeen, Ben's to Bristol, where the seller is. The tests run in order.
let h: FulfilmentHarness;
let forecast: ForecastStandIn;
let admin: HttpLambda;
let now = new Date('2026-12-05T17:59:00Z');
const key = signingKey();
const token = signToken(key, { email: 'packer@live-aquatics.test' });
let ann = '';
let ben = '';

beforeAll(async () => {
  h = await startFulfilmentHarness();
  forecast = await startForecastStandIn(0, () => now);
  const deps = await loadAdminDeps(adminApiEnv(h, { FORECAST_API_URL: forecast.url }));
  // A short wait, so the slow provider's test is quick; the deployed wait is 2 s.
  const handler = createAdminApiHandler({
    ...deps,
    forecast: { ...deps.forecast, timeoutMs: 300 },
    now: () => now,
  });
  admin = withJwtAuthorizer(handler, { issuer: TEST_ISSUER, clientId: TEST_CLIENT_ID, jwks: key.jwks });
  ann = await seedOrder('2026-12-01T09:00:00Z', 1, 'ann@example.com', 'AB10 1AA');
  ben = await seedOrder('2026-12-01T09:30:00Z', 2, 'ben@example.com', 'BS1 4DJ');
});
afterAll(async () => {
  await forecast.close();
  await h.close();
});

async function seedOrder(paidAt: string, n: number, email: string, postcode: string): Promise<string> {
  const at = new Date(paidAt);
  const order = toOrderItem(
    {
      sessionId: `cs_test_wx${at.getTime()}x${String(n).padStart(6, '0')}`,
      paymentIntentId: `pi_test_wx${n}`,
      livemode: false,
      quote: quoteOrder(3),
      currency: 'gbp',
      customer: { name: `Customer ${n}`, email, phone: '07700 900123', address: `${n} Pond Lane`, postcode },
      promisedDispatchDate: undefined,
      checkoutCreatedAt: at,
    },
    { now: at, cutoffHours: 36 },
  );
  await h.standIns.inspector.send(new PutCommand({ TableName: h.standIns.tableName, Item: order }));
  return order.reference;
}

function call(method: 'GET' | 'POST', path: string, body?: unknown) {
  return admin(
    apiGatewayEvent({
      method,
      path,
      lowerCaseHeaders: true,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body }),
    }),
  );
}

async function setForecast(body: unknown) {
  await fetch(`${forecast.url}/__set`, { method: 'POST', body: JSON.stringify(body) });
}

describe('admin API: the weather check of the coming dispatch day', () => {
  it('before 18:00 London on the Saturday, says when it will know', async () => {
    const result = await call('GET', '/functions/v1/admin/weather');
    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toEqual({
      day: '2026-12-07',
      state: 'not yet',
      knownFrom: '2026-12-05T18:00:00.000Z',
      summary: 'The weather for Monday 7 December is checked from 18:00 on Saturday 5 December.',
    });
  });

  it('a provider slower than the wait: the page still answers, each order "could not see the forecast"', async () => {
    now = new Date('2026-12-05T19:00:00Z');
    await setForecast({ delayMs: 1500 });
    const result = await call('GET', '/functions/v1/admin/weather');
    await setForecast({ reset: true });

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toMatchObject({
      state: 'checked',
      forecastSeen: false,
      atRisk: 0,
      summary: 'Weather for Monday 7 December (2 orders): 2 unknown (could not see the forecast).',
    });
  });

  it("frost at one customer's place: only that order at risk, with the reason in words", async () => {
    await setForecast({ latitude: 57.15, longitude: -2.09, date: '2026-12-08', min: -4, max: 3 });
    const result = await call('GET', '/functions/v1/admin/weather');

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toEqual({
      day: '2026-12-07',
      state: 'checked',
      forecastSeen: true,
      orders: [
        {
          reference: ann,
          customerName: 'Customer 1',
          verdict: 'at risk',
          reason: '−4 °C in Aberdeen on Tuesday morning',
          // Tuesday's dispatch would meet Tuesday's frost: Wednesday is its first fine day.
          move: {
            to: '2026-12-09',
            why: 'Wednesday 9 December: −4 °C in Aberdeen on Tuesday morning; Tuesday at risk too: −4 °C in Aberdeen on Tuesday morning; Wednesday fine',
          },
        },
        { reference: ben, customerName: 'Customer 2', verdict: 'fine', reason: '6 °C to 12 °C in Bristol' },
      ],
      atRisk: 1,
      summary: 'Weather for Monday 7 December (2 orders): 1 at risk, 1 fine.',
    });
  });

  it('"delay the orders at risk" moves only that order, emails only its customer once, and leaves the other on the day', async () => {
    const result = await call('POST', '/functions/v1/admin/orders/delay-at-risk', { date: '2026-12-07' });

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toEqual({
      from: '2026-12-07',
      orders: [
        {
          reference: ann,
          customerName: 'Customer 1',
          to: '2026-12-09',
          why: 'Wednesday 9 December: −4 °C in Aberdeen on Tuesday morning; Tuesday at risk too: −4 °C in Aberdeen on Tuesday morning; Wednesday fine',
        },
      ],
      moved: [ann],
      emailed: [ann],
    });
    const status = jsonBody(await call('GET', '/functions/v1/admin/status'));
    expect(status).toMatchObject({
      next: { date: '2026-12-07', references: [ben] },
      later: [{ date: '2026-12-09', references: [ann] }],
    });
    const emails = await h.standIns.emails();
    expect(emails.filter((e) => e.destination.to.includes('ann@example.com'))).toHaveLength(1);
    expect(emails.filter((e) => e.destination.to.includes('ben@example.com'))).toHaveLength(0);

    const again = await call('POST', '/functions/v1/admin/orders/delay-at-risk', { date: '2026-12-07' });
    expect(again.statusCode).toBe(409);
    expect(jsonBody(again)).toEqual({ error: 'No order of that day is at risk: nothing delayed.' });
    expect(
      (await h.standIns.emails()).filter((e) => e.destination.to.includes('ann@example.com')),
    ).toHaveLength(1);
  });
});
