import { describe, expect, it } from 'vitest';
import {
  formatCount,
  formatGbp,
  InvalidQuantityError,
  penceToPounds,
  poundsToPence,
  quoteOrder,
} from '../../shared/pricing';

describe('quoteOrder', () => {
  it.each([
    [3, 975, 1470],
    [6, 1950, 2445],
    [9, 2925, 3420],
  ])('prices %i bottles at 325p each plus 495p delivery', (bottles, subtotal, total) => {
    expect(quoteOrder(bottles)).toEqual({
      bottles,
      unitPricePence: 325,
      subtotalPence: subtotal,
      shippingPence: 495,
      totalPence: total,
    });
  });

  it.each([0, -3, 1, 3.5, 12, Number.NaN])('refuses %s bottles', (quantity) => {
    expect(() => quoteOrder(quantity)).toThrow(InvalidQuantityError);
  });
});

describe('formatGbp', () => {
  it.each([
    [1470, '£14.70'],
    [975, '£9.75'],
    [1200, '£12.00'],
    [0, '£0.00'],
    [123456, '£1,234.56'],
  ])('formats %i pence as %s', (pence, text) => {
    expect(formatGbp(pence)).toBe(text);
  });

  it('writes large sums with thousands separators and a refund as a negative amount', () => {
    expect(formatGbp(100_000_000)).toBe('£1,000,000.00');
    expect(formatGbp(100_005)).toBe('£1,000.05');
    expect(formatGbp(99_999)).toBe('£999.99');
    expect(formatGbp(-1470)).toBe('-£14.70');
    expect(formatGbp(5)).toBe('£0.05');
  });

  it("writes every amount as Intl's en-GB pound format does (spelled out to keep ICU off a Lambda's cold start)", () => {
    const intl = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
    const differing: string[] = [];
    for (let pence = -2_000; pence <= 2_000_000; pence += pence < 20_000 ? 1 : 997) {
      const expected = intl.format(pence / 100);
      if (formatGbp(pence) !== expected) differing.push(`${pence}: ${formatGbp(pence)} ≠ ${expected}`);
    }
    expect(differing).toEqual([]);
  });
});

describe('formatCount', () => {
  it('writes counts as the page shows animals: 900, 2,700, 1,234,567', () => {
    expect([900, 2700, 1234567, 0].map(formatCount)).toEqual(['900', '2,700', '1,234,567', '0']);
  });
});

describe('pounds and pence', () => {
  it('converts pence to a 2-decimal pounds number for the request body', () => {
    expect([975, 495, 1470, 2445, 3420].map(penceToPounds)).toEqual([9.75, 4.95, 14.7, 24.45, 34.2]);
  });

  it('reads £3.25 as 325 pence and £0.29 (28.999… × 100 in binary) as 29', () => {
    expect(poundsToPence(3.25)).toBe(325);
    expect(poundsToPence(0.29)).toBe(29);
    expect(poundsToPence(4.95)).toBe(495);
  });

  it('refuses £0.005: half a penny is not money', () => {
    expect(poundsToPence(0.005)).toBeUndefined();
  });

  it('reads pounds back to pence despite binary noise', () => {
    expect(poundsToPence(14.7)).toBe(1470);
    expect(poundsToPence(0.1 + 0.2)).toBe(30);
    expect(poundsToPence(34.2)).toBe(3420);
  });

  it('refuses a third decimal and non-finite numbers', () => {
    expect(poundsToPence(14.705)).toBeUndefined();
    expect(poundsToPence(Number.POSITIVE_INFINITY)).toBeUndefined();
    expect(poundsToPence(Number.NaN)).toBeUndefined();
  });
});

describe('InvalidQuantityError', () => {
  it('names itself and the quantity it refused', () => {
    const error = new InvalidQuantityError(4);
    expect(error.name).toBe('InvalidQuantityError');
    expect(error.message).toBe('Quantity must be one of 3, 6 or 9 bottles, got 4');
    expect(error.quantity).toBe(4);
  });
});
