import { describe, expect, it } from 'vitest';
import { BANK_HOLIDAYS_COVER_UNTIL } from '../../shared/bank-holidays.generated';
import {
  addWorkingDays,
  assertBankHolidayCoverage,
  debitDispatchDate,
  expectedArrivalDate,
  formatDispatchDate,
  formatLondonTime,
  londonDate,
  nextDispatchDate,
  nonWorkingDayKind,
} from '../../shared/dispatch';

const at = (iso: string) => new Date(iso);

describe('nextDispatchDate', () => {
  it('ships on the coming Monday', () => {
    expect(nextDispatchDate(at('2026-11-18T10:00:00Z'))).toBe('2026-11-23'); // Wednesday
  });

  it('goes to the following week after the cut-off (36 h before Monday, Saturday noon in GMT)', () => {
    expect(nextDispatchDate(at('2026-11-21T11:59:59Z'))).toBe('2026-11-23');
    expect(nextDispatchDate(at('2026-11-21T12:00:00Z'))).toBe('2026-11-30');
  });

  it('honours a configured cut-off', () => {
    const saturdayEvening = at('2026-11-21T18:00:00Z');
    expect(nextDispatchDate(saturdayEvening, { cutoffHours: 0 })).toBe('2026-11-23');
    expect(nextDispatchDate(saturdayEvening, { cutoffHours: 36 })).toBe('2026-11-30');
    expect(nextDispatchDate(at('2026-11-18T10:00:00Z'), { cutoffHours: 24 * 6 })).toBe('2026-11-30');
  });

  it('orders placed on a Monday go to the next week', () => {
    expect(nextDispatchDate(at('2026-11-23T08:00:00Z'), { cutoffHours: 0 })).toBe('2026-11-30');
  });

  it('moves to Tuesday when the Monday is a bank holiday (spring bank holiday 2026-05-25)', () => {
    expect(nextDispatchDate(at('2026-05-20T10:00:00Z'))).toBe('2026-05-26');
    // Over the Christmas substitute day (Monday 28 December 2026).
    expect(nextDispatchDate(at('2026-12-22T10:00:00Z'))).toBe('2026-12-29');
    // Easter Monday 2027 (29 March) falls the day after the clocks go forward.
    expect(nextDispatchDate(at('2027-03-24T10:00:00Z'))).toBe('2027-03-30');
  });

  it('applies the cut-off to the moved dispatch day, in British Summer Time', () => {
    // Dispatch Tuesday 26 May 2026; 36 h before its BST midnight is Sunday 24 May 12:00 BST = 11:00 UTC.
    expect(nextDispatchDate(at('2026-05-24T10:59:59Z'))).toBe('2026-05-26');
    expect(nextDispatchDate(at('2026-05-24T11:00:00Z'))).toBe('2026-06-01');
  });

  it('uses London time, not UTC, across the clock changes', () => {
    // Clocks go forward on Sunday 29 March 2026; the cut-off is still Saturday noon GMT.
    expect(nextDispatchDate(at('2026-03-28T11:59:00Z'))).toBe('2026-03-30');
    expect(nextDispatchDate(at('2026-03-28T12:00:00Z'))).toBe('2026-04-07'); // Easter Monday 6 April
    // Saturday 24 October 2026, 11:30 UTC = 12:30 BST: past the cut-off for Monday 26 October,
    // which the server's UTC clock alone would have let through.
    expect(nextDispatchDate(at('2026-10-24T10:59:00Z'))).toBe('2026-10-26');
    expect(nextDispatchDate(at('2026-10-24T11:30:00Z'))).toBe('2026-11-02');
    // Saturday 31 October 2026, 11:30 UTC = 11:30 GMT (clocks went back on 25 October): still in time.
    expect(nextDispatchDate(at('2026-10-31T11:30:00Z'))).toBe('2026-11-02');
  });

  it('uses explicit bank holidays when given', () => {
    expect(nextDispatchDate(at('2026-11-18T10:00:00Z'), { bankHolidays: new Set(['2026-11-23']) })).toBe(
      '2026-11-24',
    );
  });
});

describe('londonDate', () => {
  it('is the London calendar day, which differs from UTC late in the evening in summer', () => {
    expect(londonDate(at('2026-06-01T23:30:00Z'))).toBe('2026-06-02');
    expect(londonDate(at('2026-12-01T23:30:00Z'))).toBe('2026-12-01');
  });
});

describe('formatDispatchDate', () => {
  it('reads like "Monday 23 November"', () => {
    expect(formatDispatchDate('2026-11-23')).toBe('Monday 23 November');
    expect(formatDispatchDate('2026-05-26')).toBe('Tuesday 26 May');
  });
});

describe('bank holiday data', () => {
  it('reaches at least a year ahead of today, so it is renewed in a build, never in a checkout', () => {
    expect(() => assertBankHolidayCoverage(new Date(), 365)).not.toThrow();
  });

  it('is content with data that reaches exactly the day needed (it covers up to 2032-12-31)', () => {
    expect(() => assertBankHolidayCoverage(new Date('2032-12-30T12:00:00Z'), 1)).not.toThrow();
    expect(() => assertBankHolidayCoverage(new Date('2032-12-31T12:00:00Z'), 1)).toThrow(
      'Bank holiday data ends 2032-12-31, before 2033-01-01: run npm run generate:bank-holidays with a later LAST_YEAR',
    );
  });

  it('fails loudly when it runs out', () => {
    const late = new Date(`${BANK_HOLIDAYS_COVER_UNTIL}T12:00:00Z`);
    expect(() => assertBankHolidayCoverage(late, 1)).toThrow(/generate:bank-holidays/);
  });
});

