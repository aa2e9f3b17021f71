import { describe, expect, it } from 'vitest';
import { HttpError, json, rawBody, readJsonBody, viewerAddress } from '../../../lambdas/lib/http';
import { apiGatewayEvent } from '../../support/api-gateway-event';

describe('HttpError', () => {
  it('takes its message from the body the customer sees, and names itself', () => {
    const error = new HttpError(413, { error: 'Request body must be at most 8192 bytes.' });

    expect(error.name).toBe('HttpError');
    expect(error.message).toBe('Request body must be at most 8192 bytes.');
    expect(error.headers).toEqual({});
  });

  it('says only the status when the body has no error text', () => {
    expect(new HttpError(503, { shop: 'paused' }).message).toBe('HTTP 503');
  });
});

describe('json', () => {
  it('answers JSON in UTF-8 that no cache keeps, with any extra headers', () => {
    expect(json(405, { error: 'Method not allowed' }, { allow: 'POST' })).toEqual({
      statusCode: 405,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
        allow: 'POST',
      },
      body: '{"error":"Method not allowed"}',
    });
  });
});

describe('rawBody', () => {
  it('is empty when API Gateway sends no body', () => {
    expect(rawBody({ isBase64Encoded: false })).toEqual(Buffer.alloc(0));
  });

  it("is empty when the body is null, as the console's test events and some proxies send it", () => {
    // Outside the type (string | undefined), but seen on the wire: never a TypeError and a 500.
    expect(rawBody({ body: null as unknown as undefined, isBase64Encoded: false })).toEqual(Buffer.alloc(0));
  });

  it('keeps the bytes of a UTF-8 body and decodes a base64 one', () => {
    expect(rawBody({ body: 'Zoë £', isBase64Encoded: false })).toEqual(
      Buffer.from([0x5a, 0x6f, 0xc3, 0xab, 0x20, 0xc2, 0xa3]),
    );
    expect(rawBody({ body: 'Wm/DqyDCow==', isBase64Encoded: true }).toString('utf8')).toBe('Zoë £');
  });
});

describe('readJsonBody', () => {
  const post = (headers: Record<string, string>, body?: string) => ({
    ...apiGatewayEvent({ method: 'POST', path: '/functions/v1/create-checkout', headers }),
    body,
    isBase64Encoded: false,
  });

  it.each(['text/plain; a=application/json', 'text/application/json', 'multipart/form-data'])(
    'refuses a content type that only contains application/json, or none of it: %j',
    (contentType) => {
      expect(() => readJsonBody(post({ 'content-type': contentType }, '{}'), 8192)).toThrow(
        'Content-Type must be application/json.',
      );
    },
  );

  it('accepts application/json with its parameters, in any case and padded', () => {
    expect(
      readJsonBody(post({ 'content-type': ' Application/JSON; charset=utf-8 ' }, '{"a":1}'), 8192),
    ).toEqual({
      a: 1,
    });
  });

  /** What `read` threw, for checking its status as well as its message. */
  const thrownBy = (read: () => unknown): unknown => {
    try {
      read();
    } catch (error) {
      return error;
    }
    throw new Error('expected a refusal');
  };

  it.each(['charset=utf-8', 'charset=UTF8', 'charset="utf-8"', 'Charset = UTF-8'])(
    'reads a body declared %s',
    (charset) => {
      expect(
        readJsonBody(post({ 'content-type': `application/json; ${charset}` }, '{"name":"Zoë"}'), 8192),
      ).toEqual({
        name: 'Zoë',
      });
    },
  );

  it.each(['charset=iso-8859-1', 'charset=latin1', 'charset="windows-1252"', 'charset=utf-16', 'charset='])(
    'answers 400 "The request body must be UTF-8." to a body declared %s',
    (charset) => {
      expect(
        thrownBy(() =>
          readJsonBody(post({ 'content-type': `application/json; ${charset}` }, '{"a":1}'), 8192),
        ),
      ).toMatchObject({ statusCode: 400, body: { error: 'The request body must be UTF-8.' } });
    },
  );

  it('answers 400 "The request body must be UTF-8." to bytes that are not, instead of reading U+FFFD', () => {
    const event = {
      ...post({ 'content-type': 'application/json' }),
      body: Buffer.from('{"name":"Zoë"}', 'latin1').toString('base64'),
      isBase64Encoded: true,
    };

    expect(thrownBy(() => readJsonBody(event, 8192))).toMatchObject({
      statusCode: 400,
      body: { error: 'The request body must be UTF-8.' },
    });
  });

  it('answers 400 "Request body is empty." when there is no body at all', () => {
    expect(() => readJsonBody(post({ 'content-type': 'application/json' }), 8192)).toThrow(
      'Request body is empty.',
    );
  });
});

describe('viewerAddress', () => {
  it("reads the viewer's IPv4 address from CloudFront's cloudfront-viewer-address, without the port", () => {
    const event = apiGatewayEvent({ headers: { 'cloudfront-viewer-address': '198.51.100.23:49152' } });

    expect(viewerAddress(event)).toBe('198.51.100.23');
  });

  it('reads an IPv6 address, which CloudFront writes unbracketed before the port', () => {
    const event = apiGatewayEvent({
      headers: { 'CloudFront-Viewer-Address': '2001:db8:85a3::8a2e:370:7334:443' },
    });

    expect(viewerAddress(event)).toBe('2001:db8:85a3::8a2e:370:7334');
  });

  it("takes nothing but an address and a port from the header, else the connection's address", () => {
    for (const value of [
      'unknown:443',
      `${'1'.repeat(5000)}:443`,
      '198.51.100.23',
      '198.51.100.23:https',
      ':443',
    ]) {
      expect(viewerAddress(apiGatewayEvent({ headers: { 'cloudfront-viewer-address': value } }))).toBe(
        '203.0.113.7',
      );
    }
  });

  it("falls back to the connection's address without the header (the local stack)", () => {
    expect(viewerAddress(apiGatewayEvent())).toBe('203.0.113.7');
    expect(viewerAddress(apiGatewayEvent({ headers: { 'cloudfront-viewer-address': ' ' } }))).toBe(
      '203.0.113.7',
    );
  });
});
