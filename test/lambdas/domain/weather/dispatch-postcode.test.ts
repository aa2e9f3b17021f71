import { describe, expect, it } from 'vitest';
import { postcodeInAddress } from '../../../../lambdas/domain/weather/postcode-places';
import { forecastEnvSchema, parseEnv } from '../../../../lambdas/lib/config';

describe('the dispatch postcode, from the seller address', () => {
  it('is the postcode the address ends with, normalised', () => {
    expect(postcodeInAddress('Unit 4, Mill Lane, Bath, ba1 1aa')).toBe('BA1 1AA');
    expect(postcodeInAddress('Unit 4\nMill Lane\nAberdeen AB10\nAB10 1AA\nUnited Kingdom')).toBe('AB10 1AA');
  });

  it('is absent when the address has no UK postcode', () => {
    expect(postcodeInAddress('1 Rue de la Paix, Paris')).toBeUndefined();
  });
});

describe('the forecast settings', () => {
  it("take the forecast API address, Open-Meteo's free endpoint when unset; the key is a secret id, optional", () => {
    expect(
      parseEnv(forecastEnvSchema, {
        FORECAST_API_URL: 'https://customer-api.open-meteo.com',
        FORECAST_API_KEY_SECRET_ID: 'shop/forecast',
        FORECAST_PLAN: 'commercial',
        PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: '2775',
      }),
    ).toEqual({
      FORECAST_API_URL: 'https://customer-api.open-meteo.com',
      FORECAST_API_KEY_SECRET_ID: 'shop/forecast',
      FORECAST_PLAN: 'commercial',
      PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: 2775,
    });
    // Unset: the free plan (no commercial use declared), the extension's default port.
    expect(parseEnv(forecastEnvSchema, {})).toEqual({
      FORECAST_API_URL: 'https://api.open-meteo.com',
      FORECAST_API_KEY_SECRET_ID: undefined,
      FORECAST_PLAN: 'free',
    });
    expect(() => parseEnv(forecastEnvSchema, { FORECAST_PLAN: 'paid' })).toThrow(
      /FORECAST_PLAN: expected free or commercial/,
    );
    expect(() => parseEnv(forecastEnvSchema, { FORECAST_API_URL: 'ftp://forecast.test' })).toThrow(
      /FORECAST_API_URL/,
    );
  });
});
