import { describe, expect, it } from 'vitest';
import {
  formatDispatchDate,
  formatLondonDate,
  formatLondonDayAndTime,
  formatLondonTime,
  londonDate,
  londonOffsetMs,
} from '../../shared/dispatch';

/**
 * London's clock is worked out from the UK's summer-time rule, not asked of Intl (ADR 0034). Intl's
 * Europe/London (the IANA time zone data in Node's ICU) is the oracle here: if Parliament changes
 * the rule, the time zone data that carries the change makes these tests fail.
 */
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const londonParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  weekday: 'long',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

function intlLondon(instant: number) {
  const parts = Object.fromEntries(londonParts.formatToParts(instant).map((part) => [part.type, part.value]));
  return parts as Record<'weekday' | 'year' | 'month' | 'day' | 'hour' | 'minute', string>;
}

/** London's offset from UTC as Intl sees it: the wall clock's hours minus UTC's, in milliseconds. */
function intlOffsetMs(instant: number): number {
  const utcHour = new Date(instant).getUTCHours();
  const londonHour = Number(intlLondon(instant).hour);
  return ((londonHour - utcHour + 24) % 24) * HOUR_MS;
}

/** Every hour of the last eight days of March and of October (each holds its last Sunday), and two other days. */
function instantsAroundTheChanges(year: number): number[] {
  const instants = [Date.UTC(year, 0, 15, 12), Date.UTC(year, 6, 15, 12)];
  for (const month of [2, 9]) {
    const from = Date.UTC(year, month, 24);
    for (let instant = from; instant < from + 8 * DAY_MS; instant += HOUR_MS) instants.push(instant);
  }
  return instants;
}

describe('londonOffsetMs: British Summer Time by the rule', () => {
  it('changes at 01:00 UTC on the last Sunday of March and of October', () => {
    expect(londonOffsetMs(Date.parse('2026-03-29T00:59:59.999Z'))).toBe(0);
    expect(londonOffsetMs(Date.parse('2026-03-29T01:00:00.000Z'))).toBe(3_600_000);
    expect(londonOffsetMs(Date.parse('2026-10-25T00:59:59.999Z'))).toBe(3_600_000);
    expect(londonOffsetMs(Date.parse('2026-10-25T01:00:00.000Z'))).toBe(0);
    // 2027: the last Sundays are 28 March and 31 October (a month's last day).
    expect(londonOffsetMs(Date.parse('2027-03-28T00:30:00Z'))).toBe(0);
    expect(londonOffsetMs(Date.parse('2027-03-28T01:30:00Z'))).toBe(3_600_000);
    expect(londonOffsetMs(Date.parse('2027-10-31T00:30:00Z'))).toBe(3_600_000);
    expect(londonOffsetMs(Date.parse('2027-10-31T01:30:00Z'))).toBe(0);
    expect(londonOffsetMs(Date.parse('2026-11-27T12:00:00Z'))).toBe(0);
    expect(londonOffsetMs(Date.parse('2026-07-01T12:00:00Z'))).toBe(3_600_000);
  });

  it("agrees with Intl's Europe/London hour by hour around every change from 1996 to 2100", () => {
    const differing: string[] = [];
    for (let year = 1996; year <= 2100; year += 1) {
      for (const instant of instantsAroundTheChanges(year)) {
        if (londonOffsetMs(instant) !== intlOffsetMs(instant))
          differing.push(new Date(instant).toISOString());
      }
    }
    expect(differing).toEqual([]);
  });

  it('gives the London day and clock near midnight as Intl does, in BST and in GMT', () => {
    expect(londonDate(new Date('2026-06-30T23:30:00Z'))).toBe('2026-07-01');
    expect(londonDate(new Date('2026-12-31T23:30:00Z'))).toBe('2026-12-31');
    const differing: string[] = [];
    for (let day = Date.UTC(2024, 0, 1); day < Date.UTC(2031, 0, 1); day += DAY_MS) {
      for (const instant of [day - HOUR_MS / 2, day + 12 * HOUR_MS]) {
        const intl = intlLondon(instant);
        const expected = `${intl.day} ${intl.month} ${intl.year}`;
        if (formatLondonDate(new Date(instant)) !== expected) differing.push(new Date(instant).toISOString());
      }
    }
    expect(differing).toEqual([]);
  });
});

describe('dates as they read', () => {
  it('formatDispatchDate names the weekday and month of every day as Intl does', () => {
    const longDate = new Intl.DateTimeFormat('en-GB', {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      timeZone: 'UTC',
    });
    const differing: string[] = [];
    for (let day = Date.UTC(2020, 0, 1); day < Date.UTC(2041, 0, 1); day += DAY_MS) {
      const iso = new Date(day).toISOString().slice(0, 10);
      const parts = Object.fromEntries(longDate.formatToParts(day).map((part) => [part.type, part.value]));
      if (formatDispatchDate(iso) !== `${parts.weekday} ${parts.day} ${parts.month}`) differing.push(iso);
    }
    expect(differing).toEqual([]);
  });

  it('formatLondonDate: "1 July 2026" for 23:30 UTC on 30 June (already July in London)', () => {
    expect(formatLondonDate('2026-06-30T23:30:00Z')).toBe('1 July 2026');
    expect(formatLondonDate('2026-11-21T10:00:00Z')).toBe('21 November 2026');
  });

  it('formatLondonDayAndTime: "Monday 30 November at 13:05", and BST an hour ahead of UTC', () => {
    expect(formatLondonDayAndTime('2026-11-30T13:05:00Z')).toBe('Monday 30 November at 13:05');
    expect(formatLondonDayAndTime('2026-07-01T08:05:00Z')).toBe('Wednesday 1 July at 09:05');
    expect(formatLondonDayAndTime('2026-03-29T00:59:00Z')).toBe('Sunday 29 March at 00:59');
    expect(formatLondonDayAndTime('2026-03-29T01:00:00Z')).toBe('Sunday 29 March at 02:00');
  });

  it('refuses what is not a time or not a calendar day, as Intl did, rather than print "NaN undefined"', () => {
    const now = new Date('2026-11-27T12:00:00Z');
    expect(() => formatLondonTime('not a time', now)).toThrow(RangeError);
    expect(() => formatLondonDate('2026-13-01T00:00:00Z')).toThrow('Not a time: 2026-13-01T00:00:00Z');
    expect(() => formatLondonDayAndTime(new Date(Number.NaN))).toThrow(RangeError);
    expect(() => formatDispatchDate('2026-11-31')).toThrow('Not a calendar date: 2026-11-31');
    expect(() => formatDispatchDate('30 November')).toThrow(RangeError);
  });

  it('formatLondonTime: the short form, the hour in London', () => {
    expect(formatLondonTime('2026-10-25T00:30:00Z', new Date('2026-10-25T12:00:00Z'))).toBe(
      'Sun 25 Oct, 01:30',
    );
    expect(formatLondonTime('2026-10-25T01:30:00Z', new Date('2026-10-25T12:00:00Z'))).toBe(
      'Sun 25 Oct, 01:30',
    );
  });
});
