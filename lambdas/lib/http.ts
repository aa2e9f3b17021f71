import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2;

/**
 * A failure with a status and a body that is safe to show the customer, plus any headers the
 * answer needs (`allow` on a 405). Detail goes to the log.
 */
export class HttpError extends Error {
  readonly headers: Record<string, string>;

  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown>,
    options?: { cause?: unknown; headers?: Record<string, string> },
  ) {
    super(typeof body.error === 'string' ? body.error : `HTTP ${statusCode}`, options);
    this.name = 'HttpError';
    this.headers = options?.headers ?? {};
  }
}

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return {
    statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
    body: JSON.stringify(body),
  };
}

/** API Gateway payload 2.0 lower-cases header names, other callers may not: look up in any case. */
export function header(event: Pick<HttpEvent, 'headers'>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted) return value;
  }
  return undefined;
}

/** The body exactly as sent, bytes included, decoding API Gateway's base64 when it used it. */
export function rawBody(event: Pick<HttpEvent, 'body' | 'isBase64Encoded'>): Buffer {
  if (event.body === undefined || event.body === null) return Buffer.alloc(0);
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
}

/**
 * Reads a JSON request body with the checks an open endpoint needs: JSON content type only (no
 * `text/plain` or form posts, so no CSRF "simple request"), a size limit, and valid JSON.
 */
export function readJsonBody(event: HttpEvent, maxBytes: number): unknown {
  const contentType = header(event, 'content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(contentType.trim())) {
    throw new HttpError(415, { error: 'Content-Type must be application/json.' });
  }
  const bytes = rawBody(event);
  if (bytes.length > maxBytes) {
    throw new HttpError(413, { error: `Request body must be at most ${maxBytes} bytes.` });
  }
  if (bytes.length === 0) throw new HttpError(400, { error: 'Request body is empty.' });
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new HttpError(400, { error: 'Request body is not valid JSON.' });
  }
}
