import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpsHarness, startOpsHarness } from './harness';

// The merchant's week on the CLI, with the clock on Wednesday 25 November 2026 (London, GMT).
// Orders paid on Tuesday 24 November are dated for Monday 30 November.
let h: OpsHarness;
beforeAll(async () => {
  h = await startOpsHarness();
});
afterAll(async () => {
  await h?.close();
});

const WEDNESDAY = new Date('2026-11-25T10:00:00Z');
const PAID = new Date('2026-11-24T10:00:00Z');

async function delay(from: string, to: string) {
  return h.orders(['delay', '--dispatch', from, '--to', to, '--reason', 'weather', '--local']);
}

describe('orders CLI: a delayed order stays in every list', () => {
  it('is listed, counted in status and packed on its new day, and next finds that day', async () => {
    h.setNow(WEDNESDAY);
    const orders = [
      await h.orderPaidAt(PAID, 1),
      await h.orderPaidAt(PAID, 2),
      await h.orderPaidAt(PAID, 3, 6),
    ];
    const shipped = await h.orderPaidAt(PAID, 4);
    expect(orders.map((o) => o.dispatchDate)).toEqual(['2026-11-30', '2026-11-30', '2026-11-30']);
    expect((await h.orders(['mark-dispatched', shipped.reference, '--local'])).code).toBe(0);

    const moved = await delay('2026-11-30', '2026-12-01');
    expect(moved.code).toBe(0);
    expect(moved.out).toContain(
      'Moved 3 orders from Monday 30 November 2026 to Tuesday 1 December 2026 (weather)',
    );

    const list = await h.orders(['list', '--local', '--json']);
    expect(JSON.parse(list.out)).toHaveLength(4);

    const status = await h.orders(['status', '--local']);
    expect(status.out).toContain('Next dispatch: Monday 30 November 2026: 0 orders, 0 bottles.');
    expect(status.out).toContain('Then: Tuesday 1 December 2026: 3 orders, 12 bottles.');

    // On Tuesday 1 December the next day to pack is that Tuesday, not Monday 7 December.
    h.setNow(new Date('2026-12-01T08:00:00Z'));
    const dir = await import('node:fs').then((fs) => fs.mkdtempSync('/tmp/dispatch-'));
    const packing = await h.orders(['dispatch-list', '--local', '--out', dir]);
    expect(packing.code).toBe(0);
    expect(packing.out).toContain('Dispatch Tuesday 1 December 2026: 3 orders, 12 bottles to prepare.');
    for (const order of orders) expect(packing.out).toContain(order.reference);
    const statusThen = await h.orders(['status', '--local']);
    expect(statusThen.out).toContain('Next dispatch: Tuesday 1 December 2026: 3 orders, 12 bottles.');
    h.setNow(undefined);
  });
});

describe('orders CLI: delay says only true things', () => {
  // Monday 14 December 2026 holds one order (paid Tuesday 8 December).
  let emailsBefore = 0;
  beforeAll(async () => {
    h.setNow(WEDNESDAY);
    const order = await h.orderPaidAt(new Date('2026-12-08T10:00:00Z'), 50);
    expect(order.dispatchDate).toBe('2026-12-14');
    emailsBefore = (await h.shop.standIns.emails()).length;
  });

  it.each([
    [
      '2026-12-25',
      'Friday 25 December is a bank holiday: couriers collect and the shop dispatches on working days.',
    ],
    ['2026-12-19', 'Saturday 19 December is a weekend day: couriers collect'],
    ['2026-12-14', 'The new date, Monday 14 December, must be after Monday 14 December.'],
    [
      '2027-01-28',
      'The new date, Thursday 28 January 2027, is more than 8 weeks ahead: the latest is Wednesday 20 January 2027.',
    ],
  ])('refuses --to %s with exit 1 and sends nothing', async (to, message) => {
    h.setNow(WEDNESDAY);
    const run = await delay('2026-12-14', to);
    expect(run.code).toBe(1);
    expect(run.err).toContain(message);
    expect(await h.shop.standIns.emails()).toHaveLength(emailsBefore);
  });

  it('refuses a past --to', async () => {
    h.setNow(new Date('2026-12-16T10:00:00Z'));
    const run = await delay('2026-12-14', '2026-12-15');
    expect(run.code).toBe(1);
    expect(run.err).toContain('The new date, Tuesday 15 December, is not in the future.');
    expect(await h.shop.standIns.emails()).toHaveLength(emailsBefore);
  });

  it('refuses a day with nothing to move, naming the days that hold orders', async () => {
    h.setNow(WEDNESDAY);
    const run = await delay('2026-12-07', '2026-12-08');
    expect(run.code).toBe(1);
    expect(run.err).toContain('Monday 7 December holds no undispatched orders: nothing to move.');
    expect(run.err).toContain('Monday 14 December (2026-12-14)');
    expect(await h.shop.standIns.emails()).toHaveLength(emailsBefore);
  });

  it('refuses a date that does not exist instead of rolling it over', async () => {
    h.setNow(WEDNESDAY);
    const run = await delay('2026-11-31', '2026-12-08');
    expect(run.code).toBe(2);
    expect(run.err).toContain('--dispatch 2026-11-31 is not a date: no such day.');
  });

  it('takes --dispatch next: the earliest day still holding orders, overdue ones first', async () => {
    // Friday 18 December 2026: Tuesday 1 December (moved there above, never packed) comes first.
    h.setNow(new Date('2026-12-18T10:00:00Z'));
    const run = await delay('next', '2026-12-21');
    expect(run.code).toBe(0);
    expect(run.out).toContain(
      'Moved 3 orders from Tuesday 1 December 2026 to Monday 21 December 2026 (weather)',
    );
    h.setNow(undefined);
  });

  it('gives a new date in another year with its year in the email', async () => {
    h.setNow(new Date('2026-12-18T10:00:00Z'));
    const run = await delay('2026-12-14', '2027-01-04');
    expect(run.code).toBe(0);
    expect(run.out).toContain(
      'Moved 1 order from Monday 14 December 2026 to Monday 4 January 2027 (weather)',
    );
    const emails = (await h.emailsTo('customer50@example.com')).filter((e) =>
      e.subject.includes('new dispatch date'),
    );
    expect(emails).toHaveLength(1);
    expect(emails[0]?.subject).toContain('Monday 4 January 2027');
    expect(emails[0]?.body.text).toContain('from Monday 14 December to Monday 4 January 2027, because of');
    h.setNow(undefined);
  });
});
