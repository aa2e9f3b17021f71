import { describe, expect, it } from 'vitest';
import {
  ALLOWED_QUANTITIES,
  animalRange,
  DAPHNIA,
  isAllowedQuantity,
  PRODUCT_NAME,
} from '../../shared/product';

describe('the daphnia product', () => {
  it('is 3 to 9 bottles of 250ml in steps of 3, under the one display name', () => {
    expect(PRODUCT_NAME).toBe('Daphnia Magna');
    expect(DAPHNIA).toMatchObject({ name: 'Daphnia Magna', min: 3, max: 9, step: 3, bottleSize: '250ml' });
  });

  it('sells 3, 6 or 9 bottles and nothing else', () => {
    expect(ALLOWED_QUANTITIES).toEqual([3, 6, 9]);
    expect([3, 6, 9].every(isAllowedQuantity)).toBe(true);
    expect([0, 1, 4, 12, '3', 3.5].some(isAllowedQuantity)).toBe(false);
  });

  it('estimates 100 to 300 animals per bottle', () => {
    expect(animalRange(3)).toEqual({ min: 300, max: 900 });
    expect(animalRange(9)).toEqual({ min: 900, max: 2700 });
  });
});
