import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { foldReference } from '../../../shared/order-reference';

// The orders table's design, written once for infra, local/ and the domain; no runtime imports but shared/'s
// pure reference rule, so infra can load it freely.

/** The orders table as the shop's operator code sees it: the document client and the table name. */
export interface ShopTable {
  client: DynamoDBDocumentClient;
  tableName: string;
}

/** Every item's partition key attribute; the table has no sort key. */
export const PARTITION_KEY = 'pk';

/** One dispatch day's orders and requests (`DISPATCH#<day>`) by status, time, reference; all projected. */
export const DISPATCH_DATE_INDEX = {
  name: 'byDispatchDate',
  partitionKey: 'gsi1pk',
  sortKey: 'gsi1sk',
  projection: 'ALL',
} as const;

/** A GSI keyed on one attribute that projects only the table's key: a hit is then read by its key. */
function keysOnlyIndex<Name extends string, Key extends string>(name: Name, partitionKey: Key) {
  return { name, partitionKey, projection: 'KEYS_ONLY' } as const;
}

/**
 * Finds an order or request by its reference folded ({@link referenceKeyOf}: any case, O as 0, I and L as 1),
 * as a reference read off a screen or over the phone loses its case and look-alikes. Older items hold it
 * lower-cased until backfilled (storage/reference-keys.ts). Keys only: commands then read the item itself.
 */
export const REFERENCE_INDEX = keysOnlyIndex('byReferenceKey', 'referenceKey');

/**
 * The exact-`reference` index REFERENCE_INDEX replaces, no longer read: kept one release because
 * CloudFormation adds or deletes one GSI per table update (docs/decisions/0022-references-any-case.md).
 */
export const RETIRED_REFERENCE_INDEX = keysOnlyIndex('byReference', 'reference');

/**
 * Sparse: only items carrying `outboxDueAt` (entries unsent, or a standing order's change unsettled,
 * ADR 0062), so the reconciler's sweep scans just those (docs/decisions/0044-order-email-outbox.md); keys.
 */
export const OUTBOX_DUE_INDEX = keysOnlyIndex('byOutboxDue', 'outboxDueAt');

/**
 * Sparse: only a standing order's record carries `activeStandingOrder` (its subscription id) until cancelled,
 * so the reconciler scans just those (ADR 0060). Keys only.
 */
export const ACTIVE_STANDING_ORDER_INDEX = keysOnlyIndex('byActiveStandingOrder', 'activeStandingOrder');

/** Every GSI of the table: what the local tables are created with (ordersTableDefinition). */
export const ORDERS_TABLE_INDEXES = [
  DISPATCH_DATE_INDEX,
  REFERENCE_INDEX,
  RETIRED_REFERENCE_INDEX,
  OUTBOX_DUE_INDEX,
  ACTIVE_STANDING_ORDER_INDEX,
] as const;

/** The table's design as CreateTable takes it (on demand, string keys), for the local stand-ins. */
export function ordersTableDefinition(tableName: string): CreateTableCommandInput {
  const indexKeys = (index: (typeof ORDERS_TABLE_INDEXES)[number]) =>
    'sortKey' in index ? [index.partitionKey, index.sortKey] : [index.partitionKey];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [PARTITION_KEY, ...ORDERS_TABLE_INDEXES.flatMap(indexKeys)].map((name) => ({
      AttributeName: name,
      AttributeType: 'S' as const,
    })),
    KeySchema: [{ AttributeName: PARTITION_KEY, KeyType: 'HASH' }],
    GlobalSecondaryIndexes: ORDERS_TABLE_INDEXES.map((index) => ({
      IndexName: index.name,
      KeySchema: indexKeys(index).map((name, at) => ({
        AttributeName: name,
        KeyType: at === 0 ? ('HASH' as const) : ('RANGE' as const),
      })),
      Projection: { ProjectionType: index.projection },
    })),
  };
}

/** The reference index's key of a reference: the reference folded (any case, O as 0, I and L as 1). */
export function referenceKeyOf(reference: string): string {
  return foldReference(reference);
}

/** The reference index's key as items written before the fold hold it: the reference lower-cased. */
export function lowerCaseReferenceKeyOf(reference: string): string {
  return reference.toLowerCase();
}

