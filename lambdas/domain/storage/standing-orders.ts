import { GetCommand, paginateScan } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { calendarDateSchema } from '../../../shared/calendar-date';
import { REPEATS } from '../../../shared/standing-order';
import { STANDING_ORDER_ACTIONS } from '../../../shared/standing-order-page';
import { ENGLISH_MESSAGES } from '../../lib/zod-messages';
import { putIfAbsent, updateIf } from './conditional-writes';
import { customerAndAddressFields, customerFields, emailStateSchema, isoInstant } from './order';
import {
  ACTIVE_STANDING_ORDER_INDEX,
  FAILED_RENEWAL_KEY_PREFIX,
  itemKey,
  PARTITION_KEY,
  type ShopTable,
  STANDING_ORDER_KEY_PREFIX,
  TTL_ATTRIBUTE,
} from './orders-table';
import { parseItem, readItem } from './read-item';

// A standing order (issue 50, ADR 0058): a Stripe subscription of ours, recorded once, and the
// record of a renewal whose payment failed. Each paid invoice is an ORDER# item like any order's.

export function standingOrderKey(subscriptionId: string): string {
  return `${STANDING_ORDER_KEY_PREFIX}${subscriptionId}`;
}

export function failedRenewalKey(invoiceId: string): string {
  return `${FAILED_RENEWAL_KEY_PREFIX}${invoiceId}`;
}

export const STANDING_ORDER_STATUSES = ['active', 'cancelled'] as const;

/** The standing order as stored; checked when read back. */
export const standingOrderItemSchema = z.object({
  [PARTITION_KEY]: z.string().check(z.startsWith(STANDING_ORDER_KEY_PREFIX)),
  subscriptionId: z.string(),
  livemode: z.boolean(),
  status: z.enum(STANDING_ORDER_STATUSES),
  repeat: z.enum(REPEATS),
  bottles: z.number().check(z.int()),
  /** What each delivery costs, in pence: bottles x 325 + 495. */
  totalPence: z.number().check(z.int()),
  ...customerAndAddressFields,
  /** The dispatch day of the next payment (the subscription's period end, by the one-off rules). */
  nextDelivery: calendarDateSchema,
  /** When Stripe takes the coming payment (the subscription's period end), and the day it will go. */
  nextPaymentAt: z.optional(isoInstant),
  nextPaymentDelivery: z.optional(calendarDateSchema),
  /** The invoice whose order set `nextDelivery` last. */
  lastInvoiceId: z.string(),
  /** The first delivery's dispatch day: delivery `k` goes in its week plus k x 1 or 2 weeks (standingDeliveryDay). */
  firstDelivery: calendarDateSchema,
  /** Which delivery `nextDelivery` is (0 the first): the deliveries after it are not paid yet. */
  lastDeliveryIndex: z.number().check(z.int(), z.nonnegative()),
  /**
   * The last delivery whose payment Stripe voided while the customer or the shop paused it
   * (written at the resume, ADR 0064): no delivery up to it is still to come.
   */
  voidedThrough: z.optional(z.number().check(z.int(), z.nonnegative())),
  /** The key of the standing order's own page (its link token names the subscription id and this). */
  pageKey: z.string(),
  /** Unpaid deliveries the customer skipped, by dispatch day: no payment taken, no bottles held. */
  skippedDeliveries: z.optional(z.array(calendarDateSchema)),
  /** Set while the customer paused it, and while the merchant's shop pause holds its renewals. */
  pausedByCustomerAt: z.optional(isoInstant),
  pausedByShopAt: z.optional(isoInstant),
  createdAt: isoInstant,
  cancelledAt: z.optional(isoInstant),
  /** Who cancelled it: the customer, the merchant, or Stripe (the Dashboard, or a failed payment's end). */
  cancelledBy: z.optional(z.string()),
  /** Bumped by every change of the customer's or the merchant's (changeStandingOrder); absent: never changed. */
  version: z.optional(z.number().check(z.int(), z.nonnegative())),
  /**
   * Set by every change until Stripe follows it and its emails are settled (settleStandingOrder,
   * ADR 0062): the sparse key of OUTBOX_DUE_INDEX, so the reconciler's sweep finds a change a
   * stopped writer left half done, a cancelled standing order's too.
   */
  outboxDueAt: z.optional(isoInstant),
});
export type StandingOrderItem = z.output<typeof standingOrderItemSchema>;

