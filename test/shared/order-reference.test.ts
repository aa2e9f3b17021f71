import { describe, expect, it } from 'vitest';
import { foldReference, formatReference } from '../../shared/order-reference';

describe('formatReference', () => {
  it('shows a Checkout Session id as its last 12 characters, case kept', () => {
    expect(formatReference('cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqR')).toBe('i9J0kLmNoPqR');
    expect(formatReference('cs_live_ZZZZZZZZZZa1b2C3d4E5f6')).toBe('a1b2C3d4E5f6');
  });

  it('shows a stored order reference exactly as stored: never upper-cased', () => {
    expect(formatReference('i9J0kLmNoPqR')).toBe('i9J0kLmNoPqR');
    expect(formatReference('a1b2c3d4e5f6')).toBe('a1b2c3d4e5f6');
  });

  it('shows a request reference as it is', () => {
    expect(formatReference('R0A1B2C3D4E5')).toBe('R0A1B2C3D4E5');
  });
});

describe('foldReference', () => {
  it('reads O as 0 and I, i, L and l as 1, in any case', () => {
    expect(foldReference('NFK8Z8kgZiO0')).toBe('nfk8z8kgz100');
    expect(foldReference('NFK8Z8KGZIOO')).toBe('nfk8z8kgz100');
    expect(foldReference('Mz7Qo1Kd4IlP')).toBe('mz7q01kd411p');
    expect(foldReference('Mz7Q0iKd4L1P')).toBe('mz7q01kd411p');
  });

  it('leaves every other character as it is, lower-cased', () => {
    expect(foldReference('R0A1B2C3D4E5')).toBe('r0a1b2c3d4e5');
    expect(foldReference('abcdefghjkmn')).toBe('abcdefghjkmn');
  });
});
