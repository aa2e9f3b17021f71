import { ReturnValue } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { OrderStatus } from '../../../shared/record-status';
import { RefusedError } from '../refusal';
import { conditionalWrite } from './conditional-writes';
import type { EmailFacts, ManagedOrder, OutboxEntry, OutboxKind } from './managed-order';
import { itemKey, orderKey, type ShopTable } from './orders-table';
import { getRecord, toShopRecord } from './records';
import { emailAttributes } from './send-once';

// The transactional outbox (docs/decisions/0044-order-email-outbox.md): an email's facts are written in the
// same conditional UpdateItem as the change, so it can only say what one write stored.

/** One email a change owes the customer, with the facts of the order as this change wrote it. */
export type PlannedEmail = { [K in OutboxKind]: { kind: K; facts: EmailFacts<K> } }[OutboxKind];

/** What one change writes: its own SET and REMOVE clauses, names, values, and what must still hold. */
export interface PlannedChange {
  set?: readonly string[];
  remove?: readonly string[];
  names?: Record<string, string>;
  values?: Record<string, unknown>;
  /** Beyond the version read (always checked): what this change was checked against. */
  condition?: string;
  emails: readonly PlannedEmail[];
}

/** A pure decision on the order read consistently: the change, or `null`; throws a typed error to refuse. */
export type Planner = (order: ManagedOrder) => PlannedChange | null;

/** How often a change is planned again after another write landed between its read and its write. */
export const CHANGE_ATTEMPTS = 8;

export type ChangeResult =
  | {
      changed: true;
      /** The order as this write left it. */
      order: ManagedOrder;
      /** The keys of the entries this write added, in send order. */
      entries: string[];
    }
  | { changed: false; order: ManagedOrder };

/** The key of the `seq`th entry one write of `version` adds: `e<version>`, then `e<version>_<seq>`. */
export function entryKey(version: number, seq: number): string {
  return seq === 0 ? `e${version}` : `e${version}_${seq}`;
}

/** The order's entries, oldest first: by version, then by their place in their write. */
export function entriesInOrder(order: Pick<ManagedOrder, 'outbox'>): Array<[string, OutboxEntry]> {
  return Object.entries(order.outbox ?? {}).sort(
    ([, a], [, b]) => a.version - b.version || (a.seq ?? 0) - (b.seq ?? 0),
  );
}

/** Leaves out the fields the order does not have, as DynamoDB stores a map. */
function defined<T extends Record<string, unknown>>(facts: T): T {
  return Object.fromEntries(Object.entries(facts).filter(([, value]) => value !== undefined)) as T;
}

/** The email's facts from the order as the change writes it, never from a later read. Pure. */
export function emailOf(kind: OutboxKind, order: ManagedOrder): PlannedEmail {
  const common = {
    sessionId: order.sessionId,
    reference: order.reference,
    customerName: order.customerName,
    customerEmail: order.customerEmail,
    pageKey: order.pageKey,
  };
  // What the dispatch and delay emails both say of the parcel: its bottles and its day.
  const parcel = { ...common, bottles: order.bottles, dispatchDate: order.dispatchDate };
  switch (kind) {
    case 'dispatch':
      return {
        kind,
        facts: defined({
          ...parcel,
          dispatchedAt: order.dispatchedAt,
          deliveryAddress: order.deliveryAddress,
          postcode: order.postcode,
          trackingNumber: order.trackingNumber,
        }),
      };
    case 'trackingUpdate':
      return { kind, facts: defined({ ...common, trackingNumber: order.trackingNumber ?? '' }) };
    case 'delay':
      return {
        kind,
        facts: defined({
          ...parcel,
          delayedFrom: order.delayedFrom ?? order.dispatchDate,
          delayReason: order.delayReason ?? 'other',
          delayedAt: order.delayedAt,
        }),
      };
    case 'addressCorrected':
      return {
        kind,
        facts: defined({
          ...common,
          deliveryAddress: order.deliveryAddress,
          postcode: order.postcode,
          customerPhone: order.customerPhone,
          dispatchDate: order.dispatchDate,
        }),
      };
    case 'partRefund': {
      const part = order.partRefunds?.at(-1);
      if (part === undefined) throw new Error(`${order.reference} has no part refund to tell`);
      return {
        kind,
        facts: defined({
          ...common,
          part,
          partlyRefundedPence: order.partlyRefundedPence ?? part.pence,
          totalPence: order.totalPence,
        }),
      };
    }
    case 'refund':
      return {
        kind,
        facts: defined({
          ...common,
          bottles: order.bottles,
          totalPence: order.totalPence,
          refundReason: order.refundReason,
          partlyRefundedPence: order.partlyRefundedPence,
        }),
      };
    case 'pageLink':
      return { kind, facts: defined(common) };
  }
}