/** Writes the standing order unless it exists: `false` when it did. Active: in ACTIVE_STANDING_ORDER_INDEX. */
export function createStandingOrder(table: ShopTable, item: StandingOrderItem): Promise<boolean> {
  return putIfAbsent(table, {
    ...item,
    ...(item.status === 'active' && { [ACTIVE_STANDING_ORDER_INDEX.partitionKey]: item.subscriptionId }),
  });
}

/** The standing order of a subscription, read strongly consistent; undefined when none. */
export async function readStandingOrder(
  table: ShopTable,
  subscriptionId: string,
): Promise<StandingOrderItem | undefined> {
  return readItem(table, standingOrderKey(subscriptionId), standingOrderItemSchema);
}

/**
 * The subscription ids of the active standing orders: a Scan of the sparse keys-only index only
 * they are in (ACTIVE_STANDING_ORDER_INDEX, ADR 0060), so its cost is theirs, not the table's.
 * Eventually consistent, as an index is: one written a moment ago may be missing, and the next
 * run has it; its record is then read by its key, strongly consistent (readStandingOrder).
 */
export async function listActiveStandingOrderIds(table: ShopTable): Promise<string[]> {
  const ids: string[] = [];
  const scan = { TableName: table.tableName, IndexName: ACTIVE_STANDING_ORDER_INDEX.name };
  for await (const page of paginateScan({ client: table.client }, scan)) {
    for (const item of page.Items ?? []) {
      const pk = item[PARTITION_KEY];
      if (typeof pk === 'string' && pk.startsWith(STANDING_ORDER_KEY_PREFIX)) {
        ids.push(pk.slice(STANDING_ORDER_KEY_PREFIX.length));
      }
    }
  }
  return ids;
}

/**
 * Moves the next delivery forward after a later paid invoice: only ever forward (a late event of
 * an older invoice changes nothing), and never on a cancelled standing order.
 */
export function advanceNextDelivery(
  table: ShopTable,
  subscriptionId: string,
  next: {
    nextDelivery: string;
    invoiceId: string;
    deliveryIndex: number;
    nextPaymentAt?: string;
    nextPaymentDelivery?: string;
  },
): Promise<boolean> {
  const payment = next.nextPaymentAt !== undefined && next.nextPaymentDelivery !== undefined;
  return updateIf(table, standingOrderKey(subscriptionId), {
    // By the delivery's index, not its day: a weather delay may have moved the paid one's day later (ADR 0062).
    ConditionExpression: '#status = :active AND #index < :index',
    UpdateExpression: `SET #next = :next, #last = :invoice, #index = :index${payment ? ', #payAt = :payAt, #payDay = :payDay' : ''}`,
    ExpressionAttributeNames: {
      '#status': 'status',
      '#next': 'nextDelivery',
      '#last': 'lastInvoiceId',
      '#index': 'lastDeliveryIndex',
      ...(payment && { '#payAt': 'nextPaymentAt', '#payDay': 'nextPaymentDelivery' }),
    },
    ExpressionAttributeValues: {
      ':active': 'active',
      ':next': next.nextDelivery,
      ':invoice': next.invoiceId,
      ':index': next.deliveryIndex,
      ...(payment && { ':payAt': next.nextPaymentAt, ':payDay': next.nextPaymentDelivery }),
    },
  });
}

/**
 * A delay moved the last paid delivery's order (ADR 0062): the record's next delivery follows its
 * new day, while the record still names that order's invoice (a later paid one moves it itself).
 * Not a change of the customer's: no version, no email, nothing for Stripe. `false` when not so.
 */
export function moveNextDelivery(
  table: ShopTable,
  subscriptionId: string,
  moved: { invoiceId: string; to: string },
): Promise<boolean> {
  return updateIf(table, standingOrderKey(subscriptionId), {
    ConditionExpression: '#last = :invoice AND #next <> :to',
    UpdateExpression: 'SET #next = :to',
    ExpressionAttributeNames: { '#last': 'lastInvoiceId', '#next': 'nextDelivery' },
    ExpressionAttributeValues: { ':invoice': moved.invoiceId, ':to': moved.to },
  });
}

/**
 * Marks the standing order cancelled, once, with the emails that cancel owes (written with it, so
 * whichever path marks it sends them, ADR 0044's rule): `false` when it was cancelled already.
 */
