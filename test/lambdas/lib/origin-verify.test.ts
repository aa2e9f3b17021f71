import { describe, expect, it } from 'vitest';
import { createOriginVerifyAuthorizer } from '../../../lambdas/handlers/origin-verify/handler';
import { cameThroughCloudFront } from '../../../lambdas/lib/origin-verify';

const SECRET = 'Qm9vdHN0cmFwT3JpZ2luVmVyaWZ5VmFsdWUx';

describe('cameThroughCloudFront', () => {
  it('accepts exactly the configured value', () => {
    expect(cameThroughCloudFront(SECRET, SECRET)).toBe(true);
  });

  it.each([
    ['a missing header', undefined],
    ['an empty header', ''],
    ['a prefix of the value', SECRET.slice(0, 10)],
    ['the value with one character changed', `${SECRET.slice(0, -1)}2`],
    ['the value with something appended', `${SECRET}x`],
  ])('refuses %s', (_, presented) => {
    expect(cameThroughCloudFront(presented, SECRET)).toBe(false);
  });

  it('refuses everything when no value is configured', () => {
    expect(cameThroughCloudFront('', '')).toBe(false);
    expect(cameThroughCloudFront('anything', undefined)).toBe(false);
  });
});

describe('the origin-verify authorizer', () => {
  const authorize = createOriginVerifyAuthorizer(async () => SECRET);

  it('authorizes a request CloudFront forwarded', async () => {
    expect(await authorize({ headers: { 'x-origin-verify': SECRET } })).toEqual({ isAuthorized: true });
  });

  it('refuses a request sent straight to the execute-api URL', async () => {
    expect(await authorize({ headers: { 'content-type': 'application/json' } })).toEqual({
      isAuthorized: false,
    });
    expect(await authorize({ headers: { 'x-origin-verify': 'guess' } })).toEqual({ isAuthorized: false });
  });

  it('fails closed when the secret cannot be read', async () => {
    const broken = createOriginVerifyAuthorizer(async () => {
      throw new Error('extension down');
    });
    expect(await broken({ headers: { 'x-origin-verify': SECRET } })).toEqual({ isAuthorized: false });
  });
});
