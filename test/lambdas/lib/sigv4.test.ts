import { describe, expect, it } from 'vitest';
import { createSigner } from '../../../lambdas/lib/sigv4';

// AWS's own Signature Version 4 test suite ("get-vanilla", "post-vanilla"): its example
// credentials and instant, and the signatures it publishes for them.
const EXAMPLE = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const SUITE_INSTANT = new Date('2015-08-30T12:36:00Z');

describe('createSigner: SigV4 with node:crypto', () => {
  it("gives the AWS test suite's signatures for get-vanilla and post-vanilla", () => {
    const sign = createSigner(EXAMPLE, { region: 'us-east-1', service: 'service' });
    const request = { host: 'example.amazonaws.com', path: '/', headers: {}, body: '' };

    expect(sign({ ...request, method: 'GET' }, SUITE_INSTANT)).toEqual({
      host: 'example.amazonaws.com',
      'x-amz-date': '20150830T123600Z',
      authorization:
        'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
    });
    expect(sign({ ...request, method: 'POST' }, SUITE_INSTANT).authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b',
    );
  });

  it('signs a DynamoDB call with its body, every header and the session token', () => {
    const sign = createSigner(
      { ...EXAMPLE, sessionToken: 'token-1' },
      { region: 'eu-west-2', service: 'dynamodb' },
    );

    // The signature aws4fetch (signing every header) gives for the same request and instant.
    const headers = sign(
      {
        method: 'POST',
        host: '127.0.0.1:4567',
        path: '/',
        headers: {
          'content-type': 'application/x-amz-json-1.0',
          'x-amz-target': 'DynamoDB_20120810.GetItem',
        },
        body: '{"TableName":"orders","Key":{"pk":{"S":"x"}}}',
      },
      new Date('2026-11-25T17:01:02.345Z'),
    );

    expect(headers).toEqual({
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': 'DynamoDB_20120810.GetItem',
      host: '127.0.0.1:4567',
      'x-amz-date': '20261125T170102Z',
      'x-amz-security-token': 'token-1',
      authorization:
        'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261125/eu-west-2/dynamodb/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-security-token;x-amz-target, Signature=eba0b668096779ac4959d9bbbd79f2082587137b6cf600d044fd34b9986a3011',
    });
  });

  it('derives a new signing key when the UTC day changes, never signing with the last day', () => {
    const sign = createSigner(EXAMPLE, { region: 'us-east-1', service: 'service' });
    const request = { method: 'GET', host: 'example.amazonaws.com', path: '/', headers: {}, body: '' };

    sign(request, new Date('2015-08-29T23:59:59Z'));
    const nextDay = sign(request, SUITE_INSTANT);

    expect(nextDay.authorization).toMatch(
      /Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31$/,
    );
  });
});
