import { AwsClient } from 'aws4fetch';

/**
 * DynamoDB's GetItem and UpdateItem over its own JSON protocol, signed with SigV4 by aws4fetch.
 *
 * Why not the SDK: create-checkout and shop-status read one small item (the shop's settings) per
 * few seconds, and create-checkout reserves bottles on a dispatch day with one conditional update
 * per checkout; a customer waits on their cold start. The DynamoDB client costs about 330 KiB of
 * bundle and half of create-checkout's cold load (ADR 0020); this is about 3 KiB. Every other
 * write, and every function that needs more than these two calls, keeps the SDK (ADR 0023).
 */

/** A DynamoDB attribute value as the wire carries it (`{"S": "..."}`, `{"N": "3"}`, `{"SS": [...]}`...). */
export type AttributeValue = { S: string } | Record<string, unknown>;
export type AttributeMap = Record<string, AttributeValue>;

export interface ItemReaderOptions {
  region: string;
  /** A local stand-in (dynalite); absent means the region's DynamoDB endpoint. */
  endpoint?: string | undefined;
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string | undefined };
  /** For the whole call, retries included: a hung connection fails in seconds instead of at the Lambda timeout. */
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

/** The error type DynamoDB answers when an UpdateItem's condition does not hold. */
export const CONDITIONAL_CHECK_FAILED = 'ConditionalCheckFailedException';

export type GetItem = (
  tableName: string,
  key: Record<string, string>,
  options?: { consistentRead?: boolean },
) => Promise<AttributeMap | undefined>;

/** One UpdateItem's expressions, with its values as the wire carries them (see toAttributeValue). */
export interface ItemUpdate {
  updateExpression: string;
  conditionExpression?: string | undefined;
  names?: Record<string, string> | undefined;
  values?: AttributeMap | undefined;
  /** What to answer with: the whole item as the update left it, or nothing (the default). */
  returnValues?: 'NONE' | 'ALL_NEW' | undefined;
}

/**
 * Resolves with the attributes asked for (empty without `returnValues`).
 * @throws DynamoDbRequestError of type CONDITIONAL_CHECK_FAILED when the condition does not hold.
 */
export type UpdateItem = (
  tableName: string,
  key: Record<string, string>,
  update: ItemUpdate,
) => Promise<AttributeMap>;

/** The SDK clients allow 5 s an attempt (lambdas/lib/aws.ts); one call on one small item gets as long in all. */
const CALL_TIMEOUT_MS = 5_000;
/**
 * aws4fetch retries 5xx and 429 with jittered backoff; two retries, as the SDK's standard mode
 * does. An UpdateItem retried after a lost answer may find its own change made: every update sent
 * this way is conditional on a set member it adds or removes, so the retry fails its condition
 * instead of counting twice, and the caller reads the item to tell which it was.
 */
const RETRIES = 2;

/** Builds GetItem and UpdateItem once per cold start, on one signing client; each call is one signed POST (plus retries). */
export function createDynamoDbHttp(options: ItemReaderOptions): { getItem: GetItem; updateItem: UpdateItem } {
  const client = new AwsClient({
    ...options.credentials,
    service: 'dynamodb',
    region: options.region,
    retries: RETRIES,
  });
  const url = options.endpoint ?? `https://dynamodb.${options.region}.amazonaws.com`;
  const timeoutMs = options.timeoutMs ?? CALL_TIMEOUT_MS;
  const call = async (operation: 'GetItem' | 'UpdateItem', request: Record<string, unknown>) => {
    const response = await client.fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': `DynamoDB_20120810.${operation}`,
      },
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const answer: unknown = await response.json().catch(() => undefined);
    if (!response.ok) throw requestError(operation, response.status, answer);
    if (typeof answer !== 'object' || answer === null) {
      throw new DynamoDbRequestError(
        'MalformedResponse',
        response.status,
        `${operation} answered without JSON`,
      );
    }
    return { answer, status: response.status };
  };
  const wireKey = (key: Record<string, string>) =>
    Object.fromEntries(Object.entries(key).map(([name, value]) => [name, { S: value }]));

  const getItem: GetItem = async (tableName, key, { consistentRead = false } = {}) => {
    const { answer, status } = await call('GetItem', {
      TableName: tableName,
      Key: wireKey(key),
      ConsistentRead: consistentRead,
    });
    return attributeMapIn(answer, 'Item', 'GetItem', status);
  };

  const updateItem: UpdateItem = async (tableName, key, update) => {
    const { answer, status } = await call('UpdateItem', {
      TableName: tableName,
      Key: wireKey(key),
      UpdateExpression: update.updateExpression,
      ...(update.conditionExpression !== undefined && { ConditionExpression: update.conditionExpression }),
      ...(update.names !== undefined && { ExpressionAttributeNames: update.names }),
      ...(update.values !== undefined && { ExpressionAttributeValues: update.values }),
      ReturnValues: update.returnValues ?? 'NONE',
    });
    return attributeMapIn(answer, 'Attributes', 'UpdateItem', status) ?? {};
  };

  return { getItem, updateItem };
}

