import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toOrderItem } from '../../../../lambdas/domain/checkout/paid-checkout';
import {
  createWeatherNoticeHandler,
  loadWeatherNoticeDeps,
} from '../../../../lambdas/handlers/weather-notice/handler';
import { type ForecastStandIn, startForecastStandIn } from '../../../../local/forecast-stand-in';
import { quoteOrder } from '../../../../shared/pricing';
import { type StandIns, standInEnvironment, startStandIns } from '../../../support/stand-ins';

// The daily weather notice against the Open-Meteo stand-in, dynalite and the SES stand-in. Two
// orders paid on Tuesday 1 December 2026 go on Monday 7 December (to arrive Tuesday 8 December):
// one to Aberdeen, one to Bristol, where the seller is.
let standIns: StandIns;
let forecast: ForecastStandIn;
let now = new Date('2026-12-05T19:00:00Z');
let run: ReturnType<typeof createWeatherNoticeHandler>;

beforeAll(async () => {
  standIns = await startStandIns();
  forecast = await startForecastStandIn(0, () => now);
  const deps = await loadWeatherNoticeDeps({
    ...standInEnvironment(standIns),
    SITE_URL: 'https://shop.test',
    FORECAST_API_URL: forecast.url,
  });
  run = createWeatherNoticeHandler({ ...deps, now: () => now });
  await seedOrder('2026-12-01T09:00:00Z', 1, 'AB10 1AA');
  await seedOrder('2026-12-01T09:30:00Z', 2, 'BS1 4DJ');
});
afterAll(async () => {
  await forecast.close();
  await standIns.close();
});

async function seedOrder(paidAt: string, n: number, postcode: string) {
  const at = new Date(paidAt);
  const order = toOrderItem(
    {
      sessionId: `cs_test_wn${at.getTime()}x${String(n).padStart(6, '0')}`,
      paymentIntentId: `pi_test_wn${n}`,
      livemode: false,
      quote: quoteOrder(3),
      currency: 'gbp',
      customer: { name: `C ${n}`, email: `c${n}@example.com`, phone: '', address: `${n} Lane`, postcode },
      promisedDispatchDate: undefined,
      checkoutCreatedAt: at,
    },
    { now: at, cutoffHours: 36 },
  );
  await standIns.inspector.send(new PutCommand({ TableName: standIns.tableName, Item: order }));
  return order.reference;
}

const merchantEmails = async () =>
  (await standIns.emails()).filter((e) => e.destination.to.includes('merchant@live-aquatics.test'));

describe('the daily weather notice', () => {
  it('on a Saturday (no dispatch on Sunday) sends nothing', async () => {
    await fetch(`${forecast.url}/__set`, {
      method: 'POST',
      body: JSON.stringify({ latitude: 57.15, longitude: -2.09, date: '2026-12-08', min: -4, max: 3 }),
    });
    expect(await run()).toEqual({ outcome: 'no dispatch tomorrow', day: '2026-12-06' });
    expect(await merchantEmails()).toHaveLength(0);
  });

  it('on the Sunday before, tells the merchant once which order is at risk and why, linking to the week', async () => {
    now = new Date('2026-12-06T18:30:00Z');
    expect(await run()).toEqual({ outcome: 'sent', day: '2026-12-07', atRisk: 1 });
    expect(await run()).toEqual({ outcome: 'sent before', day: '2026-12-07', atRisk: 1 });

    const emails = await merchantEmails();
    expect(emails.map((e) => e.subject)).toEqual(['Weather: 1 order at risk for Monday 7 December']);
    expect(emails[0]?.body.text).toContain('−4 °C in Aberdeen on Tuesday morning');
    // Tuesday's dispatch would meet the same frost: the notice names the day the delay would take.
    expect(emails[0]?.body.text).toContain('Delay it to Wednesday 9 December in the week');
    expect(emails[0]?.body.text).toContain(
      'Tuesday at risk too: −4 °C in Aberdeen on Tuesday morning; Wednesday fine',
    );
    expect(emails[0]?.body.text).toContain('https://shop.test/admin');
    expect(emails[0]?.body.text).not.toContain('Bristol');
  });

  it('no order at risk: no email', async () => {
    now = new Date('2026-12-13T18:30:00Z');
    expect(await run()).toEqual({ outcome: 'none at risk', day: '2026-12-14' });
    expect(await merchantEmails()).toHaveLength(1);
  });
});
