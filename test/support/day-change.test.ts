import { describe, expect, it } from 'vitest';
import { msClearOfDayChange } from '../e2e/support/day-change';

// The browser specs' wait before a test (test/e2e/support/fixtures.ts): clear of a change of day for 90 s.
describe('msClearOfDayChange', () => {
  it('waits a second past the weekly cut-off, Saturday 12:00 London, when it is a minute away', () => {
    const wait = msClearOfDayChange(Date.parse('2026-12-12T11:59:00Z'), 90_000);

    expect(wait).toBeGreaterThanOrEqual(61_000);
    expect(wait).toBeLessThanOrEqual(61_050);
  });

  it("waits past London's midnight, in summer an hour before UTC's", () => {
    const wait = msClearOfDayChange(Date.parse('2027-06-15T22:59:30Z'), 90_000);

    expect(wait).toBeGreaterThanOrEqual(31_000);
    expect(wait).toBeLessThanOrEqual(31_050);
  });

  it('does not wait on a Wednesday morning, nor just after the cut-off, nor for a change past the window', () => {
    expect(msClearOfDayChange(Date.parse('2026-12-09T10:00:00Z'), 90_000)).toBe(0);
    expect(msClearOfDayChange(Date.parse('2026-12-12T12:00:30Z'), 90_000)).toBe(0);
    expect(msClearOfDayChange(Date.parse('2026-12-12T11:58:00Z'), 90_000)).toBe(0);
  });
});
