import { describe, expect, it } from 'vitest';
import { suggestEmailDomain } from '../../shared/email-suggestion';

describe('suggestEmailDomain', () => {
  it.each([
    ['zoe@gmial.con', 'zoe@gmail.com'],
    ['zoe@gmail.co', 'zoe@gmail.com'],
    ['zoe@gamil.com', 'zoe@gmail.com'],
    ['zoe@gmail.con', 'zoe@gmail.com'],
    ['zoe@hotmial.co.uk', 'zoe@hotmail.co.uk'],
    ['zoe@hotmail.co.uk.', 'zoe@hotmail.co.uk'],
    ['zoe@hotmal.com', 'zoe@hotmail.com'],
    ['zoe@yahoo.co', 'zoe@yahoo.com'],
    ['zoe@yaho.co.uk', 'zoe@yahoo.co.uk'],
    ['zoe@outlok.com', 'zoe@outlook.com'],
    ['zoe@iclod.com', 'zoe@icloud.com'],
    ['zoe@btinternet.con', 'zoe@btinternet.com'],
    ['zoe@gmail.co.uk', 'zoe@gmail.com'],
    ['zoe@sky.co', 'zoe@sky.com'],
    ['zoe@gmailcom', 'zoe@gmail.com'],
  ])('offers %s → %s', (email, suggestion) => {
    expect(suggestEmailDomain(email)).toBe(suggestion);
  });

  it('keeps the part before the @ as typed and lower-cases the domain it suggests', () => {
    expect(suggestEmailDomain(' Zoe.Bronte+fish@GMIAL.CON ')).toBe('Zoe.Bronte+fish@gmail.com');
  });

  it.each([
    'zoe@gmail.com',
    'zoe@hotmail.co.uk',
    'zoe@yahoo.co.uk',
    'zoe@me.com',
    'zoe@mac.com',
    'zoe@GMAIL.COM',
    // Real domains one edit from a common one.
    'zoe@ymail.com',
    'zoe@mail.com',
    'zoe@gmx.co.uk',
    'zoe@aol.co.uk',
    // Any other domain, whose ending is real.
    'zoe@example.co.uk',
    'zoe@pondside.org',
    'zoe@hotmail.fr',
    'zoe@company.co',
  ])('leaves %s alone', (email) => {
    expect(suggestEmailDomain(email)).toBeUndefined();
  });

  it.each([
    ['zoe@company.con', 'zoe@company.com'],
    ['zoe@company.cmo', 'zoe@company.com'],
    ['zoe@pondside.co.uj', 'zoe@pondside.co.uk'],
    ['zoe@pondside.couk', 'zoe@pondside.co.uk'],
  ])('corrects an ending that exists nowhere on any domain: %s → %s', (email, suggestion) => {
    expect(suggestEmailDomain(email)).toBe(suggestion);
  });

  it('allows one edit on a short common domain and two on a long one', () => {
    expect(suggestEmailDomain('zoe@mee.com')).toBe('zoe@me.com');
    expect(suggestEmailDomain('zoe@mwe.co')).toBeUndefined();
    expect(suggestEmailDomain('zoe@gmaail.co')).toBe('zoe@gmail.com');
    expect(suggestEmailDomain('zoe@gmaail.cn')).toBeUndefined();
  });

  it.each(['', 'zoe', '@gmial.con', 'zoe@', 'zoe@gmial'])('has nothing to say about %j', (email) => {
    expect(suggestEmailDomain(email)).toBeUndefined();
  });
});
