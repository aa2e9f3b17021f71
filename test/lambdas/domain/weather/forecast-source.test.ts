import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadForecastSource, reportForecastKey } from '../../../../lambdas/domain/weather/forecast-source';
import { fetchPlaceForecast } from '../../../../lambdas/domain/weather/open-meteo';
import { forecastEnvSchema, parseEnv } from '../../../../lambdas/lib/config';

/*
 * Open-Meteo's key as the weather functions read it: FORECAST_API_KEY_SECRET_ID through the AWS
 * Parameters and Secrets extension (a tiny HTTP server on a free port stands in for it), and the
 * host and `apikey` each answer then goes to.
 */

const SESSION_TOKEN = 'session-token-of-this-sandbox';
const SECRET_ARN = 'arn:aws:secretsmanager:eu-west-2:123456789012:secret:OpenMeteoKey-AbCdEf';

let extension: Server;
let provider: Server;
let extensionPort: number;
let providerUrl: string;
let secretString = '';
const asked: string[] = [];

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  extension = createServer((request, response) => {
    const ok = request.headers['x-aws-parameters-secrets-token'] === SESSION_TOKEN;
    response
      .writeHead(ok ? 200 : 401, { 'content-type': 'application/json' })
      .end(ok ? JSON.stringify({ ARN: SECRET_ARN, SecretString: secretString }) : '');
  });
  extensionPort = await listen(extension);
  provider = createServer((request, response) => {
    asked.push(request.url ?? '');
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ hourly: { time: ['2026-12-07T05:00'], temperature_2m: [-3] } }));
  });
  providerUrl = `http://127.0.0.1:${await listen(provider)}`;
});
afterAll(async () => {
  await new Promise((resolve) => extension.close(resolve));
  await new Promise((resolve) => provider.close(resolve));
});

// The port as the template (or the rehearsal) sets it, in the environment, as Lambda's functions read it.
const load = (env: Record<string, string>) =>
  loadForecastSource(
    parseEnv(forecastEnvSchema, { PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: String(extensionPort), ...env }),
    { sessionToken: SESSION_TOKEN },
  );

const FREE_ENDPOINT_BUT = (why: string) =>
  `This stage declares commercial use, but ${why}: the weather check asks Open-Meteo's free endpoint, which is for non-commercial use only. Store the key with npm run setup (--open-meteo-key), then run npm run doctor.`;

describe('the forecast source', () => {
  it('without a key secret, is Open-Meteo’s free endpoint with no key', async () => {
    expect(await load({})).toEqual({ url: 'https://api.open-meteo.com', timeoutMs: 2000 });
  });

  it('with a commercial key stored, asks the customer-api host with it', async () => {
    secretString = JSON.stringify({ openMeteoApiKey: 'om-commercial-key', placeholder: 'Ab12Cd34' });

    expect(await load({ FORECAST_API_KEY_SECRET_ID: SECRET_ARN })).toEqual({
      url: 'https://customer-api.open-meteo.com',
      apiKey: 'om-commercial-key',
      timeoutMs: 2000,
    });
  });

  it('with the key setup stores as empty (or the stack’s first value), stays on the free endpoint', async () => {
    secretString = JSON.stringify({ openMeteoApiKey: '', placeholder: 'Ab12Cd34' });

    expect(await load({ FORECAST_API_KEY_SECRET_ID: SECRET_ARN })).toEqual({
      url: 'https://api.open-meteo.com',
      timeoutMs: 2000,
    });
  });

  it('with a secret that is not the key’s JSON, logs it and stays on the free endpoint', async () => {
    secretString = 'RandomPlaceholderNotJson';

    expect(await load({ FORECAST_API_KEY_SECRET_ID: SECRET_ARN })).toEqual({
      url: 'https://api.open-meteo.com',
      timeoutMs: 2000,
    });
  });

  it('keeps another host (a stand-in) and sends it the key as `apikey`', async () => {
    secretString = JSON.stringify({ openMeteoApiKey: 'om-commercial-key' });
    const source = await load({ FORECAST_API_KEY_SECRET_ID: SECRET_ARN, FORECAST_API_URL: providerUrl });

    await fetchPlaceForecast({ town: 'Aberdeen', latitude: 57.15, longitude: -2.09 }, source);

    expect(source.url).toBe(providerUrl);
    expect(new URL(asked.at(-1) ?? '', providerUrl).searchParams.get('apikey')).toBe('om-commercial-key');
  });

  it('reads the key through the extension on PARAMETERS_SECRETS_EXTENSION_HTTP_PORT, not 2773', async () => {
    secretString = JSON.stringify({ openMeteoApiKey: 'om-commercial-key' });

    const source = await loadForecastSource(
      parseEnv(forecastEnvSchema, {
        FORECAST_API_KEY_SECRET_ID: SECRET_ARN,
        FORECAST_PLAN: 'commercial',
        PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: String(extensionPort),
      }),
      { sessionToken: SESSION_TOKEN },
    );

    expect(source).toEqual({
      url: 'https://customer-api.open-meteo.com',
      apiKey: 'om-commercial-key',
      timeoutMs: 2000,
    });
  });
});

