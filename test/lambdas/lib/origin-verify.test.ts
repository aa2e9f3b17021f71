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

  it("authorizes a request CloudFront forwarded, handing the access log the viewer's address", async () => {
    expect(
      await authorize({
        headers: { 'x-origin-verify': SECRET, 'cloudfront-viewer-address': '198.51.100.23:49152' },
      }),
    ).toEqual({ isAuthorized: true, context: { viewerAddress: '198.51.100.23' } });
    expect(
      await authorize({
        headers: {
          'x-origin-verify': SECRET,
          'cloudfront-viewer-address': '2001:db8:85a3::8a2e:370:7334:443',
        },
      }),
    ).toEqual({ isAuthorized: true, context: { viewerAddress: '2001:db8:85a3::8a2e:370:7334' } });
  });

  it('authorizes without a context when the viewer address is missing or not an address', async () => {
    expect(await authorize({ headers: { 'x-origin-verify': SECRET } })).toEqual({ isAuthorized: true });
    for (const value of ['', 'unknown', `${'9'.repeat(5000)}:1`, '198.51.100.23', '198.51.100.23:port']) {
      expect(
        await authorize({ headers: { 'x-origin-verify': SECRET, 'cloudfront-viewer-address': value } }),
      ).toEqual({ isAuthorized: true });
    }
  });

  it('refuses a request sent straight to the execute-api URL', async () => {
    expect(await authorize({ headers: { 'content-type': 'application/json' } })).toEqual({
      isAuthorized: false,
    });
    expect(
      await authorize({
        headers: { 'x-origin-verify': 'guess', 'cloudfront-viewer-address': '198.51.100.23:49152' },
      }),
    ).toEqual({ isAuthorized: false });
  });

  it('fails closed when the secret cannot be read', async () => {
    const broken = createOriginVerifyAuthorizer(async () => {
      throw new Error('extension down');
    });
    expect(await broken({ headers: { 'x-origin-verify': SECRET } })).toEqual({ isAuthorized: false });
  });
});
