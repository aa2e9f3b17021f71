import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadForecastSource } from '../../../../lambdas/domain/weather/forecast-source';
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

const load = (env: Record<string, string>) =>
  loadForecastSource(parseEnv(forecastEnvSchema, env), { port: extensionPort, sessionToken: SESSION_TOKEN });

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
});
