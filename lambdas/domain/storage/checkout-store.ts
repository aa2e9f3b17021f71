import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { IsoDate } from '../../../shared/dispatch';
import { attributeNames, type CapacityChange, usedValues } from './capacity-store';
import { CLIENT_HOLD_NAMES, replaceUpdate } from './capacity-table';
import {
  CHECKOUT_SESSION_KEY_PREFIX,
  capacityDayKey,
  itemKey,
  PARTITION_KEY,
  SETTINGS_KEY,
  type ShopTable,
  TTL_ATTRIBUTE,
} from './orders-table';
import type { ShopSettings } from './shop-settings';

// The checkout's own writes (ADR 0052): bottles and client count in ONE transaction while the settings still
// hold, then after Stripe answers the session's record while open: with settings cached, three round trips.

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** One client's count (client-holds.ts): one more entry, or its entries replaced at a version. */
export type ClientHoldWrite =
  | {
      pk: string;
      /** Adds `entry` while the item has fewer than `limit` entries and a TTL no later than `deleteAfter`. */
      kind: 'add';
      entry: string;
      limit: number;
      deleteAfter: number;
    }
  | {
      pk: string;
      /** Replaces the entries when the version is still `version` (0: no item). */
      kind: 'replace';
      holds: ReadonlySet<string>;
      version: number;
      deleteAfter: number;
    };

export interface CheckoutReservationWrite {
  /** The settings the checkout acted on: the shop open, and `day.date`'s limit as they say. */
  settings: ShopSettings;
  /** The day's reservation; absent when it is made already (a retry). */
  day?: { date: IsoDate; change: CapacityChange } | undefined;
  clients: readonly ClientHoldWrite[];
}

/** Which conditions refused a reservation: nothing of it was written. */
export interface ReservationRefusal {
  settingsChanged: boolean;
  dayRefused: boolean;
  /** The client items whose condition failed. */
  clientsRefused: string[];
  /** Another transaction held an item meanwhile (DynamoDB's TransactionConflict): try again. */
  conflict: boolean;
}

/** A session Stripe made for an open shop: its hold and when it can no longer be paid. */
export interface CheckoutSessionRecord {
  sessionId: string;
  clientReferenceId: string;
  dispatchDate: IsoDate;
  capacityHold?: string | undefined;
  /** The session's `expires_at` (epoch seconds). */
  expiresAt: number;
}

export interface CheckoutStore {
  /** One TransactWriteItems: undefined when written, else which conditions refused it. */
  reserve(write: CheckoutReservationWrite): Promise<ReservationRefusal | undefined>;
  /** One TransactWriteItems: the record, if the shop is still open; false when it is not. */
  recordSession(record: CheckoutSessionRecord): Promise<boolean>;
}

/** Tries of a record that other checkouts' transactions keep meeting on the settings item. */
const CONFLICT_ATTEMPTS = 3;

/** The record is of use for a day after its session can no longer be paid (TTL: cleanup only). */
const RECORD_LIFETIME_SECONDS = 24 * 3600;

/** The settings as read: open (no item if none), the same limit for `date`; else the transaction fails. */
export function settingsCheck(table: ShopTable, settings: ShopSettings, date?: IsoDate): TransactItem {
  const names: Record<string, string> = { '#mode': 'mode' };
  const values: Record<string, unknown> = {};
  // An item always has `updatedAt`; settings without it were read from no item.
  const clauses = [settings.updatedAt === undefined ? 'attribute_not_exists(#mode)' : '#mode = :open'];
  if (settings.updatedAt !== undefined) values[':open'] = 'open';
  if (date !== undefined) {
    Object.assign(names, { '#days': 'capacityDays', '#day': date, '#weekly': 'capacityWeekly' });
    const own = settings.capacity?.days?.[date];
    const weekly = settings.capacity?.weekly;
    if (own === null) {
      clauses.push('attribute_type(#days.#day, :null)');
      values[':null'] = 'NULL';
    } else if (own !== undefined) {
      clauses.push('#days.#day = :own');
      values[':own'] = own;
    } else {
      clauses.push('attribute_not_exists(#days.#day)');
      clauses.push(weekly === undefined ? 'attribute_not_exists(#weekly)' : '#weekly = :weekly');
      if (weekly !== undefined) values[':weekly'] = weekly;
    }
    if (own !== undefined) delete names['#weekly'];
  }
  return {
    ConditionCheck: {
      TableName: table.tableName,
      Key: itemKey(SETTINGS_KEY),
      ConditionExpression: clauses.join(' AND '),
      ExpressionAttributeNames: names,
      ...(Object.keys(values).length > 0 && { ExpressionAttributeValues: values }),
    },
  };
}