describe('a stage that declares commercial use without a readable key (issue 48)', () => {
  it('says so when no key is stored, and still sees the weather on the free endpoint', async () => {
    secretString = JSON.stringify({ openMeteoApiKey: '', placeholder: 'Ab12Cd34' });

    expect(await load({ FORECAST_API_KEY_SECRET_ID: SECRET_ARN, FORECAST_PLAN: 'commercial' })).toEqual({
      url: 'https://api.open-meteo.com',
      timeoutMs: 2000,
      keyProblem: FREE_ENDPOINT_BUT('no Open-Meteo key is stored'),
    });
  });

  it('says so when the key cannot be read (the secret is not the key’s JSON)', async () => {
    secretString = 'RandomPlaceholderNotJson';

    const source = await load({ FORECAST_API_KEY_SECRET_ID: SECRET_ARN, FORECAST_PLAN: 'commercial' });

    expect(source.keyProblem).toBe(FREE_ENDPOINT_BUT('its Open-Meteo key could not be read'));
  });

  it('says so when the extension is not where the environment says', async () => {
    secretString = JSON.stringify({ openMeteoApiKey: 'om-commercial-key' });

    const source = await loadForecastSource(
      parseEnv(forecastEnvSchema, {
        FORECAST_API_KEY_SECRET_ID: SECRET_ARN,
        FORECAST_PLAN: 'commercial',
        PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: '1',
      }),
      { sessionToken: SESSION_TOKEN, timeoutMs: 500 },
    );

    expect(source.keyProblem).toBe(FREE_ENDPOINT_BUT('its Open-Meteo key could not be read'));
    expect(source.apiKey).toBeUndefined();
  });

  it('counts one ForecastKeyUnreadable per check (EMF, service dimension), and nothing on a free stage', async () => {
    secretString = JSON.stringify({ openMeteoApiKey: '' });
    const lines: string[] = [];
    const commercial = await load({ FORECAST_API_KEY_SECRET_ID: SECRET_ARN, FORECAST_PLAN: 'commercial' });
    const free = await load({ FORECAST_API_KEY_SECRET_ID: SECRET_ARN });

    expect(reportForecastKey(free, (line) => lines.push(line))).toBeUndefined();
    expect(lines).toEqual([]);
    expect(reportForecastKey(commercial, (line) => lines.push(line))).toBe(
      FREE_ENDPOINT_BUT('no Open-Meteo key is stored'),
    );
    expect(lines).toHaveLength(1);
    const emf = JSON.parse(lines[0] ?? '{}');
    expect(emf).toMatchObject({ ForecastKeyUnreadable: 1, service: 'live-aquatics-shop' });
    expect(emf._aws.CloudWatchMetrics[0]).toMatchObject({
      Namespace: 'LiveAquatics',
      Dimensions: [['service']],
      Metrics: [{ Name: 'ForecastKeyUnreadable', Unit: 'Count' }],
    });
  });
});