export function markStandingOrderCancelled(
  table: ShopTable,
  read: StandingOrderItem,
  cancel: { by: string; emails: readonly NewStandingEmail[] },
  now: Date,
): Promise<StandingOrderItem | undefined> {
  return changeStandingOrder(table, read, {
    at: now.toISOString(),
    set: { status: 'cancelled', cancelledAt: now.toISOString(), cancelledBy: cancel.by },
    // Out of the active standing orders' index too: the reconciler sets no more holds for it.
    remove: [ACTIVE_STANDING_ORDER_INDEX.partitionKey],
    emails: cancel.emails,
  });
}

// A standing order's own emails (ADR 0059): each change the customer, the merchant or Stripe makes
// is confirmed by an entry written in the same conditional write as the change, holding exactly
// what the email says, then sent once by a claim on that entry (the send-once protocol, per entry).

/** Top-level attribute of one entry: `standingEmail_<version>_<recipient>`. */
export const STANDING_EMAIL_PREFIX = 'standingEmail_';

/**
 * Each change's confirmation, named as the change the page offers (a cancel's too when the merchant
 * or Stripe cancels), and the merchant's notice of a customer's cancel.
 */
export const STANDING_EMAIL_KINDS = [...STANDING_ORDER_ACTIONS, 'cancelNotice'] as const;
export type StandingEmailKind = (typeof STANDING_EMAIL_KINDS)[number];

/** What a change's email shows, taken from the record as its write stores it. */
export const standingEmailFactsSchema = z.object({
  subscriptionId: z.string(),
  pageKey: z.string(),
  customerName: z.string(),
  customerEmail: z.string(),
  customerPhone: z.string(),
  repeat: z.enum(REPEATS),
  bottles: z.number().check(z.int()),
  totalPence: z.number().check(z.int()),
  /** The skipped delivery's day; and what was refunded for it, when it was paid already. */
  day: z.optional(calendarDateSchema),
  refundedPence: z.optional(z.number().check(z.int())),
  /** A quantity change: the bottles before it. */
  previousBottles: z.optional(z.number().check(z.int())),
  /** A cancel: who cancelled it. */
  by: z.optional(z.string()),
});
export type StandingEmailFacts = z.output<typeof standingEmailFactsSchema>;

export const standingEmailEntrySchema = z.object({
  /** The attribute the entry is stored under (not stored in it; set when read). */
  name: z.string(),
  kind: z.enum(STANDING_EMAIL_KINDS),
  at: isoInstant,
  facts: standingEmailFactsSchema,
  state: emailStateSchema,
  claimedAt: z.optional(isoInstant),
  claimToken: z.optional(z.string()),
  sentAt: z.optional(isoInstant),
  messageId: z.optional(z.string()),
  failureReason: z.optional(z.string()),
});
export type StandingEmailEntry = z.output<typeof standingEmailEntrySchema>;

/** An email a change owes: written `pending`, named for the change's version. */
export type NewStandingEmail = Pick<StandingEmailEntry, 'kind' | 'at' | 'facts'>;

/** What one change writes: the record's fields it sets and removes, and the emails it owes. */
export interface StandingOrderChange {
  /** When it is made: the due marker's time (`outboxDueAt`) when none is set. */
  at: string;
  set?: Partial<Record<keyof StandingOrderItem, unknown>>;
  /** The record's fields, or an index's attribute (ACTIVE_STANDING_ORDER_INDEX's). */
  remove?: ReadonlyArray<keyof StandingOrderItem | typeof ACTIVE_STANDING_ORDER_INDEX.partitionKey>;
  emails: readonly NewStandingEmail[];
}

/**
 * One change of a standing order, conditional on what the change was decided from: the record's
 * status, page key, version and last paid delivery as `read` had them (a paid invoice, another
 * change or a cancel meanwhile fails it). Bumps the version and writes the change's email entries,
 * each named for the new version. Answers the record as written, or undefined when the condition failed.
 */
