import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

export interface ApiGatewayEventOptions {
  method?: string;
  path?: string;
  /** Sent as given; API Gateway itself lower-cases names, pass `lowerCaseHeaders: true` to mimic it. */
  headers?: Record<string, string>;
  lowerCaseHeaders?: boolean;
  /** A string is sent as is; anything else is JSON-encoded. */
  body?: unknown;
  isBase64Encoded?: boolean;
  queryStringParameters?: Record<string, string>;
}

/**
 * An API Gateway HTTP API (payload 2.0) event, shaped like the real one: what the handlers get
 * in Lambda and from the local dev server's adapter.
 */
export function apiGatewayEvent(options: ApiGatewayEventOptions = {}): APIGatewayProxyEventV2 {
  const method = options.method ?? 'GET';
  const path = options.path ?? '/';
  const headers = Object.fromEntries(
    Object.entries(options.headers ?? {}).map(([name, value]) => [
      options.lowerCaseHeaders ? name.toLowerCase() : name,
      value,
    ]),
  );
  const text =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string'
        ? options.body
        : JSON.stringify(options.body);
  const body =
    text !== undefined && options.isBase64Encoded ? Buffer.from(text, 'utf8').toString('base64') : text;
  const query = options.queryStringParameters;
  const now = Date.now();
  return {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString: query ? new URLSearchParams(query).toString() : '',
    headers,
    ...(query && { queryStringParameters: query }),
    requestContext: {
      accountId: '123456789012',
      apiId: 'test',
      domainName: 'shop.test',
      domainPrefix: 'shop',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'vitest' },
      requestId: randomUUID(),
      routeKey: `${method} ${path}`,
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
    },
    ...(body !== undefined && { body }),
    isBase64Encoded: options.isBase64Encoded ?? false,
  };
}

/** Parses a handler's JSON body for assertions; tests want to fail loudly on anything else. */
export function jsonBody(result: { body?: string | undefined }): unknown {
  return JSON.parse(result.body ?? '');
}
