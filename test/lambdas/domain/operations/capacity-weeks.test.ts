import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capacityWeeks } from '../../../../lambdas/domain/operations/shop-week';
import { type OperationsHarness, startOperationsHarness } from './operations-harness';

// The Shop & capacity view's days over Christmas 2026: Friday 25 and Monday 28 December (Boxing
// Day's substitute) are bank holidays, so that week dispatches on Tuesday 29 December.
describe('capacityWeeks, the days of the Shop & capacity view', () => {
  let h: OperationsHarness;
  beforeAll(async () => {
    h = await startOperationsHarness();
    for (const [n, day] of ['2026-12-21', '2026-12-31', '2027-01-04', '2027-01-05'].entries()) {
      await h.seedOrder({
        sessionId: `cs_test_weeks_${n}_${String(n).repeat(12)}`,
        paidAt: '2026-12-15T09:00:00Z',
        dispatchDate: day,
      });
    }
    h.setNow(new Date('2026-12-16T10:00:00Z'));
  });
  afterAll(() => h?.close());

  it("two weeks from Wednesday 16 December: both dispatch days and the delayed Thursday, not the next week's Monday", async () => {
    const rows = await capacityWeeks(h.deps, 2);

    expect(rows.map((row) => [row.date, row.orders, row.dispatchDay])).toEqual([
      ['2026-12-21', 1, true],
      ['2026-12-29', 0, true],
      ['2026-12-31', 1, false],
    ]);
  });

  it('three weeks: the next week reaches its Monday, 4 January, and its Tuesday', async () => {
    const rows = await capacityWeeks(h.deps, 3);

    expect(rows.map((row) => [row.date, row.orders, row.dispatchDay])).toEqual([
      ['2026-12-21', 1, true],
      ['2026-12-29', 0, true],
      ['2026-12-31', 1, false],
      ['2027-01-04', 1, true],
      ['2027-01-05', 1, false],
    ]);
  });
});
