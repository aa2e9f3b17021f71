import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchSortKey } from '../../../../lambdas/domain/storage/orders-table';
import { writeCapacitySettings } from '../../../../lambdas/domain/storage/settings-store';
import { delayOrdersAtRisk } from '../../../../lambdas/domain/weather/delay-at-risk';
import { checkWeather, type WeatherDeps } from '../../../../lambdas/domain/weather/weather-check';
import { type ForecastStandIn, startForecastStandIn } from '../../../../local/forecast-stand-in';
import { injectAwsFault, inputContaining } from '../../../support/aws-faults';
import {
  type OperationsHarness,
  seedSoldOrder,
  startOperationsHarness,
} from '../operations/operations-harness';

// "Delay the orders at risk" takes each order to its own first fine day, from the forecast already
// read (the stand-in's 7 days from Sunday 6 December 2026, 19:00, the clock injected here). The
// dispatch day is Monday 7 December; the seller is in Bath, where it stays mild.
let h: OperationsHarness;
let forecast: ForecastStandIn;
let deps: OperationsHarness['deps'] & WeatherDeps;
const SUNDAY_EVENING = new Date('2026-12-06T19:00:00Z');
const INVERNESS = { latitude: 57.48, longitude: -4.22 };
const LERWICK = { latitude: 60.15, longitude: -1.15 };

async function setDay(
  place: { latitude: number; longitude: number },
  date: string,
  min: number,
  max: number,
) {
  const response = await fetch(`${forecast.url}/__set`, {
    method: 'POST',
    body: JSON.stringify({ ...place, date, min, max }),
  });
  expect(response.status).toBe(204);
}

beforeAll(async () => {
  h = await startOperationsHarness();
  h.setNow(SUNDAY_EVENING);
  forecast = await startForecastStandIn(0, () => h.deps.now());
  deps = { ...h.deps, forecast: { url: forecast.url, timeoutMs: 1_000 }, dispatchPostcode: 'BA1 1AA' };
  // Inverness: Monday and Tuesday −5 °C, Wednesday on mild. Lerwick: frost every day of the forecast.
  await setDay(INVERNESS, '2026-12-07', -5, 1);
  await setDay(INVERNESS, '2026-12-08', -5, 1);
  for (const date of ['2026-12-07', '2026-12-08', '2026-12-09', '2026-12-10', '2026-12-11', '2026-12-12'])
    await setDay(LERWICK, date, -6, 0);
  await h.seedOrder({
    sessionId: 'cs_test_w_INVERNESS001',
    paidAt: '2026-12-03T09:00:00Z',
    dispatchDate: '2026-12-07',
    name: 'Iona Frost',
    email: 'iona@example.com',
    postcode: 'IV2 3AA',
  });
  await h.seedOrder({
    sessionId: 'cs_test_w_LERWICKZE002',
    paidAt: '2026-12-03T09:05:00Z',
    dispatchDate: '2026-12-07',
    name: 'Lars Ice',
    email: 'lars@example.com',
    postcode: 'ZE1 0AA',
  });
  await h.seedOrder({
    sessionId: 'cs_test_w_TRUROMILD003',
    paidAt: '2026-12-03T09:10:00Z',
    dispatchDate: '2026-12-07',
    name: 'Tam Mild',
    email: 'tam@example.com',
    postcode: 'TR1 2AA',
  });
});

afterAll(async () => {
  await forecast.close();
  await h.close();
});

const INVERNESS_WHY =
  'Wednesday 9 December: \u22125 °C in Inverness on Monday morning; Tuesday at risk too: \u22125 °C in Inverness on Tuesday morning; Wednesday fine';
const LERWICK_WHY =
  'No fine day within the forecast: decide by hand. \u22126 °C in Lerwick on Monday morning; ' +
  'Tuesday at risk too: \u22126 °C in Lerwick on Tuesday morning; Wednesday at risk too: \u22126 °C in Lerwick on Wednesday morning; ' +
  'Thursday at risk too: \u22126 °C in Lerwick on Thursday morning; Friday at risk too: \u22126 °C in Lerwick on Friday morning';

