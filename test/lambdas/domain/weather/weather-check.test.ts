import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeWeatherThresholds } from '../../../../lambdas/domain/storage/weather-thresholds';
import { delayOrdersAtRisk } from '../../../../lambdas/domain/weather/delay-at-risk';
import { checkWeather, type WeatherDeps } from '../../../../lambdas/domain/weather/weather-check';
import { type ForecastStandIn, startForecastStandIn } from '../../../../local/forecast-stand-in';
import { type OperationsHarness, startOperationsHarness } from '../operations/operations-harness';

// Against the Open-Meteo stand-in and dynalite: Monday 10 March 2031 is the dispatch day, its orders
// should arrive Tuesday 11 March; the check runs on the Saturday evening before.
let h: OperationsHarness;
let forecast: ForecastStandIn;
let deps: OperationsHarness['deps'] & WeatherDeps;
const ABERDEEN = { latitude: 57.15, longitude: -2.09 };

beforeAll(async () => {
  h = await startOperationsHarness();
  h.setNow(new Date('2031-03-08T19:00:00Z'));
  forecast = await startForecastStandIn(0, () => h.deps.now());
  deps = { ...h.deps, forecast: { url: forecast.url, timeoutMs: 300 }, dispatchPostcode: 'BA1 1AA' };
  await h.seedOrder({
    sessionId: 'cs_test_w_WEATHERABD01',
    paidAt: '2031-03-05T09:00:00Z',
    dispatchDate: '2031-03-10',
    email: 'ann@example.com',
    postcode: 'AB10 1AA',
  });
  await h.seedOrder({
    sessionId: 'cs_test_w_WEATHERBTH02',
    paidAt: '2031-03-05T09:05:00Z',
    dispatchDate: '2031-03-10',
    email: 'ben@example.com',
    postcode: 'BA2 3DE',
  });
});

afterAll(async () => {
  await forecast.close();
  await h.close();
});

beforeEach(async () => {
  await fetch(`${forecast.url}/__set`, { method: 'POST', body: JSON.stringify({ reset: true }) });
});

async function setDay(
  place: { latitude: number; longitude: number },
  date: string,
  min: number,
  max: number,
) {
  await fetch(`${forecast.url}/__set`, {
    method: 'POST',
    body: JSON.stringify({ ...place, date, min, max }),
  });
}

describe('checkWeather', () => {
  it('says when it will know, before 18:00 two days ahead', async () => {
    const early = { ...deps, now: () => new Date('2031-03-08T17:59:00Z') };
    expect(await checkWeather('2031-03-10', early)).toEqual({
      day: '2031-03-10',
      state: 'not yet',
      knownFrom: '2031-03-08T18:00:00.000Z',
      message: 'The weather for Monday 10 March is checked from 18:00 on Saturday 8 March.',
    });
  });

  it('marks only the order whose place has frost at risk, in words, and fetches each place once a day', async () => {
    // Cached per London day: this test's day is its own (the 9th), so the frost set now is fetched.
    const sunday = { ...deps, now: () => new Date('2031-03-09T10:00:00Z') };
    await setDay(ABERDEEN, '2031-03-11', -4, 3);
    const check = await checkWeather('2031-03-10', sunday);
    expect(check).toEqual({
      day: '2031-03-10',
      state: 'checked',
      forecastSeen: true,
      orders: [
        {
          reference: 'WEATHERABD01',
          customerName: 'Pat Pond',
          customerEmail: 'ann@example.com',
          verdict: 'at risk',
          reason: '\u22124 °C in Aberdeen on Tuesday morning',
          // Dispatched on Tuesday it would meet the same frost on the day: Wednesday is the first fine.
          move: {
            to: '2031-03-12',
            why: 'Wednesday 12 March: \u22124 °C in Aberdeen on Tuesday morning; Tuesday at risk too: \u22124 °C in Aberdeen on Tuesday morning; Wednesday fine',
          },
        },
        {
          reference: 'WEATHERBTH02',
          customerName: 'Pat Pond',
          customerEmail: 'ben@example.com',
          verdict: 'fine',
          reason: '6 °C to 12 °C in Bath',
        },
      ],
    });
    const calls = forecast.requests.length;
    await checkWeather('2031-03-10', sunday);
    expect(forecast.requests.length).toBe(calls);
  });

  it('thresholds changed by the merchant change the verdicts', async () => {
    const monday = { ...deps, now: () => new Date('2031-03-09T23:30:00Z') };
    await writeWeatherThresholds(
      h.deps.table,
      {
        atRiskBelow: -10,
        watchBelow: 7,
        watchAbove: 24,
        atRiskAbove: 28,
      },
      monday.now(),
    );
    const check = await checkWeather('2031-03-10', monday);
    await writeWeatherThresholds(
      h.deps.table,
      {
        atRiskBelow: 0,
        watchBelow: 4,
        watchAbove: 24,
        atRiskAbove: 28,
      },
      monday.now(),
    );
    expect(check.state === 'checked' && check.orders.map((o) => [o.reference, o.verdict, o.reason])).toEqual([
      // The day's cached forecast (the frost of the test before): at risk by default, now only watch.
      ['WEATHERABD01', 'watch', '\u22124 °C in Aberdeen on Tuesday morning'],
      ['WEATHERBTH02', 'watch', '6 °C in Bath on Monday morning'],
    ]);
  });

  it('a provider that times out leaves every order "unknown", saying so, within the timeout', async () => {
    const later = { ...deps, now: () => new Date('2031-03-08T21:00:00Z') };
    await fetch(`${forecast.url}/__set`, { method: 'POST', body: JSON.stringify({ delayMs: 2_000 }) });
    const started = Date.now();
    const check = await checkWeather('2031-03-10', later);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(check).toMatchObject({ state: 'checked', forecastSeen: false });
    expect(check.state === 'checked' && check.orders.map((o) => o.verdict)).toEqual(['unknown', 'unknown']);
    expect(check.state === 'checked' && check.orders[0]?.reason).toMatch(/^Could not see the forecast for /);
  });
});

describe('delayOrdersAtRisk', () => {
  it('moves exactly the orders at risk, emails exactly their customers once, leaves the others on the day', async () => {
    const tuesday = { ...deps, now: () => new Date('2031-03-09T12:00:00Z') };
    const result = await delayOrdersAtRisk('2031-03-10', 'merchant@example.com', tuesday);
    expect(result).toEqual({
      from: '2031-03-10',
      orders: [
        {
          reference: 'WEATHERABD01',
          customerName: 'Pat Pond',
          to: '2031-03-12',
          why: 'Wednesday 12 March: \u22124 °C in Aberdeen on Tuesday morning; Tuesday at risk too: \u22124 °C in Aberdeen on Tuesday morning; Wednesday fine',
        },
      ],
      moved: ['WEATHERABD01'],
      emailed: ['WEATHERABD01'],
    });
    expect(await h.item('ORDER#cs_test_w_WEATHERABD01')).toMatchObject({
      dispatchDate: '2031-03-12',
      delayReason: 'weather',
    });
    expect(await h.item('ORDER#cs_test_w_WEATHERBTH02')).toMatchObject({ dispatchDate: '2031-03-10' });
    expect(await h.emailsTo('ann@example.com')).toHaveLength(1);
    expect(await h.emailsTo('ben@example.com')).toEqual([]);
    await expect(delayOrdersAtRisk('2031-03-10', 'merchant@example.com', tuesday)).rejects.toThrow(
      'No order of that day is at risk: nothing delayed.',
    );
    expect(await h.emailsTo('ann@example.com')).toHaveLength(1);
  });
});