describe('nextDispatchDate: a cut-off at a wall-clock time the spring change skips', () => {
  it('22.5 h before Monday 30 March 2026 is Sunday 01:30, which never shows: it falls at 02:30 BST (01:30 UTC)', () => {
    // Clocks go from 01:00 GMT to 02:00 BST on Sunday 29 March 2026: 01:30 is read as the clocks
    // read after the change, never as the hour before it (00:30 UTC).
    expect(nextDispatchDate(at('2026-03-29T01:29:59Z'), { cutoffHours: 22.5 })).toBe('2026-03-30');
    expect(nextDispatchDate(at('2026-03-29T01:30:00Z'), { cutoffHours: 22.5 })).toBe('2026-04-07');
  });
});

describe('formatLondonTime', () => {
  const inNovember2026 = at('2026-11-26T10:00:00Z');

  it.each([
    ['2026-11-25T13:15:24.760Z', 'Wed 25 Nov, 13:15'],
    ['2026-07-01T12:30:00Z', 'Wed 1 Jul, 13:30'],
    ['2026-06-30T23:30:00Z', 'Wed 1 Jul, 00:30'],
    ['2026-12-31T23:59:00Z', 'Thu 31 Dec, 23:59'],
    ['2026-01-01T00:00:00Z', 'Thu 1 Jan, 00:00'],
    ['2026-03-29T00:59:00Z', 'Sun 29 Mar, 00:59'],
    ['2026-03-29T01:00:00Z', 'Sun 29 Mar, 02:00'],
    ['2026-10-25T00:30:00Z', 'Sun 25 Oct, 01:30'],
    ['2026-10-25T01:30:00Z', 'Sun 25 Oct, 01:30'],
  ])('%s reads %s on a London clock (GMT or BST) in the same year', (instant, expected) => {
    expect(formatLondonTime(instant, inNovember2026)).toBe(expected);
  });

  it("carries the year of a time in another London year, midnight's day included", () => {
    expect(formatLondonTime('2025-09-14T23:05:00Z', inNovember2026)).toBe('Mon 15 Sep 2025, 00:05');
    expect(formatLondonTime(at('2026-11-25T13:15:00Z'), at('2027-01-01T00:00:00Z'))).toBe(
      'Wed 25 Nov 2026, 13:15',
    );
    // 23:30 UTC on 31 December 2026 is still 2026 in London (GMT): no year.
    expect(formatLondonTime('2026-12-31T09:00:00Z', at('2026-12-31T23:30:00Z'))).toBe('Thu 31 Dec, 09:00');
  });
});

describe('addWorkingDays', () => {
  it('counts Monday to Friday only, skipping bank holidays', () => {
    expect(addWorkingDays('2026-11-27', 1)).toBe('2026-11-30'); // Friday → Monday
    expect(addWorkingDays('2026-11-27', 7)).toBe('2026-12-08');
    // Christmas Day, Boxing Day (a Saturday) and the substitute Monday 28 December 2026.
    expect(addWorkingDays('2026-12-24', 1)).toBe('2026-12-29');
  });
});

describe('debitDispatchDate: the goods wait the 7 working days a new Direct Debit takes', () => {
  it('a debit set up on a Friday cannot make the coming Monday, nor the one after', () => {
    // Friday 27 November: the card's day is Monday 30 November; the debit confirms Tuesday 8 December.
    expect(nextDispatchDate(at('2026-11-27T15:00:00Z'))).toBe('2026-11-30');
    expect(debitDispatchDate(at('2026-11-27T15:00:00Z'))).toBe('2026-12-14');
  });

  it('a debit set up on a Monday confirms the next Wednesday week, in time for the Monday after', () => {
    expect(debitDispatchDate(at('2026-11-23T08:00:00Z'))).toBe('2026-12-07');
  });

  it('counts from the London day and applies the cut-off to the end of the day the debit confirms', () => {
    // Sunday 22 November at 23:30 GMT is Sunday in London: Monday 23 is the first working day;
    // confirms Tuesday 1 December; with a 144-hour cut-off (Tuesday 00:00 before a Monday) the
    // Monday after, 7 December, is already closed.
    expect(debitDispatchDate(at('2026-11-22T23:30:00Z'))).toBe('2026-12-07');
    expect(debitDispatchDate(at('2026-11-22T23:30:00Z'), { cutoffHours: 144 })).toBe('2026-12-14');
  });
});

describe('expectedArrivalDate', () => {
  it('is the next day Royal Mail delivers: never a Sunday or a bank holiday', () => {
    expect(expectedArrivalDate('2026-11-30')).toBe('2026-12-01');
    expect(expectedArrivalDate('2026-11-27')).toBe('2026-11-28'); // Friday → Saturday
    expect(expectedArrivalDate('2026-11-28')).toBe('2026-11-30'); // Saturday → Monday
    expect(expectedArrivalDate('2026-12-24')).toBe('2026-12-29');
  });
});

describe('nonWorkingDayKind', () => {
  it('names a weekend day and a bank holiday apart', () => {
    expect(nonWorkingDayKind('2026-12-19')).toBe('a weekend day');
    expect(nonWorkingDayKind('2026-12-20')).toBe('a weekend day');
    expect(nonWorkingDayKind('2026-12-25')).toBe('a bank holiday');
    expect(nonWorkingDayKind('2026-12-28')).toBe('a bank holiday');
  });
});