describe('the weather check plans each order at risk', () => {
  it('names its first fine day after a frosty next day, or none within the forecast; a fine order has no plan', async () => {
    const check = await checkWeather('2026-12-07', deps);
    expect(check.state === 'checked' && check.orders).toEqual([
      {
        reference: 'INVERNESS001',
        customerName: 'Iona Frost',
        customerEmail: 'iona@example.com',
        verdict: 'at risk',
        reason: '\u22125 °C in Inverness on Monday morning',
        move: { to: '2026-12-09', why: INVERNESS_WHY },
      },
      {
        reference: 'LERWICKZE002',
        customerName: 'Lars Ice',
        customerEmail: 'lars@example.com',
        verdict: 'at risk',
        reason: '\u22126 °C in Lerwick on Monday morning',
        move: { to: null, why: LERWICK_WHY },
      },
      {
        reference: 'TRUROMILD003',
        customerName: 'Tam Mild',
        customerEmail: 'tam@example.com',
        verdict: 'fine',
        // A fine order's words are its first reading's: the seller's place.
        reason: '6 °C to 12 °C in Bath',
      },
    ]);
  });
});

describe('delayOrdersAtRisk', () => {
  it('moves the Inverness order to Wednesday (not the frosty Tuesday), lists the Lerwick order unmoved, leaves the fine one', async () => {
    const result = await delayOrdersAtRisk('2026-12-07', 'merchant@example.com', deps);

    expect(result).toEqual({
      from: '2026-12-07',
      orders: [
        { reference: 'INVERNESS001', customerName: 'Iona Frost', to: '2026-12-09', why: INVERNESS_WHY },
        { reference: 'LERWICKZE002', customerName: 'Lars Ice', to: null, why: LERWICK_WHY },
      ],
      moved: ['INVERNESS001'],
      emailed: ['INVERNESS001'],
    });
    expect(await h.item('ORDER#cs_test_w_INVERNESS001')).toMatchObject({
      dispatchDate: '2026-12-09',
      delayedFrom: '2026-12-07',
      delayReason: 'weather',
    });
    expect(await h.item('ORDER#cs_test_w_LERWICKZE002')).toMatchObject({ dispatchDate: '2026-12-07' });
    expect(await h.item('ORDER#cs_test_w_TRUROMILD003')).toMatchObject({ dispatchDate: '2026-12-07' });
    // The forecast already read: each place (Bath, Inverness, Lerwick, Truro) asked for once, whatever the days tried.
    expect([...forecast.requests].sort()).toEqual([
      '50.26,-5.05',
      '51.38,-2.36',
      '57.48,-4.22',
      '60.15,-1.15',
    ]);
  });

  it('emails the moved order’s customer once, naming the new day; nobody else', async () => {
    const emails = await h.emailsTo('iona@example.com');
    expect(emails.map((e) => e.subject)).toEqual([
      'Live Aquatics Ltd: new dispatch date for order INVERNESS001: Wednesday 9 December',
    ]);
    expect(emails[0]?.body.text).toContain('from Monday 7 December to Wednesday 9 December');
    expect(await h.emailsTo('lars@example.com')).toEqual([]);
    expect(await h.emailsTo('tam@example.com')).toEqual([]);
  });

  it('run again: the moved order is no longer at risk on Monday; the one left stays, and nothing is emailed twice', async () => {
    const again = await delayOrdersAtRisk('2026-12-07', 'merchant@example.com', deps);
    expect(again).toEqual({
      from: '2026-12-07',
      orders: [{ reference: 'LERWICKZE002', customerName: 'Lars Ice', to: null, why: LERWICK_WHY }],
      moved: [],
      emailed: [],
    });
    expect(await h.emailsTo('iona@example.com')).toHaveLength(1);
  });
});

