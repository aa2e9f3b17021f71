import http from 'node:http';
import https from 'node:https';
import { createSigner } from './sigv4';

/**
 * DynamoDB's GetItem and UpdateItem over its own JSON protocol, signed with SigV4 (sigv4.ts) and
 * sent with node:http(s) on kept-alive connections.
 *
 * Why not the SDK: create-checkout and shop-status read one small item (the shop's settings) per
 * few seconds, and create-checkout reserves bottles on a dispatch day with one conditional update
 * per checkout; a customer waits on their cold start. The DynamoDB client costs about 330 KiB of
 * bundle and half of create-checkout's cold load (ADR 0020); this is a few KiB. Every other
 * write, and every function that needs more than these two calls, keeps the SDK (ADR 0023).
 * Why not fetch: the reservation is on every checkout's path, and fetch (undici) with WebCrypto
 * signing cost about 1 ms more a call than this (ADR 0030).
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
 * 5xx and 429 answers, and a connection that failed before any answer (a kept-alive socket the
 * server had closed), are retried with jittered backoff; two retries, as the SDK's standard mode
 * does. An UpdateItem retried after a lost answer may find its own change made: every update sent
 * this way is conditional on a set member it adds or removes, so the retry fails its condition
 * instead of counting twice, and the caller reads the item to tell which it was.
 */
const RETRIES = 2;
const FIRST_BACKOFF_MS = 50;
/** Connection errors that mean no answer came: worth another attempt on a fresh socket. */
const RETRIED_CONNECTION_ERRORS = new Set(['ECONNRESET', 'EPIPE', 'ECONNREFUSED']);

/**
 * One agent per scheme for the process: the TLS connection to DynamoDB is made once per cold
 * start and reused by every call (the settings read and the reservation share it).
 */
const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};

/** Builds GetItem and UpdateItem once per cold start, on one signer; each call is one signed POST (plus retries). */
export function createDynamoDbHttp(options: ItemReaderOptions): { getItem: GetItem; updateItem: UpdateItem } {
  const sign = createSigner(options.credentials, { region: options.region, service: 'dynamodb' });
  const url = new URL(options.endpoint ?? `https://dynamodb.${options.region}.amazonaws.com`);
  const timeoutMs = options.timeoutMs ?? CALL_TIMEOUT_MS;
  const call = async (operation: 'GetItem' | 'UpdateItem', request: Record<string, unknown>) => {
    const body = JSON.stringify(request);
    const signal = AbortSignal.timeout(timeoutMs);
    const headers = {
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': `DynamoDB_20120810.${operation}`,
    };
    let response: RawResponse | undefined;
    for (let attempt = 0; response === undefined; attempt += 1) {
      try {
        const sent = await post(
          url,
          sign({ method: 'POST', host: url.host, path: '/', headers, body }),
          body,
          signal,
        );
        if (attempt < RETRIES && (sent.status >= 500 || sent.status === 429)) {
          await backoff(attempt, signal);
          continue;
        }
        response = sent;
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (attempt >= RETRIES || !isConnectionFailure(error)) throw error;
        await backoff(attempt, signal);
      }
    }
    const answer = parseJson(response.text);
    if (response.status < 200 || response.status > 299)
      throw requestError(operation, response.status, answer);
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

interface RawResponse {
  status: number;
  text: string;
}

/** One POST on the process's kept-alive agent; rejects when the connection fails or `signal` aborts. */
function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
): Promise<RawResponse> {
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(
      {
        protocol: url.protocol,
        hostname: url.hostname,
        port: url.port,
        path: '/',
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: url.protocol === 'https:' ? agents['https:'] : agents['http:'],
        signal,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

function isConnectionFailure(error: unknown): boolean {
  const code: unknown =
    error instanceof Error ? Object.getOwnPropertyDescriptor(error, 'code')?.value : undefined;
  return typeof code === 'string' && RETRIED_CONNECTION_ERRORS.has(code);
}

/** Waits 0 to 50 ms before the second attempt, 0 to 100 before the third; rejects when `signal` aborts. */
function backoff(attempt: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, Math.random() * FIRST_BACKOFF_MS * 2 ** attempt);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
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
