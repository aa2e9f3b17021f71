import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { foldReference } from '../../../shared/order-reference';

// The orders table's design, written once: infra creates the table from it, local/ creates the
// dynalite copy from it, and the domain reads and writes by it. No runtime imports but shared/'s
// pure reference rule, so infra can load it freely.

/** The orders table as the shop's operator code sees it: the document client and the table name. */
export interface ShopTable {
  client: DynamoDBDocumentClient;
  tableName: string;
}

/** Every item's partition key attribute; the table has no sort key. */
export const PARTITION_KEY = 'pk';

/**
 * The GSI that lists one dispatch day's orders and requests (`DISPATCH#<day>`), sorted by status,
 * then time, then reference ({@link dispatchSortKey}). All attributes projected: a listing needs them.
 */
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
 * The GSI that finds an order or request by its customer-facing reference as a person reads it:
 * keyed on `referenceKey`, the reference folded ({@link referenceKeyOf}: any case, O as 0, I and L
 * as 1), since a reference read off a screen or over the phone loses its case and its look-alikes.
 * Items written before the fold hold the reference lower-cased until backfilled
 * (storage/reference-keys.ts). Keys only: the operator's commands then read the item itself,
 * strongly consistent, by its key.
 */
export const REFERENCE_INDEX = keysOnlyIndex('byReferenceKey', 'referenceKey');

/**
 * The index by the exact `reference` that REFERENCE_INDEX replaces, no longer read. Kept for one
 * release because CloudFormation adds or deletes one GSI per table update: a deployed table gains
 * the new index with this release and can lose this one with the next
 * (docs/decisions/0022-references-any-case.md).
 */
export const RETIRED_REFERENCE_INDEX = keysOnlyIndex('byReference', 'reference');

/**
 * The sparse GSI of orders whose outbox holds entries not sent yet: only an order carrying
 * `outboxDueAt` (set by the write that adds an entry, removed once all are settled) is in it, so
 * the reconciler's sweep scans just those (docs/decisions/0044-order-email-outbox.md). Keys only.
 * A standing order's record carries it too while a change is not settled (ADR 0062).
 */
export const OUTBOX_DUE_INDEX = keysOnlyIndex('byOutboxDue', 'outboxDueAt');

/**
 * The sparse GSI of active standing orders: only a standing order's record carries
 * `activeStandingOrder` (its subscription id), written with it and removed when it is cancelled,
 * so the reconciler's pass over them scans just those (ADR 0060). Keys only.
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

/**
 * The table's design as DynamoDB's CreateTable takes it (on demand, string keys): the local
 * stand-ins create their table from this, the stack's construct from the same names.
 */
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
/**
 * Counters that limit the merchant's notices of order requests (`NOTICE_LIMIT#<scope>#<hour>#<hash>`)
 * and the count of requests recorded without a notice (lambdas/domain/operations/request-notice-limits.ts).
 */
export const NOTICE_LIMIT_KEY_PREFIX = 'NOTICE_LIMIT#';
/**
 * The open holds of one client (`CLIENT_HOLDS#<viewer|email>#<hash>`), which a client may have only
 * a few of at once (lambdas/domain/capacity/client-holds.ts).
 */
export const CLIENT_HOLDS_KEY_PREFIX = 'CLIENT_HOLDS#';
/**
 * A Checkout Session Stripe made while the shop was open (`CHECKOUT_SESSION#<id>`): its hold and
 * expiry, written after Stripe answers, only while the shop is open (storage/checkout-store.ts).
 * Carries the TTL.
 */
export const CHECKOUT_SESSION_KEY_PREFIX = 'CHECKOUT_SESSION#';
/**
 * A Bacs Direct Debit that failed at the customer's bank: `FAILED_DEBIT#<Checkout Session id>`, the
 * record that its two emails (customer, merchant) were sent once (lambdas/domain/fulfilment/failed-debit.ts).
 * Not an order: no order exists for money never received.
 */
export const FAILED_DEBIT_KEY_PREFIX = 'FAILED_DEBIT#';
/**
 * A delayed payment (a Bacs Direct Debit) waiting for the bank: `PENDING_DEBIT#<Checkout Session id>`,
 * the record of its "waiting for your bank" email and of the page key the order takes when it is
 * recorded (lambdas/domain/fulfilment/pending-debit.ts). Not an order: nothing is paid yet.
 */
export const PENDING_DEBIT_KEY_PREFIX = 'PENDING_DEBIT#';
/** A standing order, `STANDING_ORDER#<subscription id>`: one per subscription, written once (ADR 0058). */
export const STANDING_ORDER_KEY_PREFIX = 'STANDING_ORDER#';
/** `FAILED_RENEWAL#<invoice id>`: a renewal Stripe could not charge, and its two emails. Not an order. */
export const FAILED_RENEWAL_KEY_PREFIX = 'FAILED_RENEWAL#';
/**
 * One place's forecast as fetched on one day: `FORECAST#<lat>,<lon>#<yyyy-mm-dd>`, so each place is
 * asked of the provider once a day (lambdas/domain/weather/forecast-cache.ts). Carries the TTL.
 */
export const FORECAST_KEY_PREFIX = 'FORECAST#';
/** The record of the merchant's weather email about one dispatch day: its send-once state. Carries the TTL. */
export const WEATHER_NOTICE_KEY_PREFIX = 'WEATHERNOTICE#';
/**
 * One admin action's intention key (`IDEMPOTENCY#<sub>#<route>#<key>`): its claim and then its
 * answer, kept for a day (lambdas/domain/storage/intention-keys.ts). Carries the TTL.
 */
export const IDEMPOTENCY_KEY_PREFIX = 'IDEMPOTENCY#';
/**
 * The merchants' Web Push subscriptions, one attribute per device (storage/push-subscriptions.ts,
 * ADR 0056).
 */
export const PUSH_SUBSCRIPTIONS_KEY = 'PUSH_SUBSCRIPTIONS#shop';
/**
 * The table's TTL attribute (epoch seconds): only the notice counters, the client-holds items, the
 * checkout-session records,
 * the cached forecasts, the intention keys and the failed- and pending-debit records carry it, so DynamoDB deletes them once they are of no use. No order or request ever has it.
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