// Tuesday 8 December: two orders at risk, each with its own fine day: Inverness's on Wednesday 9
// (one bottle allowed there, three sold by the move) and Aberdeen's on Thursday 10 (frost to Wednesday).
describe('delayOrdersAtRisk, one delay per new day', () => {
  const ABERDEEN = { latitude: 57.15, longitude: -2.09 };
  beforeAll(async () => {
    await setDay(ABERDEEN, '2026-12-08', -5, 1);
    await setDay(ABERDEEN, '2026-12-09', -5, 1);
    await writeCapacitySettings(h.deps.table, { days: { '2026-12-09': 1 } }, new Date());
    await seedSoldOrder(h, {
      sessionId: 'cs_test_w_INVERNESTUE1',
      paidAt: '2026-12-03T10:00:00Z',
      dispatchDate: '2026-12-08',
      name: 'Ines Tuesday',
      email: 'ines@example.com',
      postcode: 'IV2 3AA',
      bottles: 3,
    });
    await h.seedOrder({
      sessionId: 'cs_test_w_ABERDEENTUE2',
      paidAt: '2026-12-03T10:05:00Z',
      dispatchDate: '2026-12-08',
      name: 'Abe Thursday',
      email: 'abe@example.com',
      postcode: 'AB10 1AA',
    });
  });

  it('a failure of the store is thrown, not reported as an order left', async () => {
    const fault = injectAwsFault(h.shop.clients.documentClient, {
      command: 'UpdateItemCommand',
      matches: inputContaining('ORDER#cs_test_w_INVERNESTUE1', 'delayedFrom'),
      when: 'before',
    });
    await expect(delayOrdersAtRisk('2026-12-08', 'merchant@example.com', deps)).rejects.toThrow(
      'Injected fault before UpdateItemCommand',
    );
    fault.remove();
    expect(await h.item('ORDER#cs_test_w_INVERNESTUE1')).toMatchObject({ dispatchDate: '2026-12-08' });
  });

  it('moves one to Wednesday (over its limit, said with the day) and reports the one gone meanwhile as not moved', async () => {
    // Dispatched by hand between the check and its delay to Thursday (status and index key, as a dispatch writes).
    h.beforeCommand(
      'UpdateItemCommand',
      inputContaining('ORDER#cs_test_w_ABERDEENTUE2', 'delayedFrom'),
      async () => {
        const stored = await h.item('ORDER#cs_test_w_ABERDEENTUE2');
        await h.setAttributes('ORDER#cs_test_w_ABERDEENTUE2', {
          status: 'dispatched',
          gsi1sk: dispatchSortKey('dispatched', String(stored?.paidAt), 'ABERDEENTUE2'),
        });
      },
    );

    const result = await delayOrdersAtRisk('2026-12-08', 'merchant@example.com', deps);

    expect(result).toEqual({
      from: '2026-12-08',
      orders: [
        {
          reference: 'INVERNESTUE1',
          customerName: 'Ines Tuesday',
          to: '2026-12-09',
          why: 'Wednesday 9 December: \u22125 °C in Inverness on Tuesday morning; Wednesday fine',
        },
        {
          reference: 'ABERDEENTUE2',
          customerName: 'Abe Thursday',
          to: null,
          why:
            'Not moved: Tuesday 8 December holds no undispatched orders: nothing to move. Days that do: ' +
            'Monday 7 December (2026-12-07), Wednesday 9 December (2026-12-09).',
        },
      ],
      moved: ['INVERNESTUE1'],
      emailed: ['INVERNESTUE1'],
      overLimit: [{ date: '2026-12-09', sold: 3, capacity: 1 }],
    });
    expect(await h.item('ORDER#cs_test_w_ABERDEENTUE2')).toMatchObject({ dispatchDate: '2026-12-08' });
    expect(await h.emailsTo('abe@example.com')).toEqual([]);
  });
});