/** Kinds a new entry of each kind replaces while they are still pending. */
const REPLACES: Record<OutboxKind, readonly OutboxKind[]> = {
  // A dispatch email carries the address and the number: an older note of either says less.
  dispatch: ['dispatch', 'delay', 'addressCorrected'],
  delay: ['delay'],
  trackingUpdate: ['trackingUpdate'],
  addressCorrected: ['addressCorrected'],
  partRefund: [],
  // "Refunded" makes every other unsent note about the parcel untrue.
  refund: ['dispatch', 'delay', 'trackingUpdate', 'addressCorrected', 'partRefund'],
  pageLink: ['pageLink'],
};

/** The entries a change adds, and the pending entries it marks superseded in the same write. */
export interface Superseded {
  add: PlannedEmail[];
  supersede: string[];
}

/**
 * Which pending entries new emails replace (pure); a `sending` one is never touched. A tracking number while
 * the dispatch email is pending becomes a new dispatch email (one, not two); a new page link re-issues every
 * pending entry after it, so none carries the old key.
 */
export function supersede(outbox: ManagedOrder['outbox'], emails: readonly PlannedEmail[]): Superseded {
  const pending = entriesInOrder({ outbox }).filter(([, entry]) => entry.state === 'pending');
  const gone = new Set<string>();
  const add: PlannedEmail[] = [];
  const open = () => pending.filter(([key]) => !gone.has(key));
  for (const email of emails) {
    let planned: PlannedEmail = email;
    if (planned.kind === 'trackingUpdate') {
      const dispatch = open().find(([, entry]) => entry.kind === 'dispatch');
      if (dispatch?.[1].kind === 'dispatch') {
        planned = {
          kind: 'dispatch',
          facts: { ...dispatch[1].facts, trackingNumber: planned.facts.trackingNumber },
        };
      }
    }
    const replaced = REPLACES[planned.kind];
    for (const [key, entry] of open()) if (replaced.includes(entry.kind)) gone.add(key);
    add.push(planned);
    if (planned.kind === 'pageLink') {
      const pageKey = planned.facts.pageKey;
      for (const [key, entry] of open()) {
        gone.add(key);
        add.push({ kind: entry.kind, facts: { ...entry.facts, pageKey } } as PlannedEmail);
      }
    }
  }
  return { add, supersede: [...gone] };
}

/** The update's clauses, added to in place as the writer goes. */
interface UpdateClauses {
  names: Record<string, string>;
  values: Record<string, unknown>;
  set: string[];
  remove: string[];
}

/** The admin views read each kind's flat state, the newest entry's: those this write touches change. */
function setFlatStates(
  order: ManagedOrder,
  write: { added: ReadonlyArray<readonly [string, OutboxEntry]>; gone: readonly string[] },
  clauses: UpdateClauses,
): void {
  const { names, values, set, remove } = clauses;
  const { added: entries, gone } = write;
  const latest = new Map<OutboxKind, OutboxEntry['state']>();
  const touched = new Set<OutboxKind>();
  for (const [key, entry] of entriesInOrder(order)) {
    const superseded = gone.includes(key);
    if (superseded) touched.add(entry.kind);
    latest.set(entry.kind, superseded ? 'superseded' : entry.state);
  }
  for (const [, entry] of entries) {
    touched.add(entry.kind);
    latest.set(entry.kind, 'pending');
  }
  for (const kind of touched) {
    const state = latest.get(kind);
    const a = emailAttributes(kind);
    names[`#flat_${kind}`] = a.state;
    values[`:flat_${kind}`] = state;
    set.push(`#flat_${kind} = :flat_${kind}`);
    if (state === 'pending') {
      names[`#flat_${kind}_sentAt`] = a.sentAt;
      remove.push(`#flat_${kind}_sentAt`);
    }
  }
}

