import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ForecastStandIn, startForecastStandIn } from '../../local/forecast-stand-in';
import { type OpsHarness, startOpsHarness } from './harness';

// `npm run orders -- weather` against dynalite and the Open-Meteo stand-in. The harness's seller
// and its orders are both in Bristol (BS1 4DJ): a frost there puts the order at risk. Monday and
// Tuesday are frosty in Bristol, Wednesday mild: the delay skips Tuesday.
let h: OpsHarness;
let forecast: ForecastStandIn;
let clock = new Date('2031-03-08T19:00:00Z');

beforeAll(async () => {
  h = await startOpsHarness();
  h.setNow(clock);
  forecast = await startForecastStandIn(0, () => clock);
  const order = await h.orderPaidAt(new Date('2031-03-06T10:00:00Z'), 1);
  expect(order.dispatchDate).toBe('2031-03-10');
  for (const date of ['2031-03-10', '2031-03-11'])
    await fetch(`${forecast.url}/__set`, {
      method: 'POST',
      body: JSON.stringify({ latitude: 51.45, longitude: -2.59, date, min: -3, max: 4 }),
    });
});

const WHY =
  'Wednesday 12 March: \u22123 °C in Bristol on Monday morning; Tuesday at risk too: \u22123 °C in Bristol on Tuesday morning; Wednesday fine';

afterAll(async () => {
  await forecast.close();
  await h.close();
});

const weather = (args: string[]) => h.orders(['weather', ...args, '--local'], { forecastUrl: forecast.url });

describe('npm run orders -- weather', () => {
  it('status: a forecast that cannot be seen is its own line, and the week is still shown', async () => {
    const run = await h.orders(['status', '--local']);
    expect(run.code).toBe(0);
    expect(run.out).toContain('Next dispatch: Monday 10 March 2031: 1 order, 3 bottles.');
    expect(run.out).toContain(
      'Weather for Monday 10 March (1 order): 1 unknown (could not see the forecast).',
    );
  });

  it("status gains one line: the coming dispatch day's weather", async () => {
    const run = await h.orders(['status', '--local'], { forecastUrl: forecast.url });
    expect(run.out.split('\n').filter((line) => line.startsWith('Weather'))).toEqual([
      'Weather for Monday 10 March (1 order): 1 at risk.',
    ]);
  });

  it('prints each order of the day with its verdict and reason', async () => {
    const run = await weather(['--date', '2031-03-10']);
    expect(run.code).toBe(0);
    expect(run.out).toContain('Weather for Monday 10 March (1 order): 1 at risk.');
    expect(run.out).toMatch(
      /\n {2}\S{12} {2}at risk {2}Customer 1: \u22123 °C in Bristol on Monday morning\n/,
    );
    expect(run.out).toContain(`\n      delay: ${WHY}`);
  });

  it("--json gives the admin API's answer", async () => {
    const run = await weather(['--date', '2031-03-10', '--json']);
    const check = JSON.parse(run.out.slice(run.out.indexOf('{')));
    expect(check).toMatchObject({
      day: '2031-03-10',
      state: 'checked',
      forecastSeen: true,
      atRisk: 1,
    });
    expect(check.orders).toHaveLength(1);
    expect(check.orders[0]).toMatchObject({
      customerName: 'Customer 1',
      verdict: 'at risk',
      reason: '\u22123 °C in Bristol on Monday morning',
      move: { to: '2031-03-12', why: WHY },
    });
  });

  it('--delay prints the plan, then moves the order past the frosty Tuesday to Wednesday and emails once', async () => {
    const run = await weather(['--date', '2031-03-10', '--delay']);
    expect(run.code).toBe(0);
    const plan = run.out.indexOf(`      delay: ${WHY}`);
    const done = run.out.search(/ {2}\S{12} {2}Customer 1: moved to Wednesday 12 March 2031\. /);
    expect(plan).toBeGreaterThan(-1);
    expect(done).toBeGreaterThan(plan);
    expect(run.out).toContain(`Customer 1: moved to Wednesday 12 March 2031. ${WHY}\n`);
    expect(run.out).toContain('Moved 1 order at risk from Monday 10 March 2031; delay emails sent: 1.');
    const emails = await h.emailsTo('customer1@example.com');
    expect(emails.filter((e) => e.subject.includes('new dispatch date'))).toHaveLength(1);
    expect(emails.find((e) => e.subject.includes('new dispatch date'))?.subject).toContain(
      'Wednesday 12 March',
    );

    // Nothing at risk on Monday any more: refused, nothing sent again.
    const again = await weather(['--date', '2031-03-10', '--delay']);
    expect(again.code).not.toBe(0);
    expect(again.err).toContain('No order of that day is at risk: nothing delayed.');
    expect(
      (await h.emailsTo('customer1@example.com')).filter((e) => e.subject.includes('new dispatch date')),
    ).toHaveLength(1);
  });

  it('says when it will know, before 18:00 two days ahead', async () => {
    clock = new Date('2031-03-08T12:00:00Z');
    h.setNow(clock);
    const run = await weather(['--date', '2031-03-10']);
    expect(run.out).toContain('The weather for Monday 10 March is checked from 18:00 on Saturday 8 March.');
  });

  it('a date that is not one is one line with the usage', async () => {
    const run = await weather(['--date', '2031-02-30']);
    expect(run.code).not.toBe(0);
    expect(run.err).toContain('\nweather: --date 2031-02-30 is not a date: no such day.\n');
  });
});