function dayUpdate(table: ShopTable, date: IsoDate, change: CapacityChange): TransactItem {
  return {
    Update: {
      TableName: table.tableName,
      Key: itemKey(capacityDayKey(date)),
      UpdateExpression: change.update,
      ConditionExpression: change.condition,
      ExpressionAttributeNames: attributeNames(change),
      ExpressionAttributeValues: { ...usedValues(change) },
    },
  };
}

function clientUpdate(table: ShopTable, write: ClientHoldWrite): TransactItem {
  const common = {
    TableName: table.tableName,
    Key: itemKey(write.pk),
    ExpressionAttributeNames: CLIENT_HOLD_NAMES,
  };
  if (write.kind === 'replace') {
    const { update, condition } = replaceUpdate(write.version);
    return {
      Update: {
        ...common,
        UpdateExpression: update,
        ConditionExpression: condition,
        ExpressionAttributeValues: {
          ':holds': new Set(write.holds),
          ':next': write.version + 1,
          ':deleteAfter': write.deleteAfter,
          ...(write.version !== 0 && { ':version': write.version }),
        },
      },
    };
  }
  // Without a read: a client with fewer entries than the limit (paid, lapsed or not) takes one
  // more. Otherwise the caller reads the item and replaces its entries at its version.
  return {
    Update: {
      ...common,
      UpdateExpression: 'ADD #holds :entrySet, #version :one SET #ttl = :deleteAfter',
      ConditionExpression:
        '(attribute_not_exists(#holds) OR size(#holds) < :limit) AND (attribute_not_exists(#ttl) OR #ttl <= :deleteAfter)',
      ExpressionAttributeValues: {
        ':entrySet': new Set([write.entry]),
        ':one': 1,
        ':limit': write.limit,
        ':deleteAfter': write.deleteAfter,
      },
    },
  };
}

/** The transaction's cancellation reasons, by item; undefined for any other error. */
function cancellationCodes(error: unknown): string[] | undefined {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return undefined;
  const reasons: unknown = 'CancellationReasons' in error ? error.CancellationReasons : undefined;
  if (!Array.isArray(reasons)) return [];
  return reasons.map((reason: unknown) =>
    typeof reason === 'object' && reason !== null && 'Code' in reason ? String(reason.Code) : 'None',
  );
}

/** The checkout's writes over the SDK's document client. */
export function checkoutStoreFromTable(table: ShopTable): CheckoutStore {
  return {
    async reserve(write) {
      const items = [
        settingsCheck(table, write.settings, write.day?.date),
        ...(write.day ? [dayUpdate(table, write.day.date, write.day.change)] : []),
        ...write.clients.map((client) => clientUpdate(table, client)),
      ];
      // Only the settings check: nothing to write (a retry whose writes were all made).
      if (items.length === 1) return undefined;
      try {
        await table.client.send(new TransactWriteCommand({ TransactItems: items }));
        return undefined;
      } catch (error) {
        const codes = cancellationCodes(error);
        if (codes === undefined) throw error;
        const failed = (index: number) => codes[index] === 'ConditionalCheckFailed';
        const firstClient = write.day ? 2 : 1;
        return {
          settingsChanged: failed(0),
          dayRefused: write.day !== undefined && failed(1),
          clientsRefused: write.clients
            .filter((_, index) => failed(firstClient + index))
            .map((client) => client.pk),
          conflict: codes.includes('TransactionConflict'),
        };
      }
    },
    async recordSession(record) {
      const item = {
        ...itemKey(`${CHECKOUT_SESSION_KEY_PREFIX}${record.sessionId}`),
        // Names no order uses: a scan for orders (by dispatchDate, capacityHold, reference) never finds it.
        checkoutRef: record.clientReferenceId,
        reservedDay: record.dispatchDate,
        ...(record.capacityHold !== undefined && { hold: record.capacityHold }),
        expiresAt: record.expiresAt,
        [TTL_ATTRIBUTE]: record.expiresAt + RECORD_LIFETIME_SECONDS,
      };
      const open: TransactItem = {
        ConditionCheck: {
          TableName: table.tableName,
          Key: itemKey(SETTINGS_KEY),
          ConditionExpression: 'attribute_not_exists(#pk) OR #mode = :open',
          ExpressionAttributeNames: { '#pk': PARTITION_KEY, '#mode': 'mode' },
          ExpressionAttributeValues: { ':open': 'open' },
        },
      };
      for (let attempt = 1; ; attempt += 1) {
        try {
          await table.client.send(
            new TransactWriteCommand({
              TransactItems: [open, { Put: { TableName: table.tableName, Item: item } }],
            }),
          );
          return true;
        } catch (error) {
          const codes = cancellationCodes(error);
          if (codes?.[0] === 'ConditionalCheckFailed') return false;
          // Another checkout's transaction checked the settings item at the same moment: again.
          if (!codes?.includes('TransactionConflict') || attempt >= CONFLICT_ATTEMPTS) throw error;
        }
      }
    },
  };
}
