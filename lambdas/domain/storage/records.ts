import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { CHECKOUT_SESSION_ID_PATTERN } from '../../../shared/checkout-status';
import { RefusedError } from '../refusal';
import { type ManagedOrder, managedOrderSchema } from './managed-order';
import { type OrderRequest, orderRequestSchema } from './order-request';
import {
  DISPATCH_DATE_INDEX,
  dispatchDayKey,
  itemKey,
  lowerCaseReferenceKeyOf,
  ORDER_KEY_PREFIX,
  orderKey,
  PARTITION_KEY,
  REFERENCE_INDEX,
  REQUEST_KEY_PREFIX,
  referenceKeyOf,
  type ShopTable,
} from './orders-table';

/** What a reference names: a paid order or an order request. */
export type ShopRecord = { kind: 'order'; order: ManagedOrder } | { kind: 'request'; request: OrderRequest };

/** References are the last 12 characters of a session id, or a request's own; a session id works too. */
const REFERENCE_PATTERN = /^[A-Za-z0-9_]{6,200}$/;

/** Parses an item read from the table into an order or a request, refusing what is neither. */
export function toShopRecord(item: Record<string, unknown>): ShopRecord {
  const key = item[PARTITION_KEY];
  const pk = typeof key === 'string' ? key : '';
  if (pk.startsWith(ORDER_KEY_PREFIX)) {
    const parsed = managedOrderSchema.safeParse(item);
    if (parsed.success) return { kind: 'order', order: parsed.data };
    throw new Error(
      `${pk} is not a valid order item: ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`,
    );
  }
  if (pk.startsWith(REQUEST_KEY_PREFIX)) {
    const parsed = orderRequestSchema.safeParse(item);
    if (parsed.success) return { kind: 'request', request: parsed.data };
    throw new Error(
      `${pk} is not a valid request item: ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`,
    );
  }
  throw new Error(`${pk} is neither an order nor a request`);
}

/** One item by its key, read strongly consistent; undefined when absent. */
export async function getRecord(table: ShopTable, pk: string): Promise<ShopRecord | undefined> {
  const { Item } = await table.client.send(
    new GetCommand({ TableName: table.tableName, Key: itemKey(pk), ConsistentRead: true }),
  );
  return Item === undefined ? undefined : toShopRecord(Item);
}

/** The keys of the items the reference index holds under one key. */
async function keysUnderReferenceKey(table: ShopTable, key: string): Promise<string[]> {
  const { Items = [] } = await table.client.send(
    new QueryCommand({
      TableName: table.tableName,
      IndexName: REFERENCE_INDEX.name,
      KeyConditionExpression: '#key = :key',
      ExpressionAttributeNames: { '#key': REFERENCE_INDEX.partitionKey },
      ExpressionAttributeValues: { ':key': key },
    }),
  );
  return Items.map((item) => item[PARTITION_KEY]).filter((pk): pk is string => typeof pk === 'string');
}

/**
 * Every order or request whose reference is `input` as a person reads it (any case, O for 0, I or
 * L for 1: the last 12 characters of the Checkout Session id for an order, `R…` for a request), or
 * the one order of a full session id; none for a string that cannot be a reference. The
 * `byReferenceKey` index gives the keys, under the folded key and, for items written before the
 * fold and not yet backfilled, under the lower-cased one; each item itself is then read strongly
 * consistent, so a just-made change is never missed.
 */
export async function recordsByReference(table: ShopTable, input: string): Promise<ShopRecord[]> {
  const reference = input.trim();
  if (!REFERENCE_PATTERN.test(reference)) return [];
  if (CHECKOUT_SESSION_ID_PATTERN.test(reference)) {
    const record = await getRecord(table, orderKey(reference));
    return record ? [record] : [];
  }
  const folded = referenceKeyOf(reference);
  const lowerCased = lowerCaseReferenceKeyOf(reference);
  const keyLists = await Promise.all(
    [...new Set([folded, lowerCased])].map((key) => keysUnderReferenceKey(table, key)),
  );
  const keys = [...new Set(keyLists.flat())];
  const records = await Promise.all(keys.map((pk) => getRecord(table, pk)));
  return records.filter(
    (record): record is ShopRecord => record !== undefined && referenceKeyOf(referenceOf(record)) === folded,
  );
}

/** The reference of an order or a request. */
export function referenceOf(record: ShopRecord): string {
  return record.kind === 'order' ? record.order.reference : record.request.reference;
}

/**
 * The records among `records` closest to how `reference` was written: those whose reference is it
 * exactly, else those equal but for case, else all (equal once folded).
 */
function closestReadings(records: ShopRecord[], reference: string): ShopRecord[] {
  const exact = records.filter((record) => referenceOf(record) === reference);
  if (exact.length > 0) return exact;
  const anyCase = records.filter((record) => referenceOf(record).toLowerCase() === reference.toLowerCase());
  return anyCase.length > 0 ? anyCase : records;
}

/**
 * The order or request a reference names, as a person reads it, or a full session id. Several
 * references equal once folded are told apart by the one written exactly, else by the one equal
 * but for case; in any other case they are refused, and the full session id names one.
 * @throws RefusedError for a malformed, unknown or ambiguous reference.
 */
export async function findByReference(table: ShopTable, input: string): Promise<ShopRecord> {
  const reference = input.trim();
  if (!REFERENCE_PATTERN.test(reference)) {
    throw new RefusedError(`"${input}" is not an order reference (letters and digits, as in the emails).`);
  }
  const candidates = closestReadings(await recordsByReference(table, reference), reference);
  if (candidates.length > 1) {
    throw new RefusedError(
      `Reference ${reference} matches ${candidates.length} items; use the full Checkout Session id.`,
    );
  }
  const [record] = candidates;
  if (!record) {
    throw new RefusedError(
      CHECKOUT_SESSION_ID_PATTERN.test(reference)
        ? `No order for Checkout Session ${reference}.`
        : `No order or request with reference ${reference}.`,
    );
  }
  return record;
}

/**
 * Every item of one dispatch day from the `byDispatchDate` index, optionally only one status (the
 * sort key starts with it), following pages until the last.
 */
export async function queryDispatchDay(
  table: ShopTable,
  day: string,
  status?: string,
): Promise<ShopRecord[]> {
  const input: QueryCommandInput = {
    TableName: table.tableName,
    IndexName: DISPATCH_DATE_INDEX.name,
    KeyConditionExpression:
      status === undefined ? '#day = :day' : '#day = :day AND begins_with(#sort, :status)',
    ExpressionAttributeNames: {
      '#day': DISPATCH_DATE_INDEX.partitionKey,
      ...(status !== undefined && { '#sort': DISPATCH_DATE_INDEX.sortKey }),
    },
    ExpressionAttributeValues: {
      ':day': dispatchDayKey(day),
      ...(status !== undefined && { ':status': `${status}#` }),
    },
  };
  const records: ShopRecord[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await table.client.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    for (const item of page.Items ?? []) records.push(toShopRecord(item));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return records;
}