/** The update the writer sends: the change's, the version, the entries, the marks and the due marker. */
export function outboxUpdate(
  order: ManagedOrder,
  change: PlannedChange,
  now: Date,
): { update: Record<string, unknown>; entries: string[] } {
  const read = order.version ?? 0;
  const version = read + 1;
  const at = now.toISOString();
  const { add, supersede: gone } = supersede(order.outbox, change.emails);
  const names: Record<string, string> = { ...change.names, '#outboxVersion': 'version' };
  const values: Record<string, unknown> = { ...change.values, ':outboxVersion': version };
  const set = [...(change.set ?? []), '#outboxVersion = :outboxVersion'];
  const remove = [...(change.remove ?? [])];
  const conditions = [read === 0 ? 'attribute_not_exists(#outboxVersion)' : '#outboxVersion = :outboxRead'];
  if (read !== 0) values[':outboxRead'] = read;
  if (change.condition) conditions.push(`(${change.condition})`);

  const entries = add.map((email, seq) => {
    const entry = { ...email, version, seq, at, state: 'pending' } as OutboxEntry;
    return [entryKey(version, seq), entry] as const;
  });
  if (entries.length > 0 || gone.length > 0) names['#outbox'] = 'outbox';
  if (order.outbox === undefined) {
    if (entries.length > 0) {
      set.push('#outbox = :outboxEntries');
      values[':outboxEntries'] = Object.fromEntries(entries);
    }
  } else {
    entries.forEach(([key, entry], i) => {
      names[`#outboxNew${i}`] = key;
      values[`:outboxNew${i}`] = entry;
      set.push(`#outbox.#outboxNew${i} = :outboxNew${i}`);
    });
  }
  if (gone.length > 0) {
    names['#outboxState'] = 'state';
    values[':outboxPending'] = 'pending';
    values[':outboxSuperseded'] = 'superseded';
  }
  gone.forEach((key, i) => {
    names[`#outboxOld${i}`] = key;
    set.push(`#outbox.#outboxOld${i}.#outboxState = :outboxSuperseded`);
    conditions.push(`#outbox.#outboxOld${i}.#outboxState = :outboxPending`);
  });

  setFlatStates(order, { added: entries, gone }, { names, values, set, remove });
  if (entries.length > 0) {
    names['#outboxDueAt'] = 'outboxDueAt';
    values[':outboxDueAt'] = at;
    set.push('#outboxDueAt = if_not_exists(#outboxDueAt, :outboxDueAt)');
  }
  return {
    update: {
      ConditionExpression: conditions.join(' AND '),
      UpdateExpression: `SET ${set.join(', ')}${remove.length > 0 ? ` REMOVE ${remove.join(', ')}` : ''}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
    entries: entries.map(([key]) => key),
  };
}

/**
 * The five kinds sent by the flat protocol before the outbox (ADR 0044), with the status each describes: a
 * flag left `pending` is sent only while the order is still in it.
 */
const LEGACY_KINDS = {
  delay: 'paid',
  addressCorrected: 'paid',
  dispatch: 'dispatched',
  trackingUpdate: 'dispatched',
  refund: 'refunded',
} as const satisfies Partial<Record<OutboxKind, OrderStatus>>;

/**
 * What an order from before the outbox still owes: each kind a crashed sender left `pending` with no entry of
 * its kind (pure); written through changeOrder they become entries, each taken over once.
 */
export function legacyEmails(order: ManagedOrder): PlannedEmail[] {
  const kinds = new Set(entriesInOrder(order).map(([, entry]) => entry.kind));
  const flags: Record<keyof typeof LEGACY_KINDS, ManagedOrder['dispatchEmailState']> = {
    delay: order.delayEmailState,
    addressCorrected: order.addressCorrectedEmailState,
    dispatch: order.dispatchEmailState,
    trackingUpdate: order.trackingUpdateEmailState,
    refund: order.refundEmailState,
  };
  return (Object.keys(LEGACY_KINDS) as Array<keyof typeof LEGACY_KINDS>)
    .filter((kind) => flags[kind] === 'pending' && order.status === LEGACY_KINDS[kind] && !kinds.has(kind))
    .map((kind) => emailOf(kind, order));
}

/** Reads an order consistently; it must exist. */
export async function readOrder(table: ShopTable, sessionId: string): Promise<ManagedOrder> {
  const record = await getRecord(table, orderKey(sessionId));
  if (record?.kind !== 'order') throw new Error(`Order ${sessionId} disappeared`);
  return record.order;
}

/**
 * The one writer of every fact an update email shows: reads, asks `plan`, and writes in one UpdateItem the
 * next version, the emails' entries, what they supersede and the due marker, conditional on the version read;
 * a write in between makes it plan again, at most CHANGE_ATTEMPTS times.
 * @throws what `plan` throws; RefusedError when the order kept changing under it.
 */
export async function changeOrder(
  table: ShopTable,
  sessionId: string,
  plan: Planner,
  now: () => Date,
): Promise<ChangeResult> {
  for (let attempt = 0; attempt < CHANGE_ATTEMPTS; attempt += 1) {
    const order = await readOrder(table, sessionId);
    const change = plan(order);
    if (change === null) return { changed: false, order };
    const { update, entries } = outboxUpdate(order, change, now());
    let written: Record<string, unknown> | undefined;
    const ok = await conditionalWrite(async () => {
      const answer = await table.client.send(
        new UpdateCommand({
          TableName: table.tableName,
          Key: itemKey(order.pk),
          ...update,
          ReturnValues: ReturnValue.ALL_NEW,
        }),
      );
      written = answer.Attributes;
    });
    if (ok && written !== undefined) {
      const record = toShopRecord(written);
      if (record.kind !== 'order') throw new Error(`${order.pk} is not an order`);
      return { changed: true, order: record.order, entries };
    }
  }
  throw new RefusedError('The order changed meanwhile, again and again: look at it again.');
}

/**
 * Turns a pre-outbox order's `pending` flags into entries in one conditional change, so each is sent once;
 * the due marker brings the order to the reconciler's sweep. Whether it wrote anything.
 */
export async function adoptLegacyEmails(
  table: ShopTable,
  sessionId: string,
  now: () => Date,
): Promise<boolean> {
  const result = await changeOrder(
    table,
    sessionId,
    (order) => {
      const emails = legacyEmails(order);
      return emails.length > 0 ? { emails } : null;
    },
    now,
  );
  return result.changed;
}
