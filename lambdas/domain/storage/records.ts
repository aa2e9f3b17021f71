import { GetCommand, paginateQuery, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
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
 * Every order or request whose reference is `input` as a person reads it (any case, O for 0, I or L for 1),
 * or the order of a full session id. The index gives keys under the folded key and, for items not yet
 * backfilled, the lower-cased one; each item is then read strongly consistent, never missing a fresh change.
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

/** Those whose reference is written exactly so, else equal but for case, else all (equal once folded). */
function closestReadings(records: ShopRecord[], reference: string): ShopRecord[] {
  const exact = records.filter((record) => referenceOf(record) === reference);
  if (exact.length > 0) return exact;
  const anyCase = records.filter((record) => referenceOf(record).toLowerCase() === reference.toLowerCase());
  return anyCase.length > 0 ? anyCase : records;
}

/**
 * The order or request a reference names (or a full session id); references equal once folded are told apart
 * by exact spelling, then case, else refused: the full session id names one.
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
 * The statuses one read of a day asks for: one status, or every status from `first` to `last` in the sort
 * key's (alphabetical) order, both included, so two reads of a day become one (the caller drops the others).
 */
export type StatusKeys = string | { first: string; last: string };

/** The key condition on `byDispatchDate` for one day and, if given, its statuses (the sort key's start). */
function dayCondition(day: string, status: StatusKeys | undefined) {
  const names = { '#day': DISPATCH_DATE_INDEX.partitionKey };
  const values = { ':day': dispatchDayKey(day) };
  if (status === undefined) return { expression: '#day = :day', names, values };
  const sort = { ...names, '#sort': DISPATCH_DATE_INDEX.sortKey };
  if (typeof status === 'string') {
    return {
      expression: '#day = :day AND begins_with(#sort, :status)',
      names: sort,
      values: { ...values, ':status': `${status}#` },
    };
  }
  // Every sort key of `last` is `last#<ISO instant>#<reference>`: below `last#` then U+FFFF.
  return {
    expression: '#day = :day AND #sort BETWEEN :first AND :last',
    names: sort,
    values: { ...values, ':first': `${status.first}#`, ':last': `${status.last}#\uffff` },
  };
}

/** Every item of one dispatch day from `byDispatchDate`, optionally of some statuses (the sort key's start). */
export async function queryDispatchDay(
  table: ShopTable,
  day: string,
  status?: StatusKeys,
): Promise<ShopRecord[]> {
  const condition = dayCondition(day, status);
  const input: QueryCommandInput = {
    TableName: table.tableName,
    IndexName: DISPATCH_DATE_INDEX.name,
    KeyConditionExpression: condition.expression,
    ExpressionAttributeNames: condition.names,
    ExpressionAttributeValues: condition.values,
  };
  const records: ShopRecord[] = [];
  for await (const page of paginateQuery({ client: table.client }, input)) {
    for (const item of page.Items ?? []) records.push(toShopRecord(item));
  }
  return records;
}
