import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toOrderItem } from '../../lambdas/domain/checkout/paid-checkout';
import { type ForecastStandIn, startForecastStandIn } from '../../local/forecast-stand-in';
import { type LocalShop, startLocalShop } from '../../local/local-shop';
import { quoteOrder } from '../../shared/pricing';
import { signInLocally } from '../support/local-sign-in';

// The local shop on a weather clock of Sunday 6 December 2026, 18:30 London (LOCAL_WEATHER_NOW),
// whatever today is: the orders paid on Tuesday 1 December go on Monday 7 December, to arrive
// Tuesday 8 December. Its weather email runs now through POST /__local/weather-notice.
const WEATHER_NOW = new Date('2026-12-06T18:30:00Z');
const MERCHANT = 'merchant@live-aquatics.test';

let shop: LocalShop;
let forecast: ForecastStandIn;
let documents: DynamoDBDocumentClient;

beforeAll(async () => {
  const webRoot = mkdtempSync(join(tmpdir(), 'local-shop-weather-'));
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>shop</title>');
  forecast = await startForecastStandIn(0, () => WEATHER_NOW);
  shop = await startLocalShop({
    port: 0,
    dynamoPort: 0,
    sesPort: 0,
    simulatorPort: 0,
    dataDir: undefined,
    webRoot,
    stripe: undefined,
    log: () => undefined,
    forecastUrl: forecast.url,
    weatherNow: WEATHER_NOW,
  });
  documents = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region: 'eu-west-2',
      endpoint: shop.dynamoUrl,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
}, 60_000);
afterAll(async () => {
  await shop?.close();
  await forecast?.close();
});

async function seedOrder(n: number, postcode: string): Promise<string> {
  const at = new Date(`2026-12-01T09:0${n}:00Z`);
  const order = toOrderItem(
    {
      sessionId: `cs_test_lw${at.getTime()}x${String(n).padStart(6, '0')}`,
      paymentIntentId: `pi_test_lw${n}`,
      livemode: false,
      quote: quoteOrder(3),
      currency: 'gbp',
      customer: { name: `C ${n}`, email: `c${n}@example.com`, phone: '', address: `${n} Lane`, postcode },
      promisedDispatchDate: undefined,
      checkoutCreatedAt: at,
    },
    { now: at, cutoffHours: 36 },
  );
  await documents.send(new PutCommand({ TableName: 'live-aquatics-orders', Item: order }));
  return order.reference;
}

const runWeatherNotice = () => fetch(`${shop.url}/__local/weather-notice`, { method: 'POST' });

async function merchantSubjects(): Promise<string[]> {
  const store = (await (await fetch(`${shop.sesUrl}/store`)).json()) as {
    emails: Array<{ subject: string; destination: { to: string[] } }>;
  };
  return store.emails.filter((e) => e.destination.to.includes(MERCHANT)).map((e) => e.subject);
}

describe('the local weather-notice trigger', () => {
  it('answers only POST', async () => {
    const response = await fetch(`${shop.url}/__local/weather-notice`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('with no order at risk, runs the check and emails nobody', async () => {
    await seedOrder(1, 'BS1 4DJ');

    const response = await runWeatherNotice();

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ outcome: 'none at risk', day: '2026-12-07' });
    expect(await merchantSubjects()).toEqual([]);
  });

  it('with a frost at one customer’s place, emails the merchant once', async () => {
    await seedOrder(2, 'AB10 1AA');
    await fetch(`${forecast.url}/__set`, {
      method: 'POST',
      body: JSON.stringify({ latitude: 57.15, longitude: -2.09, date: '2026-12-08', min: -4, max: 3 }),
    });

    const response = await runWeatherNotice();

    expect(await response.json()).toEqual({ outcome: 'sent', day: '2026-12-07', atRisk: 1 });
    expect(await merchantSubjects()).toEqual(['Weather: 1 order at risk for Monday 7 December']);
  });

  it('runs the admin weather check on the same clock: Monday 7 December is checked', async () => {
    const { id_token } = await signInLocally({
      signInUrl: shop.identityProvider.url,
      clientId: shop.identityProvider.clientId,
      redirectUri: `${shop.url}/admin`,
      email: 'merchant@live-aquatics.test',
      password: 'Daphnia-Local-2026',
    });

    const response = await fetch(`${shop.url}/functions/v1/admin/weather`, {
      headers: { authorization: `Bearer ${id_token}` },
    });

    expect(await response.json()).toMatchObject({
      day: '2026-12-07',
      state: 'checked',
      atRisk: 1,
      summary: 'Weather for Monday 7 December (2 orders): 1 at risk, 1 fine.',
    });
  });
});