/** Paid orders: `ORDER#<Checkout Session id>`. */
export const ORDER_KEY_PREFIX = 'ORDER#';
/** Order requests taken in requests mode: `REQUEST#<reference>`. */
export const REQUEST_KEY_PREFIX = 'REQUEST#';
/** The dispatch-day index's partition: `DISPATCH#<yyyy-mm-dd>`. */
export const DISPATCH_KEY_PREFIX = 'DISPATCH#';
/** The one item holding the shop's settings (pause, requests mode). */
export const SETTINGS_KEY = 'SETTINGS#shop';
/** One dispatch day's capacity counters: `CAPACITY#<yyyy-mm-dd>` (lambdas/domain/capacity). */
export const CAPACITY_KEY_PREFIX = 'CAPACITY#';
/** `NOTICE_LIMIT#<scope>#<hour>#<hash>` counters of request notices (operations/request-notice-limits.ts). */
export const NOTICE_LIMIT_KEY_PREFIX = 'NOTICE_LIMIT#';
/** `CLIENT_HOLDS#<viewer|email>#<hash>`: a client's few open holds (capacity/client-holds.ts). */
export const CLIENT_HOLDS_KEY_PREFIX = 'CLIENT_HOLDS#';
/**
 * `CHECKOUT_SESSION#<id>`: a session's hold and expiry, written after Stripe answers while the shop is open
 * (storage/checkout-store.ts). Carries the TTL.
 */
export const CHECKOUT_SESSION_KEY_PREFIX = 'CHECKOUT_SESSION#';
/**
 * `FAILED_DEBIT#<session id>`: its two emails sent once (fulfilment/failed-debit.ts). Not an order: no order
 * exists for money never received.
 */
export const FAILED_DEBIT_KEY_PREFIX = 'FAILED_DEBIT#';
/**
 * `PENDING_DEBIT#<session id>`: a debit waiting for the bank, its email and the page key the order will take
 * (fulfilment/pending-debit.ts). Not an order: nothing is paid yet.
 */
export const PENDING_DEBIT_KEY_PREFIX = 'PENDING_DEBIT#';
/** A standing order, `STANDING_ORDER#<subscription id>`: one per subscription, written once (ADR 0058). */
export const STANDING_ORDER_KEY_PREFIX = 'STANDING_ORDER#';
/** `FAILED_RENEWAL#<invoice id>`: a renewal Stripe could not charge, and its two emails. Not an order. */
export const FAILED_RENEWAL_KEY_PREFIX = 'FAILED_RENEWAL#';
/**
 * `FORECAST#<lat>,<lon>#<yyyy-mm-dd>`: each place asked of the provider once a day
 * (weather/forecast-cache.ts).
 */
export const FORECAST_KEY_PREFIX = 'FORECAST#';
/** The record of the merchant's weather email about one dispatch day: its send-once state. Carries the TTL. */
export const WEATHER_NOTICE_KEY_PREFIX = 'WEATHERNOTICE#';
/**
 * `IDEMPOTENCY#<sub>#<route>#<key>`: an admin action's claim then answer, for a day
 * (storage/intention-keys.ts).
 */
export const IDEMPOTENCY_KEY_PREFIX = 'IDEMPOTENCY#';
/** The merchants' Web Push subscriptions, one attribute a device (push-subscriptions.ts, ADR 0056). */
export const PUSH_SUBSCRIPTIONS_KEY = 'PUSH_SUBSCRIPTIONS#shop';
/**
 * The TTL attribute (epoch seconds), carried only by notice counters, client holds, checkout sessions,
 * forecasts, intention keys and debit records so DynamoDB deletes them; never by an order or request.
 */
export const TTL_ATTRIBUTE = 'deleteAfter';

/** The key of one item, for GetItem and UpdateItem. */
export function itemKey(pk: string): { [PARTITION_KEY]: string } {
  return { [PARTITION_KEY]: pk };
}

/** The table key (or index key) of one item under `prefix`: the prefix, then the item's id. */
function keyUnder(prefix: string): (id: string) => string {
  return (id) => `${prefix}${id}`;
}

/** The table key of the one order a Checkout Session can ever have. */
export const orderKey = keyUnder(ORDER_KEY_PREFIX);

/** The table key of the record of a Checkout Session whose Direct Debit failed. */
export const failedDebitKey = keyUnder(FAILED_DEBIT_KEY_PREFIX);

/** The table key of the record of a Checkout Session whose delayed payment is with the bank. */
export const pendingDebitKey = keyUnder(PENDING_DEBIT_KEY_PREFIX);

/** The table key of an order request. */
export const requestKey = keyUnder(REQUEST_KEY_PREFIX);

/** The key of the record of the weather email about one dispatch day (sent the day before). */
export const weatherNoticeKey = keyUnder(WEATHER_NOTICE_KEY_PREFIX);

/** The dispatch-day index's partition key of one day. */
export const dispatchDayKey = keyUnder(DISPATCH_KEY_PREFIX);

/** The key of one place's forecast fetched on `fetchedOn` (London day). */
export function forecastKey(latitude: number, longitude: number, fetchedOn: string): string {
  return `${FORECAST_KEY_PREFIX}${latitude.toFixed(2)},${longitude.toFixed(2)}#${fetchedOn}`;
}

/** The key of one dispatch day's capacity counters. */
export const capacityDayKey = keyUnder(CAPACITY_KEY_PREFIX);

/** The dispatch-day index's sort key: status first, so one day's `paid` orders are one key range. */
export function dispatchSortKey(status: string, instant: string, reference: string): string {
  return `${status}#${instant}#${reference}`;
}
