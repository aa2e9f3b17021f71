import { describe, expect, it } from 'vitest';
import { normalisePostcode, parseUkPostcode } from '../../shared/postcode';

describe('parseUkPostcode', () => {
  it.each([
    ['SW1A 1AA', 'SW1A 1AA'],
    ['sw1a1aa', 'SW1A 1AA'],
    ['  sw1a   1aa  ', 'SW1A 1AA'],
    ['ec1a 1bb', 'EC1A 1BB'],
    ['W1A 0AX', 'W1A 0AX'],
    ['M1 1AE', 'M1 1AE'],
    ['B33 8TH', 'B33 8TH'],
    ['CR2 6XH', 'CR2 6XH'],
    ['DN55 1PT', 'DN55 1PT'],
    ['BT1 1AA', 'BT1 1AA'],
    ['ZE1 0AA', 'ZE1 0AA'],
  ])('accepts %j as %s', (input, postcode) => {
    expect(parseUkPostcode(input)).toMatchObject({ ok: true, postcode });
  });

  it.each([
    ['JE2 3AB', 'Jersey'],
    ['GY1 1AA', 'Guernsey'],
    ['IM1 1AA', 'Isle of Man'],
    ['GX11 1AA', 'Gibraltar'],
  ])('refuses %s (%s) as not deliverable', (input) => {
    expect(parseUkPostcode(input)).toEqual({ ok: false, reason: 'not-deliverable' });
  });

  it.each(['BFPO 1234', 'bfpo 57', 'BFPO1', ' BFPO  123 ', 'BF1 3AA'])(
    'refuses the forces address %j as BFPO, so the customer hears why',
    (input) => {
      expect(parseUkPostcode(input)).toEqual({ ok: false, reason: 'bfpo' });
    },
  );

  it.each(['BFPO', 'BFPO 12345', 'BFPO 12A'])(
    'refuses %j, not a BFPO number, as a format problem',
    (input) => {
      expect(parseUkPostcode(input)).toEqual({ ok: false, reason: 'format' });
    },
  );

  it.each([
    'GIR 0AA',
    'ASCN 1ZZ',
    'STHL 1ZZ',
    'TDCU 1ZZ',
    'BBND 1ZZ',
    'PCRN 1ZZ',
    '<b>x</b> SW1A 1AA',
    'SW1A 1AA <b>',
    'SW1A 1AAX',
    'QA1 1AA',
    'SW1A 1CA',
    '',
    '12345',
  ])('refuses %j as not a UK postcode', (input) => {
    expect(parseUkPostcode(input)).toEqual({ ok: false, reason: 'format' });
  });

  it('flags the areas couriers reach more slowly, without refusing them', () => {
    expect(parseUkPostcode('BT1 1AA')).toMatchObject({ ok: true, slowerDelivery: true });
    expect(parseUkPostcode('HS1 2AA')).toMatchObject({ ok: true, slowerDelivery: true });
    expect(parseUkPostcode('SW1A 1AA')).toMatchObject({ ok: true, slowerDelivery: false });
  });
});

describe('normalisePostcode', () => {
  it('trims, upper-cases and puts one space before the inward code', () => {
    expect(normalisePostcode(' ec1a1bb ')).toBe('EC1A 1BB');
    expect(normalisePostcode('m1   1ae')).toBe('M1 1AE');
  });

  it('adds no space to three characters or fewer, which cannot hold an outward and an inward code', () => {
    expect(normalisePostcode(' w1a ')).toBe('W1A');
    expect(normalisePostcode('w1')).toBe('W1');
    expect(normalisePostcode('')).toBe('');
  });
});
