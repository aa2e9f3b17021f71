import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendApiGatewayResult, serveWithLambda, toApiGatewayEvent } from '../../local/api-gateway-adapter';

let server: Server;
let base: string;
let lastEvent: APIGatewayProxyEventV2 | undefined;

beforeAll(async () => {
  server = createServer(async (req, res) => {
    lastEvent = await toApiGatewayEvent(req);
    sendApiGatewayResult(res, {
      statusCode: 201,
      headers: { 'x-answer': 'yes' },
      cookies: ['a=1', 'b=2'],
      body: Buffer.from('binary-ok').toString('base64'),
      isBase64Encoded: true,
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

describe('the local HTTP to API Gateway (payload 2.0) adapter', () => {
  it('passes a JSON body as text, with lower-cased header names and the query string', async () => {
    const response = await fetch(`${base}/functions/v1/thing?session_id=cs_test_1&x=2`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': 't=1,v1=abc' },
      body: '{"name":"Zoë"}',
    });
    expect(response.status).toBe(201);
    expect(lastEvent).toMatchObject({
      version: '2.0',
      rawPath: '/functions/v1/thing',
      rawQueryString: 'session_id=cs_test_1&x=2',
      queryStringParameters: { session_id: 'cs_test_1', x: '2' },
      body: '{"name":"Zoë"}',
      isBase64Encoded: false,
      requestContext: { http: { method: 'POST', path: '/functions/v1/thing' } },
    });
    expect(lastEvent?.headers['stripe-signature']).toBe('t=1,v1=abc');
    expect(lastEvent?.headers['Stripe-Signature']).toBeUndefined();
  });

  it('base64-encodes a body that is not text, byte for byte', async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252]);
    await fetch(`${base}/x`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    expect(lastEvent?.isBase64Encoded).toBe(true);
    expect(Buffer.from(lastEvent?.body ?? '', 'base64')).toEqual(bytes);
  });

  it('writes the result back: status, headers, cookies and a decoded base64 body', async () => {
    const response = await fetch(`${base}/x`);
    expect(response.headers.get('x-answer')).toBe('yes');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.text()).toBe('binary-ok');
    expect(lastEvent?.body).toBeUndefined();
    expect(lastEvent?.queryStringParameters).toBeUndefined();
  });
});

describe('serveWithLambda', () => {
  it('answers a body over 1 MiB with 413, as API Gateway does, without calling the handler', async () => {
    // Prepare
    let calls = 0;
    const lambdaServer = createServer((req, res) => {
      void serveWithLambda(req, res, async () => {
        calls += 1;
        return { statusCode: 200, body: '{}' };
      });
    });
    await new Promise<void>((done) => lambdaServer.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(lambdaServer.address() as AddressInfo).port}/functions/v1/create-checkout`;

    try {
      // Act
      const tooLarge = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: 'x'.repeat(1024 * 1024 + 1),
      });
      const atLimit = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: 'x'.repeat(1024 * 1024),
      });

      // Assess
      expect(tooLarge.status).toBe(413);
      expect(await tooLarge.json()).toEqual({ message: 'Request Entity Too Large' });
      expect(atLimit.status).toBe(200);
      expect(calls).toBe(1);
    } finally {
      lambdaServer.closeAllConnections();
      await new Promise<void>((done) => lambdaServer.close(() => done()));
    }
  });
});