/** Builds the reader once per cold start; each call is one signed POST (plus retries). */
export function createItemReader(options: ItemReaderOptions): GetItem {
  return createDynamoDbHttp(options).getItem;
}

/** The map an answer holds under `field` (an item, or an update's attributes); undefined when absent. */
function attributeMapIn(
  answer: object,
  field: 'Item' | 'Attributes',
  operation: string,
  status: number,
): AttributeMap | undefined {
  const value: unknown = Object.getOwnPropertyDescriptor(answer, field)?.value;
  if (value === undefined) return undefined;
  if (!isAttributeMap(value)) {
    throw new DynamoDbRequestError(
      'MalformedResponse',
      status,
      `${operation} answered ${field === 'Item' ? 'an Item that is' : 'Attributes that are'} not a map`,
    );
  }
  return value;
}

function isAttributeMap(value: unknown): value is AttributeMap {
  return isWireValue(value) && Object.values(value).every(isWireValue);
}

/** DynamoDB's error body: `{"__type": "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException", "message": "..."}`. */
function requestError(operation: string, statusCode: number, answer: unknown): DynamoDbRequestError {
  const body = typeof answer === 'object' && answer !== null ? (answer as Record<string, unknown>) : {};
  const type =
    typeof body.__type === 'string' ? (body.__type.split('#').pop() ?? body.__type) : 'UnknownError';
  const message = typeof body.message === 'string' ? body.message : (body.Message ?? `HTTP ${statusCode}`);
  return new DynamoDbRequestError(
    type,
    statusCode,
    `DynamoDB ${operation} failed: ${type}: ${String(message)}`,
  );
}

/** A plain value as the document client would give it: a string, a number, null, a map, or a string set. */
export type PlainValue =
  | string
  | number
  | boolean
  | null
  | Set<string>
  | PlainValue[]
  | { [name: string]: PlainValue };

/**
 * The item as plain values, as the SDK's document client reads it (strings, numbers, booleans,
 * null, maps, lists, string sets), so one schema parses what either path read. A type it does not
 * know (binary, number sets) is left out, so a schema that requires it fails.
 */
export function plainAttributes(item: AttributeMap): Record<string, PlainValue> {
  const plain: Record<string, PlainValue> = {};
  for (const [name, value] of Object.entries(item)) {
    const converted = plainValue(value);
    if (converted !== undefined) plain[name] = converted;
  }
  return plain;
}

function plainValue(value: AttributeValue): PlainValue | undefined {
  if ('S' in value && typeof value.S === 'string') return value.S;
  if ('N' in value && typeof value.N === 'string') return Number(value.N);
  if ('BOOL' in value && typeof value.BOOL === 'boolean') return value.BOOL;
  if ('NULL' in value && value.NULL === true) return null;
  if ('SS' in value && Array.isArray(value.SS)) {
    return new Set(value.SS.filter((member): member is string => typeof member === 'string'));
  }
  if ('L' in value && Array.isArray(value.L)) {
    return value.L.flatMap((member: unknown) => {
      const converted = isWireValue(member) ? plainValue(member) : undefined;
      return converted === undefined ? [] : [converted];
    });
  }
  if ('M' in value && isAttributeMap(value.M)) {
    const map: { [name: string]: PlainValue } = {};
    for (const [name, member] of Object.entries(value.M)) {
      const converted = plainValue(member);
      if (converted !== undefined) map[name] = converted;
    }
    return map;
  }
  return undefined;
}

function isWireValue(value: unknown): value is AttributeValue {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value for an update's ExpressionAttributeValues: a string, a number, or a string set (never empty). */
export function toAttributeValue(value: string | number | ReadonlySet<string>): AttributeValue {
  if (typeof value === 'string') return { S: value };
  if (typeof value === 'number') return { N: String(value) };
  return { SS: [...value] };
}
