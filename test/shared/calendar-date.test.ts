import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { calendarDateSchema } from '../../shared/calendar-date';

describe('calendarDateSchema', () => {
  it.each(['2026-11-30', '2028-02-29'])('accepts %s, a day that exists', (day) => {
    expect(z.safeParse(calendarDateSchema, day).success).toBe(true);
  });

  it.each(['2026-11-31', '2026-02-29', '2026-13-01', '2026-1-05', '30/11/2026', ''])(
    'refuses %s with the one message',
    (day) => {
      const result = z.safeParse(calendarDateSchema, day);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('Give a date as YYYY-MM-DD.');
    },
  );

  it('refuses a value that is not text', () => {
    expect(z.safeParse(calendarDateSchema, 20261130).error?.issues[0]?.message).toBe(
      'Give a date as YYYY-MM-DD.',
    );
  });
});
