import { AwsClient } from 'aws4fetch';

/**
 * One DynamoDB read, GetItem, over DynamoDB's own JSON protocol, signed with SigV4 by aws4fetch.
 *
 * Why not the SDK: create-checkout and shop-status read one small item (the shop's settings) per
 * few seconds, and a customer waits on their cold start. The DynamoDB client costs about 330 KiB
 * of bundle and half of create-checkout's cold load (ADR 0020); this is about 3 KiB. Everything
 * that writes, and every function that needs more than this one read, keeps the SDK.
 */

/** A DynamoDB attribute value as the wire carries it; only strings are read here. */
export type AttributeValue = { S: string } | Record<string, unknown>;
export type AttributeMap = Record<string, AttributeValue>;

export interface ItemReaderOptions {
  region: string;
  /** A local stand-in (dynalite); absent means the region's DynamoDB endpoint. */
  endpoint?: string | undefined;
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string | undefined };
  /** For the whole read, retries included: a hung connection fails in seconds instead of at the Lambda timeout. */
  timeoutMs?: number;
}

/** What DynamoDB answered instead of an item: its error type (e.g. ResourceNotFoundException) and status. */
export class DynamoDbRequestError extends Error {
  constructor(
    readonly type: string,
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'DynamoDbRequestError';
  }
}

export type GetItem = (
  tableName: string,
  key: Record<string, string>,
  options?: { consistentRead?: boolean },
) => Promise<AttributeMap | undefined>;

/** The SDK clients allow 5 s an attempt (lambdas/lib/aws.ts); one read of one small item gets as long in all. */
const READ_TIMEOUT_MS = 5_000;
/** aws4fetch retries 5xx and 429 with jittered backoff; two retries, as the SDK's standard mode does. */
const RETRIES = 2;

/** Builds the reader once per cold start; each call is one signed POST (plus retries). */
export function createItemReader(options: ItemReaderOptions): GetItem {
  const client = new AwsClient({
    ...options.credentials,
    service: 'dynamodb',
    region: options.region,
    retries: RETRIES,
  });
  const url = options.endpoint ?? `https://dynamodb.${options.region}.amazonaws.com`;
  const timeoutMs = options.timeoutMs ?? READ_TIMEOUT_MS;
  return async (tableName, key, { consistentRead = false } = {}) => {
    const response = await client.fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'DynamoDB_20120810.GetItem',
      },
      body: JSON.stringify({
        TableName: tableName,
        Key: Object.fromEntries(Object.entries(key).map(([name, value]) => [name, { S: value }])),
        ConsistentRead: consistentRead,
      }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const answer: unknown = await response.json().catch(() => undefined);
    if (!response.ok) throw requestError(response.status, answer);
    if (typeof answer !== 'object' || answer === null) {
      throw new DynamoDbRequestError('MalformedResponse', response.status, 'GetItem answered without JSON');
    }
    const item = (answer as { Item?: unknown }).Item;
    if (item === undefined) return undefined;
    if (typeof item !== 'object' || item === null) {
      throw new DynamoDbRequestError(
        'MalformedResponse',
        response.status,
        'GetItem answered an Item that is not a map',
      );
    }
    return item as AttributeMap;
  };
}

/** DynamoDB's error body: `{"__type": "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException", "message": "..."}`. */
function requestError(statusCode: number, answer: unknown): DynamoDbRequestError {
  const body = typeof answer === 'object' && answer !== null ? (answer as Record<string, unknown>) : {};
  const type =
    typeof body.__type === 'string' ? (body.__type.split('#').pop() ?? body.__type) : 'UnknownError';
  const message = typeof body.message === 'string' ? body.message : (body.Message ?? `HTTP ${statusCode}`);
  return new DynamoDbRequestError(type, statusCode, `DynamoDB GetItem failed: ${type}: ${String(message)}`);
}

/**
 * The item's string attributes, as a plain object; an attribute of any other type is left out,
 * so a schema that requires it fails rather than reading a number or a list as text.
 */
export function stringAttributes(item: AttributeMap): Record<string, string> {
  const strings: Record<string, string> = {};
  for (const [name, value] of Object.entries(item)) {
    if ('S' in value && typeof value.S === 'string') strings[name] = value.S;
  }
  return strings;
}