export async function changeStandingOrder(
  table: ShopTable,
  read: StandingOrderItem,
  change: StandingOrderChange,
): Promise<StandingOrderItem | undefined> {
  const version = (read.version ?? 0) + 1;
  const set: Record<string, unknown> = { ...change.set, version };
  const names: Record<string, string> = {
    '#status': 'status',
    '#pageKey': 'pageKey',
    '#index': 'lastDeliveryIndex',
  };
  const values: Record<string, unknown> = {
    ':status': read.status,
    ':pageKey': read.pageKey,
    ':index': read.lastDeliveryIndex,
  };
  const assignments = Object.entries(set).map(([field, value], i) => {
    names[`#s${i}`] = field;
    values[`:s${i}`] = value;
    return `#s${i} = :s${i}`;
  });
  // Due until settleStandingOrder finds Stripe following and the emails settled (ADR 0062).
  names['#due'] = 'outboxDueAt';
  values[':due'] = change.at;
  assignments.push('#due = if_not_exists(#due, :due)');
  change.emails.forEach((entry, i) => {
    names[`#e${i}`] = standingEmailName(version, entry.kind);
    values[`:e${i}`] = { kind: entry.kind, at: entry.at, facts: entry.facts, state: 'pending' };
    assignments.push(`#e${i} = :e${i}`);
  });
  const removals = (change.remove ?? []).map((field, i) => {
    names[`#r${i}`] = field;
    return `#r${i}`;
  });
  let versionCondition = 'attribute_not_exists(#version)';
  names['#version'] = 'version';
  if (read.version !== undefined) {
    versionCondition = '#version = :version';
    values[':version'] = read.version;
  }
  const written = await updateIf(table, read.pk, {
    ConditionExpression: `#status = :status AND #pageKey = :pageKey AND #index = :index AND ${versionCondition}`,
    UpdateExpression: `SET ${assignments.join(', ')}${removals.length > 0 ? ` REMOVE ${removals.join(', ')}` : ''}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  });
  if (!written) return undefined;
  const after: Record<string, unknown> = { ...read, ...set, outboxDueAt: read.outboxDueAt ?? change.at };
  for (const field of change.remove ?? []) delete after[field];
  return standingOrderItemSchema.parse(after, ENGLISH_MESSAGES);
}

/**
 * Removes the due marker once Stripe follows the record and its emails are settled, unless a
 * change wrote a newer version meanwhile (its writer, or the next sweep, settles that): `false` then.
 */
export function clearStandingOrderDue(
  table: ShopTable,
  settled: Pick<StandingOrderItem, 'subscriptionId' | 'version'>,
): Promise<boolean> {
  const unchanged = settled.version === undefined ? 'attribute_not_exists(#version)' : '#version = :version';
  return updateIf(table, standingOrderKey(settled.subscriptionId), {
    ConditionExpression: unchanged,
    UpdateExpression: 'REMOVE #due',
    ExpressionAttributeNames: { '#version': 'version', '#due': 'outboxDueAt' },
    ...(settled.version !== undefined && { ExpressionAttributeValues: { ':version': settled.version } }),
  });
}

/** The entry's attribute: one per change and recipient (the merchant's notice beside the customer's email). */
function standingEmailName(version: number, kind: StandingEmailKind): string {
  return `${STANDING_EMAIL_PREFIX}${version}_${kind === 'cancelNotice' ? 'merchant' : 'customer'}`;
}

/** A standing order's email entries, oldest first; none when it has none (or no record). */
export async function readStandingEmails(
  table: ShopTable,
  subscriptionId: string,
): Promise<StandingEmailEntry[]> {
  return (await readStandingOrderWithEmails(table, subscriptionId)).emails;
}

/** The record and its email entries (oldest first) in one strongly consistent read; no record: undefined. */
export async function readStandingOrderWithEmails(
  table: ShopTable,
  subscriptionId: string,
): Promise<{ record: StandingOrderItem | undefined; emails: StandingEmailEntry[] }> {
  const { Item } = await table.client.send(
    new GetCommand({
      TableName: table.tableName,
      Key: itemKey(standingOrderKey(subscriptionId)),
      ConsistentRead: true,
    }),
  );
  const emails = Object.entries(Item ?? {})
    .filter(([name]) => name.startsWith(STANDING_EMAIL_PREFIX))
    .map(([name, value]) => standingEmailEntrySchema.parse({ ...value, name }, ENGLISH_MESSAGES))
    .sort((a, b) => entryVersion(a.name) - entryVersion(b.name) || a.name.localeCompare(b.name));
  const record = Item === undefined ? undefined : standingOrderItemSchema.parse(Item, ENGLISH_MESSAGES);
  return { record, emails };
}

function entryVersion(name: string): number {
  return Number.parseInt(name.slice(STANDING_EMAIL_PREFIX.length), 10);
}

/**
 * The entry's claim: `pending`, or `sending` by an attempt older than `staleBefore` (crashed), →
 * `sending` with our token. `false` when another attempt holds it or it is settled.
 */
export function claimStandingEmail(
  table: ShopTable,
  subscriptionId: string,
  entry: { name: string; token: string; now: Date; staleBefore: Date },
): Promise<boolean> {
  return updateIf(table, standingOrderKey(subscriptionId), {
    ConditionExpression: '#e.#state = :pending OR (#e.#state = :sending AND #e.#claimedAt < :staleBefore)',
    UpdateExpression: 'SET #e.#state = :sending, #e.#claimedAt = :now, #e.#token = :token',
    ExpressionAttributeNames: {
      '#e': entry.name,
      '#state': 'state',
      '#claimedAt': 'claimedAt',
      '#token': 'claimToken',
    },
    ExpressionAttributeValues: {
      ':pending': 'pending',
      ':sending': 'sending',
      ':staleBefore': entry.staleBefore.toISOString(),
      ':now': entry.now.toISOString(),
      ':token': entry.token,
    },
  });
}

/** Our claim → `sent` (with the message id), `failed` (refused for good, with why), or back to `pending`. */
export function settleStandingEmail(
  table: ShopTable,
  subscriptionId: string,
  entry: { name: string; token: string; now: Date },
  outcome: { state: 'sent'; messageId: string } | { state: 'failed'; reason: string } | { state: 'pending' },
): Promise<boolean> {
  const detail =
    outcome.state === 'sent'
      ? ', #e.#sentAt = :now, #e.#messageId = :detail'
      : outcome.state === 'failed'
        ? ', #e.#reason = :detail'
        : '';
  return updateIf(table, standingOrderKey(subscriptionId), {
    ConditionExpression: '#e.#state = :sending AND #e.#token = :token',
    UpdateExpression: `SET #e.#state = :final${detail} REMOVE #e.#token`,
    ExpressionAttributeNames: {
      '#e': entry.name,
      '#state': 'state',
      '#token': 'claimToken',
      ...(outcome.state === 'sent' && { '#sentAt': 'sentAt', '#messageId': 'messageId' }),
      ...(outcome.state === 'failed' && { '#reason': 'failureReason' }),
    },
    ExpressionAttributeValues: {
      ':sending': 'sending',
      ':token': entry.token,
      ':final': outcome.state,
      ...(outcome.state === 'sent' && { ':now': entry.now.toISOString(), ':detail': outcome.messageId }),
      ...(outcome.state === 'failed' && { ':detail': outcome.reason }),
    },
  });
}

