import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ForecastStandIn, startForecastStandIn } from '../../local/forecast-stand-in';

let standIn: ForecastStandIn;
beforeAll(async () => {
  standIn = await startForecastStandIn(0, () => new Date('2031-03-08T19:00:00Z'));
});
afterAll(() => standIn.close());

describe('the Open-Meteo forecast stand-in', () => {
  it('answers /v1/forecast hourly in London time, with a day set through POST /__set', async () => {
    const set = await fetch(`${standIn.url}/__set`, {
      method: 'POST',
      body: JSON.stringify({ latitude: 57.15, longitude: -2.09, date: '2031-03-09', min: -4, max: 3 }),
    });
    expect(set.status).toBe(204);
    const answer = await fetch(
      `${standIn.url}/v1/forecast?latitude=57.15&longitude=-2.09&hourly=temperature_2m&timezone=Europe%2FLondon&forecast_days=2`,
    );
    const body = (await answer.json()) as { hourly: { time: string[]; temperature_2m: number[] } };
    expect(body.hourly.time).toHaveLength(48);
    expect(body.hourly.time[0]).toBe('2031-03-08T00:00');
    expect(body.hourly.temperature_2m[5]).toBe(6);
    expect(body.hourly.temperature_2m[24 + 5]).toBe(-4);
    expect(body.hourly.temperature_2m[24 + 14]).toBe(3);
  });

  it('refuses a request without a place, as Open-Meteo does', async () => {
    expect((await fetch(`${standIn.url}/v1/forecast?hourly=temperature_2m`)).status).toBe(400);
  });
});
