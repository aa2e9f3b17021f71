import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/** A Lambda handler for HTTP API payload 2.0, as our handlers export it. */
export type HttpLambda = (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>;

/** Like API Gateway: a body larger than this never reaches the function. */
const MAX_BODY_BYTES = 1024 * 1024;

const TEXT_TYPES = /^(application\/(json|x-www-form-urlencoded)|text\/)/i;

/** The body is over API Gateway's limit: it answers 413 without calling the function. */
export class PayloadTooLargeError extends Error {
  constructor() {
    super(`Request body over ${MAX_BODY_BYTES} bytes`);
    this.name = 'PayloadTooLargeError';
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new PayloadTooLargeError();
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Turns a Node request into the event API Gateway's HTTP API (payload 2.0) would send: header
 * names lower-cased, a query string map, and a body that is base64 unless it is text, exactly
 * the two shapes the real handlers must cope with.
 */
export async function toApiGatewayEvent(req: IncomingMessage): Promise<APIGatewayProxyEventV2> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  const body = await readBody(req);
  const isText = TEXT_TYPES.test(headers['content-type'] ?? '');
  const queryStringParameters = url.searchParams.size > 0 ? Object.fromEntries(url.searchParams) : undefined;
  const method = (req.method ?? 'GET').toUpperCase();
  const now = Date.now();
  return {
    version: '2.0',
    routeKey: `${method} ${url.pathname}`,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    ...(queryStringParameters && { queryStringParameters }),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method,
        path: url.pathname,
        protocol: 'HTTP/1.1',
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: `${method} ${url.pathname}`,
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
    },
    ...(body.length > 0 && {
      body: isText ? body.toString('utf8') : body.toString('base64'),
    }),
    isBase64Encoded: body.length > 0 && !isText,
  };
}

/** Writes a handler's result back as API Gateway would. */
export function sendApiGatewayResult(res: ServerResponse, result: APIGatewayProxyStructuredResultV2): void {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  const body = result.body ?? '';
  res.writeHead(result.statusCode ?? 200, headers);
  res.end(result.isBase64Encoded ? Buffer.from(body, 'base64') : Buffer.from(body, 'utf8'));
}

/**
 * The request as API Gateway's event; undefined when its body is over the limit, after answering
 * `tooLarge` and draining the body (the handler never sees it).
 */
export async function eventWithinLimit(
  req: IncomingMessage,
  res: ServerResponse,
  tooLarge: APIGatewayProxyStructuredResultV2,
): Promise<APIGatewayProxyEventV2 | undefined> {
  try {
    return await toApiGatewayEvent(req);
  } catch (error) {
    if (!(error instanceof PayloadTooLargeError)) throw error;
    sendApiGatewayResult(res, tooLarge);
    req.resume();
    return undefined;
  }
}

/**
 * One request through a Lambda handler, as API Gateway runs it: a body over the limit is answered
 * 413 (API Gateway's own `{"message":"Request Entity Too Large"}`) and never reaches the handler.
 * @returns the status sent.
 */
export async function serveWithLambda(
  req: IncomingMessage,
  res: ServerResponse,
  handler: HttpLambda,
): Promise<number> {
  const event = await eventWithinLimit(req, res, {
    statusCode: 413,
    headers: { 'content-type': 'application/json', connection: 'close' },
    body: JSON.stringify({ message: 'Request Entity Too Large' }),
  });
  if (event === undefined) return 413;
  const result = await handler(event);
  sendApiGatewayResult(res, result);
  return result.statusCode ?? 200;
}