/**
 * Every standing order of `status`, cancelled ones too (the merchant's list, ADR 0061): a Scan of
 * the table filtered on the STANDING_ORDER# prefix, every page, since the sparse index
 * (ACTIVE_STANDING_ORDER_INDEX) holds only the active ones. Eventually consistent.
 */
export async function listStandingOrders(
  table: ShopTable,
  status: StandingOrderItem['status'],
): Promise<StandingOrderItem[]> {
  const items: StandingOrderItem[] = [];
  for await (const page of paginateScan(
    { client: table.client },
    {
      TableName: table.tableName,
      FilterExpression: 'begins_with(#pk, :prefix) AND #status = :status',
      ExpressionAttributeNames: { '#pk': PARTITION_KEY, '#status': 'status' },
      ExpressionAttributeValues: { ':prefix': STANDING_ORDER_KEY_PREFIX, ':status': status },
    },
  )) {
    for (const item of page.Items ?? []) items.push(parseItem(standingOrderItemSchema, item));
  }
  return items;
}

/** A failed renewal as stored: what both emails say, and their send-once states. */
export const failedRenewalItemSchema = z.object({
  [PARTITION_KEY]: z.string().check(z.startsWith(FAILED_RENEWAL_KEY_PREFIX)),
  reference: z.string(),
  invoiceId: z.string(),
  subscriptionId: z.string(),
  livemode: z.boolean(),
  bottles: z.number().check(z.int()),
  totalPence: z.number().check(z.int()),
  ...customerFields,
  recordedAt: isoInstant,
  [TTL_ATTRIBUTE]: z.number().check(z.int()),
  renewalFailedEmailState: emailStateSchema,
  renewalFailedNoticeEmailState: emailStateSchema,
});
export type FailedRenewalItem = z.output<typeof failedRenewalItemSchema>;

export function readFailedRenewal(
  table: ShopTable,
  invoiceId: string,
): Promise<FailedRenewalItem | undefined> {
  return readItem(table, failedRenewalKey(invoiceId), failedRenewalItemSchema);
}
