import { isIP } from 'node:net';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { IDEMPOTENCY_HEADER } from '../../shared/public-routes';

export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2;

/** A status and a body safe to show the customer, with any headers (`allow` on a 405); detail to the log. */
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

/** Where CloudFront gives the viewer's address and port, `ip:port` (infra's API behaviour forwards it). */
export const VIEWER_ADDRESS_HEADER = 'cloudfront-viewer-address';

/** The IP in `cloudfront-viewer-address` (`ip:port`), else undefined: no arbitrary text in logs or keys. */
export function viewerAddressIn(value: string | undefined): string | undefined {
  const viewer = value?.trim() ?? '';
  const port = viewer.lastIndexOf(':');
  const address = viewer.slice(0, Math.max(port, 0));
  return isIP(address) !== 0 && /^\d{1,5}$/.test(viewer.slice(port + 1)) ? address : undefined;
}

/**
 * The sender's IP: only CloudFront reaches the API (origin-verify), so the source IP is CloudFront's and the
 * viewer's is in `cloudfront-viewer-address`; without a valid one (the local stack), the connection's.
 */
export function viewerAddress(event: Pick<HttpEvent, 'headers' | 'requestContext'>): string {
  return viewerAddressIn(header(event, VIEWER_ADDRESS_HEADER)) ?? event.requestContext.http.sourceIp;
}

/** API Gateway payload 2.0 lower-cases header names, other callers may not: look up in any case. */
export function header(event: Pick<HttpEvent, 'headers'>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted) return value;
  }
  return undefined;
}

/** The optional `Idempotency-Key`; one not matching `pattern` is refused (400), not ignored. */
export function idempotencyKeyOf(event: HttpEvent, pattern: RegExp, message: string): string | undefined {
  const value = header(event, IDEMPOTENCY_HEADER);
  if (value === undefined) return undefined;
  if (!pattern.test(value)) {
    throw new HttpError(400, { error: message, fields: { [IDEMPOTENCY_HEADER]: message } });
  }
  return value;
}

/** The body exactly as sent, bytes included, decoding API Gateway's base64 when it used it. */
export function rawBody(event: Pick<HttpEvent, 'body' | 'isBase64Encoded'>): Buffer {
  if (event.body === undefined || event.body === null) return Buffer.alloc(0);
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
}

/** The answer to a body that is not UTF-8: what we stored would be mangled ("Zo\ufffd Bront\ufffd"). */
const NOT_UTF8_MESSAGE = 'The request body must be UTF-8.';

/** Refuses bytes that are not UTF-8 instead of replacing them with U+FFFD, as Buffer#toString does. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The `charset` parameter of a content type, lower-cased and unquoted; undefined when absent. */
function charsetOf(contentType: string): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType);
  return match?.[1]?.toLowerCase();
}

/**
 * A JSON body with an open endpoint's checks: JSON content type only (no CSRF "simple request"), a size
 * limit, UTF-8 only (refused rather than read as replacement characters), and valid JSON.
 */
export function readJsonBody(event: HttpEvent, maxBytes: number): unknown {
  const contentType = header(event, 'content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(contentType.trim())) {
    throw new HttpError(415, { error: 'Content-Type must be application/json.' });
  }
  const charset = charsetOf(contentType);
  // JSON is UTF-8 (RFC 8259); a Latin-1 body decoded as UTF-8 would lose every accented letter.
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new HttpError(400, { error: NOT_UTF8_MESSAGE });
  }
  const bytes = rawBody(event);
  if (bytes.length > maxBytes) {
    throw new HttpError(413, { error: `Request body must be at most ${maxBytes} bytes.` });
  }
  if (bytes.length === 0) throw new HttpError(400, { error: 'Request body is empty.' });
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw new HttpError(400, { error: NOT_UTF8_MESSAGE });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, { error: 'Request body is not valid JSON.' });
  }
}
