import type Stripe from 'stripe';
import type { ClosedDay } from '../../../shared/closed-day';
import { firstComingDispatchDay, formatLondonTime, type IsoDate } from '../../../shared/dispatch';
import type { OverLimit } from '../../../shared/over-limit';
import { normaliseTrackingNumber, TRACKING_NUMBER_MESSAGE } from '../../../shared/tracking-number';
import { logger } from '../../lib/logger';
import { isStripeError } from '../../lib/stripe-errors';
import { closeDispatchDay } from '../capacity/capacity-report';
import { drainOutbox, emailOutcome } from '../emails/outbox-sender';
import type { SendOnceOutcome } from '../emails/send-email-once';
import { type FulfilmentDeps, fulfilCheckout } from '../fulfilment/fulfil-checkout';
import { partialRefundDetail, sendRefundEmail } from '../fulfilment/refunded-order';
import { RefusedError } from '../refusal';
import { followDelayedDelivery } from '../standing-deliveries/delayed-delivery';
import { refundToldBySkip } from '../standing-deliveries/skip-refund';
import { ACTORS, appendHistory, historyEntry } from '../storage/history';
import {
  type DelayReason,
  type ManagedOrder,
  type OutboxKind,
  REFUND_REASONS,
  type RefundReason,
  type RefundRecorder,
} from '../storage/managed-order';
import { DISPATCH_DATE_INDEX, dispatchDayKey, dispatchSortKey, orderKey } from '../storage/orders-table';
import {
  type ChangeResult,
  changeOrder,
  emailOf,
  entriesInOrder,
  type PlannedChange,
  readOrder,
} from '../storage/outbox';
import { findByReference, getRecord, queryDispatchDay } from '../storage/records';
import { nameRecordedRefund, recordRefundedSoFar } from '../storage/refund-writes';
import { hasBottlesToMove, moveDelayedBottles, overLimitOn } from './delayed-bottles';
import { earlyDispatchRefusal } from './early-dispatch';
import { checkDelayTarget, nothingToDelay } from './listing';
import type { ShopDeps, ShopStripeDeps } from './shop-deps';

/** The order a reference names; an order request is refused here, with what to do instead. */
export async function findOrder(deps: Pick<ShopDeps, 'table'>, reference: string): Promise<ManagedOrder> {
  const record = await findByReference(deps.table, reference);
  if (record.kind === 'request') {
    throw new RefusedError(
      `${record.request.reference} is an order request (${record.request.status}), not a paid order: use request-payment or decline.`,
    );
  }
  return record.order;
}

/**
 * The order's due emails sent (its outbox drained), then the order as stored after them, so the answer's
 * Emails list and status say the same; `email`: whether `kind`'s went, written by `change` or left before.
 */
export async function sendDueEmails(
  sessionId: string,
  change: ChangeResult | undefined,
  kind: OutboxKind,
  deps: ShopDeps,
): Promise<{ order: ManagedOrder; email: SendOnceOutcome }> {
  const drained = await drainOutbox(sessionId, deps);
  const order = await readOrder(deps.table, sessionId);
  return { order, email: emailOutcome(order, change?.changed ? change.entries : [], drained, kind) };
}

export interface ActionResult {
  reference: string;
  /** True when this call changed the order; false when it found the change already made. */
  changed: boolean;
  email: SendOnceOutcome;
  order: ManagedOrder;
}

/**
 * `paid → dispatched` and the dispatch email, exactly once: one outbox write (storage/outbox.ts) moves the
 * status, appends `dispatched` by `actor`, writes the email's entry with the facts stored and supersedes an
 * unsent delay or address note; a rerun sends only what a stopped run left. A paid order planned after the
 * coming dispatch day needs `early` (early-dispatch.ts). `seen`: the order as the caller read it.
 * @throws RefusedError for an unknown reference, a request, a refunded order, or one dispatched meanwhile
 *   with another number; PlannedLaterError for an order planned later, without `early`.
 */
export async function markDispatched(
  reference: string,
  options: {
    trackingNumber?: string | undefined;
    actor: string;
    early?: boolean | undefined;
    seen?: ManagedOrder | undefined;
  },
  deps: ShopDeps,
): Promise<ActionResult> {
  const tracking = checkedTrackingNumber(options.trackingNumber);
  const found = options.seen ?? (await findOrder(deps, reference));
  // Dispatched already with another number (a re-import, a rescanned label): that is a correction.
  if (found.status === 'dispatched' && tracking !== undefined && tracking !== found.trackingNumber) {
    return updateTrackingNumber(
      reference,
      { trackingNumber: tracking, actor: options.actor, seen: found },
      deps,
    );
  }
  if (found.status === 'refunded') throw new RefusedError(refundedRefusal(found, deps.now()));
  const tooEarly = earlyDispatchRefusal(found, options.early, deps.now());
  if (tooEarly !== undefined) throw tooEarly;
  const result = await changeOrder(
    deps.table,
    found.sessionId,
    (order) => planDispatch(order, { tracking, actor: options.actor, early: options.early }, deps.now),
    deps.now,
  );
  const { order: after, email } = await sendDueEmails(found.sessionId, result, 'dispatch', deps);
  if (email === 'not-sent' && after.status === 'refunded') {
    throw new RefusedError(
      `${found.reference} was refunded meanwhile: its dispatch email was not sent, the refund email says what happened.`,
    );
  }
  return { reference: found.reference, changed: result.changed, email, order: after };
}

/**
 * The dispatch write planned on the order as stored: null when dispatched already with this number; refused
 * when refunded, dispatched with another number, or delayed to a later week meanwhile.
 */
function planDispatch(
  order: ManagedOrder,
  dispatch: { tracking: string | undefined; actor: string; early?: boolean | undefined },
  clock: () => Date,
): PlannedChange | null {
  const { tracking } = dispatch;
  if (order.status === 'refunded') {
    throw new RefusedError(`${order.reference} was refunded meanwhile: it cannot be dispatched.`);
  }
  if (order.status === 'dispatched') {
    if (tracking === undefined || tracking === order.trackingNumber) return null;
    throw new RefusedError(
      `${order.reference} was dispatched meanwhile with ${order.trackingNumber ?? 'no tracking number'}: look at it again before giving it ${tracking}.`,
    );
  }
  // Delayed to a later week between the read and the write: still paid, and now planned later.
  const delayedMeanwhile = earlyDispatchRefusal(order, dispatch.early, clock());
  if (delayedMeanwhile !== undefined) throw delayedMeanwhile;
  const at = clock().toISOString();
  const history = appendHistory(
    historyEntry(at, dispatch.actor, 'dispatched', tracking ? `tracking ${tracking}` : undefined),
  );
  const written: ManagedOrder = {
    ...order,
    status: 'dispatched',
    dispatchedAt: at,
    ...(tracking && { trackingNumber: tracking }),
  };
  const onPurpose = dispatch.early === true;
  return {
    condition: onPurpose ? '#status = :paid' : '#status = :paid AND dispatchDate <= :coming',
    set: [
      '#status = :dispatched',
      'dispatchedAt = :dispatchedAt',
      '#sort = :sk',
      history.set,
      ...(tracking ? ['trackingNumber = :tracking'] : []),
    ],
    names: { '#status': 'status', '#sort': DISPATCH_DATE_INDEX.sortKey, ...history.names },
    values: {
      ...history.values,
      ':paid': 'paid',
      ...(!onPurpose && { ':coming': firstComingDispatchDay(clock()) }),
      ':dispatched': 'dispatched',
      ':dispatchedAt': at,
      ':sk': dispatchSortKey('dispatched', order.paidAt, order.reference),
      ...(tracking && { ':tracking': tracking }),
    },
    emails: [emailOf('dispatch', written)],
  };
}

/** Why a refunded order cannot be dispatched, in the merchant's words. */
export function refundedRefusal(order: ManagedOrder, now: Date): string {
  return `${order.reference} was refunded${order.refundedAt ? ` on ${formatLondonTime(order.refundedAt, now)}` : ''}: it cannot be dispatched.`;
}

/**
 * A number for one order, as the tracking route takes it: a paid order's first number dispatches it; a
 * dispatched order's number is added or corrected. @throws RefusedError as those two do.
 */
export async function trackOrder(
  reference: string,
  options: { trackingNumber: string; actor: string; early?: boolean | undefined },
  deps: ShopDeps,
): Promise<ActionResult> {
  const order = await findOrder(deps, reference);
  return order.status === 'paid'
    ? markDispatched(reference, options, deps)
    : updateTrackingNumber(reference, options, deps);
}

/** The number as stored (capitals, no spaces), or undefined for none; refused when it is not one. */
function checkedTrackingNumber(typed: string | undefined): string | undefined {
  if (typed === undefined || typed.trim() === '') return undefined;
  const tracking = normaliseTrackingNumber(typed);
  if (tracking === undefined)
    throw new RefusedError(`"${typed.trim().slice(0, 40)}": ${TRACKING_NUMBER_MESSAGE}`);
  return tracking;
}

/**
 * Adds or corrects a dispatched order's tracking number and tells the customer once per change; the same
 * number again sends nothing. An unsent dispatch email is rewritten with the new number instead of an update:
 * one email, not two (outbox.ts). Conditional on the version read: never replaces a number stored meanwhile.
 * @throws RefusedError for a bad number, an order not dispatched, or one changed meanwhile.
 */
export async function updateTrackingNumber(
  reference: string,
  options: { trackingNumber: string; actor: string; seen?: ManagedOrder | undefined },
  deps: ShopDeps,
): Promise<ActionResult> {
  const tracking = checkedTrackingNumber(options.trackingNumber);
  if (tracking === undefined) throw new RefusedError(TRACKING_NUMBER_MESSAGE);
  const found = options.seen ?? (await findOrder(deps, reference));
  if (found.status !== 'dispatched') {
    throw new RefusedError(
      found.status === 'paid'
        ? `${found.reference} is not dispatched yet: mark it dispatched with its tracking number.`
        : `${found.reference} was refunded: its tracking number is no longer used.`,
    );
  }
  const seenVersion = found.version ?? 0;
  const result = await changeOrder(
    deps.table,
    found.sessionId,
    (order) => {
      if (order.status === 'dispatched' && order.trackingNumber === tracking) return null;
      if ((order.version ?? 0) !== seenVersion) {
        throw new RefusedError(
          `${order.reference} changed meanwhile (another tracking number, or refunded): look at it again.`,
        );
      }
      const history = appendHistory(
        historyEntry(
          deps.now().toISOString(),
          options.actor,
          'tracking-updated',
          order.trackingNumber ? `${tracking} (was ${order.trackingNumber})` : tracking,
        ),
      );
      return {
        condition: '#status = :dispatched',
        set: ['trackingNumber = :tracking', history.set],
        names: { '#status': 'status', ...history.names },
        values: { ...history.values, ':dispatched': 'dispatched', ':tracking': tracking },
        emails: [emailOf('trackingUpdate', { ...order, trackingNumber: tracking })],
      };
    },
    deps.now,
  );
  const { order, email } = await sendDueEmails(found.sessionId, result, 'trackingUpdate', deps);
  return { reference: order.reference, changed: result.changed, email, order };
}

export interface DelayResult {
  from: IsoDate;
  to: IsoDate;
  /** Orders this run moved, and every order of the delay whose email it sent. */
  moved: string[];
  emailed: string[];
  /** `to` has now sold more than its limit: the merchant chose the day, so nothing is refused. */
  overLimit?: OverLimit;
  /** The day this run closed (`from`, when checkout could still sell it), and how it was before. */
  closed?: ClosedDay;
}

/**
 * Moves one dispatch day's `paid` orders to a later working day (checkDelayTarget), each by its own
 * conditional update that appends `delayed` and makes its delay email due, so a rerun sends only what a
 * stopped run left. Their sold bottles move too, whatever `to`'s limit (delayed-bottles.ts). `from` is closed
 * first: the merchant could not dispatch it, so it is not sold again until reopened. Requests stay on the day
 * their customer was told (request-capacity.ts). An empty day is refused, naming the days with orders.
 */
export async function delayDispatch(
  input: {
    from: IsoDate;
    to: IsoDate;
    reason: DelayReason;
    actor: string;
    /** Only these orders (the weather check's "at risk"); absent: every paid order of the day. */
    references?: readonly string[] | undefined;
  },
  deps: ShopDeps,
): Promise<DelayResult> {
  const { from, to, references } = input;
  checkDelayTarget(from, to, deps.now());
  const now = deps.now().toISOString();
  const moved: string[] = [];
  const waiting = (await queryDispatchDay(deps.table, from, 'paid')).filter(
    (r) => r.kind === 'order' && (references === undefined || references.includes(r.order.reference)),
  );
  // Closed first, whatever the reason, so no checkout takes the bottles given back; a delay of some orders
  // leaves the day open, as the merchant still dispatches the rest.
  const closed =
    waiting.length > 0 && references === undefined ? await closeDispatchDay(deps, from) : undefined;
  for (const record of waiting) {
    if (record.kind !== 'order') continue;
    const order = record.order;
    if (!(await delayOrder(order, { ...input, at: now }, deps))) continue;
    moved.push(order.reference);
    await moveDelayedBottles(order, deps);
  }
  // Every order this delay moved, now or in an earlier run that stopped before its emails.
  const delayed = (await queryDispatchDay(deps.table, to)).flatMap((record) =>
    record.kind === 'order' && record.order.delayedFrom === from ? [record.order] : [],
  );
  // Nothing moved now nor by an earlier run of this delay: the day held nothing to move.
  if (moved.length === 0 && delayed.length === 0) throw await nothingToDelay(from, deps);
  // Bottles an earlier run of this delay left counted on the old day (it stopped), before emails.
  for (const order of delayed) if (hasBottlesToMove(order)) await moveDelayedBottles(order, deps);
  for (const order of delayed) await followDelayedDelivery(order, deps);
  const overLimit = await overLimitOn(deps, to);
  const emailed = await sendDelayEmails(delayed, deps);
  return { from, to, moved, emailed, ...(overLimit && { overLimit }), ...(closed && { closed }) };
}

/** One order moved by its own conditional update (still `paid`, still on `from`); false when it had moved. */
async function delayOrder(
  order: ManagedOrder,
  delay: { from: IsoDate; to: IsoDate; reason: DelayReason; actor: string; at: string },
  deps: ShopDeps,
): Promise<boolean> {
  const { from, to, reason, at: now } = delay;
  const result = await changeOrder(
    deps.table,
    order.sessionId,
    (stored) => {
      if (stored.status !== 'paid' || stored.dispatchDate !== from) return null;
      const history = appendHistory(historyEntry(now, delay.actor, 'delayed', `${from} to ${to}, ${reason}`));
      const written: ManagedOrder = {
        ...stored,
        dispatchDate: to,
        delayedFrom: from,
        delayReason: reason,
        delayedAt: now,
      };
      return {
        condition: '#status = :paid AND dispatchDate = :from',
        set: [
          'dispatchDate = :to',
          '#day = :day',
          'delayedFrom = :from',
          'delayReason = :reason',
          'delayedAt = :delayedAt',
          history.set,
        ],
        names: { '#status': 'status', '#day': DISPATCH_DATE_INDEX.partitionKey, ...history.names },
        values: {
          ...history.values,
          ':paid': 'paid',
          ':from': from,
          ':to': to,
          ':day': dispatchDayKey(to),
          ':reason': reason,
          ':delayedAt': now,
        },
        emails: [emailOf('delay', written)],
      };
    },
    deps.now,
  );
  return result.changed;
}

/** Sends the delay emails still due on the delayed orders; the references of those now sent. */
async function sendDelayEmails(delayed: readonly ManagedOrder[], deps: ShopDeps): Promise<string[]> {
  const emailed: string[] = [];
  for (const order of delayed) {
    const { email } = await sendDueEmails(order.sessionId, undefined, 'delay', deps);
    if (email === 'sent') emailed.push(order.reference);
  }
  return emailed;
}

/**
 * Who the refund email went out from: this run, another path, or nobody. The claim does not record its
 * holder, so the other sender is named as either it can be: the `charge.refunded` webhook or a second refund.
 */
export type RefundEmailReport =
  | { state: 'sent'; by: 'this run' | 'the Stripe webhook' | 'the Stripe webhook or another refund request' }
  | { state: 'being sent' | 'not sent' };

export interface RefundResult extends ActionResult {
  refundId: string;
  /** What Stripe refunded, in pence: the total, or what part refunds left of it. */
  pence: number;
  refundEmail: RefundEmailReport;
}

/**
 * A full refund through Stripe, then `refunded` and the refund email, exactly once. The reason is stored on
 * the order (and in the refund's metadata) before Stripe is asked, because Stripe's `charge.refunded` may
 * reach the webhook (recordStripeRefund) before this call has its answer. The idempotency key
 * `refund-<session id>` (plus the admin request's `intention`) makes a retry return the same refund. Stripe's
 * refusal takes the reason back; a refunded order is refused before any call (maybe a Dashboard refund).
 */
export async function refundOrder(
  reference: string,
  input: RefundInput,
  deps: ShopStripeDeps,
): Promise<RefundResult> {
  return refundFoundOrder(await findOrder(deps, reference), input, deps);
}

type RefundInput = { reason: RefundReason; actor: string; intention?: string | undefined };

/** {@link refundOrder} of an order already read by key: the standing order's page may not query the index. */
export async function refundFoundOrder(
  found: ManagedOrder,
  input: RefundInput,
  deps: ShopStripeDeps,
): Promise<RefundResult> {
  const { reason, actor } = input;
  let order = found;
  const requestedAt = deps.now().toISOString();
  // The reason stored before Stripe is asked: the refund email shows it, so a webhook write planned
  // without it must plan again.
  const intent = await changeRefundIntent(order, deps, {
    set: ['refundReason = :reason', 'refundRequestedAt = :requestedAt', 'refundRequestedBy = :actor'],
    values: { ':reason': reason, ':requestedAt': requestedAt, ':actor': actor },
  });
  // Refunded already (here, or in the Dashboard): nothing is asked of Stripe.
  if (!intent.changed) return refuseRefunded(intent.order, deps);
  // Stripe said no: the order goes back to as it was, so a later Dashboard refund is not given this reason.
  const withdrawIntent = () =>
    changeRefundIntent(order, deps, {
      applies: (stored) => stored.refundRequestedAt === requestedAt,
      condition: 'refundRequestedAt = :requestedAt',
      remove: ['refundReason', 'refundRequestedAt', 'refundRequestedBy'],
      values: { ':requestedAt': requestedAt },
    });
  const refund = await askStripeToRefund(order, input, deps, withdrawIntent);
  if (refund.status === 'failed' || refund.status === 'canceled') {
    await withdrawIntent();
    throw new RefusedError(
      `Stripe's refund ${refund.id} of ${order.reference} is ${refund.status}${refund.failure_reason ? ` (${refund.failure_reason})` : ''}. The order is unchanged.`,
    );
  }
  const changed = await moveToRefunded(order, { refundId: refund.id, reason, by: 'command', actor }, deps);
  if (!changed) {
    // The webhook recorded this refund first; its charge may not have named the refund.
    await nameRecordedRefund(deps.table, order.sessionId, refund.id);
  }
  const email = await sendRefundEmail(order.sessionId, deps);
  order = await readOrder(deps.table, order.sessionId);
  return {
    reference: order.reference,
    changed,
    email,
    order,
    refundId: refund.id,
    pence: refund.amount,
    refundEmail: refundEmailReport(order, email),
  };
}

/**
 * One write of a refund's intent (stored, or taken back while `applies`) on an order still paid or
 * dispatched, none once refunded: through the outbox's writer, though it sends no email.
 */
function changeRefundIntent(
  order: ManagedOrder,
  deps: ShopDeps,
  change: {
    applies?: (stored: ManagedOrder) => boolean;
    condition?: string;
    set?: string[];
    remove?: string[];
    values: Record<string, string>;
  },
): Promise<ChangeResult> {
  return changeOrder(
    deps.table,
    order.sessionId,
    (stored) =>
      stored.status === 'refunded' || change.applies?.(stored) === false
        ? null
        : {
            condition: `#status IN (:paid, :dispatched)${change.condition ? ` AND ${change.condition}` : ''}`,
            ...(change.set && { set: change.set }),
            ...(change.remove && { remove: change.remove }),
            names: { '#status': 'status' },
            values: { ':paid': 'paid', ':dispatched': 'dispatched', ...change.values },
            emails: [],
          },
    deps.now,
  );
}

/** Stripe's refund of what is left of the charge, keyed by the order (and the request's intention). */
async function askStripeToRefund(
  order: ManagedOrder,
  input: RefundInput,
  deps: ShopStripeDeps,
  withdrawIntent: () => Promise<unknown>,
): Promise<Stripe.Refund> {
  const paymentIntent = order.paymentIntentId ?? (await paymentIntentOf(order.sessionId, deps.stripe));
  try {
    // No amount: Stripe refunds what is left of the charge, part refunds made in the Dashboard included.
    return await deps.stripe.refunds.create(
      { payment_intent: paymentIntent, metadata: { reference: order.reference, reason: input.reason } },
      // An admin request's intention keys its own refund: its retry after a lost answer gets it back.
      {
        idempotencyKey:
          input.intention === undefined
            ? `refund-${order.sessionId}`
            : `refund-${order.sessionId}-intention-${input.intention}`,
      },
    );
  } catch (error) {
    // A connection or API error may hide a refund Stripe did make: the reason stays for its webhook.
    if (isStripeError(error) && error.type !== 'StripeConnectionError' && error.type !== 'StripeAPIError') {
      await withdrawIntent();
      throw new RefusedError(
        `Stripe refused the refund of ${order.reference}: ${error.message}${error.code ? ` (${error.code})` : ''}. The order is unchanged.`,
        { cause: error },
      );
    }
    throw error;
  }
}

/** Finishes a stopped earlier run's refund email, then refuses: the refund itself happened already. */
async function refuseRefunded(order: ManagedOrder, deps: ShopDeps): Promise<never> {
  const email = await sendRefundEmail(order.sessionId, deps);
  throw new RefusedError(
    `${order.reference} was already refunded${order.refundedAt ? ` on ${formatLondonTime(order.refundedAt, deps.now())}` : ''}${order.refundId ? ` (${order.refundId})` : ''}: nothing refunded again${email === 'sent' ? '; its refund email, not sent before, was sent now' : ''}.`,
  );
}

/** What became of the refund email, from the order as read after this run's attempt to send it. */
function refundEmailReport(order: ManagedOrder, thisRun: SendOnceOutcome): RefundEmailReport {
  if (thisRun === 'sent') return { state: 'sent', by: 'this run' };
  const entry = entriesInOrder(order).findLast(([, e]) => e.kind === 'refund')?.[1];
  switch (entry?.state ?? order.refundEmailState) {
    case 'sent':
      return {
        state: 'sent',
        by:
          order.refundRecordedBy === 'webhook'
            ? 'the Stripe webhook'
            : 'the Stripe webhook or another refund request',
      };
    case 'sending':
      return { state: 'being sent' };
    default:
      return { state: 'not sent' };
  }
}

export async function paymentIntentOf(sessionId: string, stripe: Stripe): Promise<string> {
  // A standing order's delivery is keyed by its invoice (ADR 0058): its payment is the invoice's.
  const pi = sessionId.startsWith('in_')
    ? (await invoicePayment(sessionId, stripe))?.payment.payment_intent
    : (await stripe.checkout.sessions.retrieve(sessionId)).payment_intent;
  const id = typeof pi === 'string' ? pi : pi?.id;
  if (!id) throw new RefusedError(`Stripe has no payment for ${sessionId}: nothing to refund.`);
  return id;
}

async function invoicePayment(invoiceId: string, stripe: Stripe) {
  const invoice = await stripe.invoices.retrieve(invoiceId, { expand: ['payments'] });
  return invoice.payments?.data.find((entry) => entry.status === 'paid') ?? invoice.payments?.data[0];
}

/**
 * `paid`/`dispatched` → `refunded`, making the refund email due; false otherwise. The webhook keeps a reason
 * the command stored before asking Stripe, and writes its own (metadata, or `stripe`) only if none.
 */
async function moveToRefunded(
  order: ManagedOrder,
  refund: {
    refundId: string | undefined;
    reason: RefundReason | 'stripe';
    by: RefundRecorder;
    /** Who the history names: the merchant or operator who asked, or the Stripe Dashboard. */
    actor: string;
  },
  deps: Pick<ShopDeps, 'table' | 'now'>,
): Promise<boolean> {
  const result = await changeOrder(
    deps.table,
    order.sessionId,
    (stored) => {
      if (stored.status !== 'paid' && stored.status !== 'dispatched') return null;
      const now = deps.now().toISOString();
      // The reason the order will hold: the webhook keeps one the command stored before asking Stripe.
      const reason = refund.by === 'command' ? refund.reason : (stored.refundReason ?? refund.reason);
      const history = appendHistory(
        historyEntry(now, refund.actor, 'refunded', [reason, refund.refundId].filter(Boolean).join(', ')),
      );
      const written: ManagedOrder = {
        ...stored,
        status: 'refunded',
        refundedAt: now,
        refundReason: reason,
        refundRecordedBy: refund.by,
        ...(refund.refundId && { refundId: refund.refundId }),
      };
      return {
        condition: '#status IN (:paid, :dispatched)',
        set: [
          '#status = :refunded',
          'refundedAt = :refundedAt',
          '#sort = :sk',
          'refundReason = :reason',
          'refundRecordedBy = :by',
          ...(refund.refundId ? ['refundId = :refundId'] : []),
          history.set,
        ],
        names: { '#status': 'status', '#sort': DISPATCH_DATE_INDEX.sortKey, ...history.names },
        values: {
          ...history.values,
          ':paid': 'paid',
          ':dispatched': 'dispatched',
          ':refunded': 'refunded',
          ':refundedAt': now,
          ':sk': dispatchSortKey('refunded', stored.paidAt, stored.reference),
          ':reason': reason,
          ':by': refund.by,
          ...(refund.refundId && { ':refundId': refund.refundId }),
        },
        emails: refundToldBySkip(stored) ? [] : [emailOf('refund', written)],
      };
    },
    deps.now,
  );
  return result.changed;
}

/**
 * Who made a refund the webhook records: whoever stored its intent; else the shop (metadata has a reason but
 * the order names nobody: from before history was kept); else the Stripe Dashboard.
 */
function refundActor(order: ManagedOrder, metadataReason: string | undefined): string {
  if (order.refundRequestedBy !== undefined) return order.refundRequestedBy;
  if (order.refundRequestedAt !== undefined || REFUND_REASONS.some((r) => r === metadataReason)) {
    return ACTORS.shop;
  }
  return ACTORS.stripeDashboard;
}

/** The shop's table and sender, Stripe, and fulfilment's deps to record an order that does not exist yet. */
export type RefundRecorderDeps = ShopDeps & FulfilmentDeps;

export type StripeRefundOutcome = 'recorded' | 'already-refunded' | 'partial' | 'no-order' | 'not-ours';

/**
 * Records a verified `charge.refunded`: a Dashboard refund, or the command's own arriving before its answer;
 * both end `refunded` with one refund email. A refund of a paid session not recorded yet (a late `completed`)
 * records the order through fulfilCheckout, which sees the refund; then a consistent re-read moves an order a
 * racing `completed` wrote as paid. A partial refund leaves the order to the merchant: kept once per amount.
 */
export async function recordStripeRefund(
  charge: {
    paymentIntentId: string;
    fullyRefunded: boolean;
    refundId: string | undefined;
    /** The refund's `metadata.reason`, when the event's charge lists the refund. */
    metadataReason?: string | undefined;
    /** The charge's `amount_refunded` (pence): all its refunds so far. */
    amountRefundedPence?: number | undefined;
  },
  deps: RefundRecorderDeps,
): Promise<StripeRefundOutcome> {
  const sessions = await deps.stripe.checkout.sessions.list({
    payment_intent: charge.paymentIntentId,
    limit: 1,
  });
  const session = sessions.data[0];
  if (!session) return 'not-ours';
  let record = await getRecord(deps.table, orderKey(session.id));
  let bornRefunded = false;
  if (record?.kind !== 'order') {
    const recorded = await fulfilCheckout(session.id, deps);
    if (recorded.outcome === 'not-ours') return 'not-ours';
    // Not paid, or not what we priced: no order to refund (needs-review is the merchant's already).
    if (recorded.outcome !== 'fulfilled' && recorded.outcome !== 'refunded') return 'no-order';
    bornRefunded = recorded.outcome === 'refunded' && recorded.orderCreated;
    record = await getRecord(deps.table, orderKey(session.id));
    if (record?.kind !== 'order') throw new Error(`Order ${session.id} was recorded but cannot be read`);
  }
  const order = record.order;
  if (!charge.fullyRefunded) {
    await recordPartialRefund(order, charge.amountRefundedPence, deps);
    return 'partial';
  }
  const changed =
    order.status === 'refunded'
      ? false
      : await moveToRefunded(
          order,
          {
            refundId: charge.refundId,
            reason: REFUND_REASONS.find((r) => r === charge.metadataReason) ?? 'stripe',
            by: 'webhook',
            actor: refundActor(order, charge.metadataReason),
          },
          deps,
        );
  await sendRefundEmail(order.sessionId, deps);
  return changed || bornRefunded ? 'recorded' : 'already-refunded';
}

/** A partial refund made in Stripe: logged, kept with a `partly-refunded` entry once per amount so far. */
async function recordPartialRefund(
  order: ManagedOrder,
  amountRefundedPence: number | undefined,
  deps: Pick<ShopDeps, 'table' | 'now'>,
): Promise<void> {
  // The shop's own part refund: its command (part-refund.ts) records it, with its own history line,
  // before or after this event; nothing to tell the merchant about.
  if (
    order.partRefundPending !== undefined ||
    (amountRefundedPence !== undefined && (order.partlyRefundedPence ?? 0) >= amountRefundedPence)
  )
    return;
  logger.warn('Partial refund made in Stripe: order left as it is', {
    reference: order.reference,
    ...(amountRefundedPence !== undefined && { amountRefundedPence }),
  });
  if (amountRefundedPence === undefined || order.status === 'refunded') return;
  await recordRefundedSoFar(
    deps.table,
    order.sessionId,
    amountRefundedPence,
    historyEntry(
      deps.now().toISOString(),
      ACTORS.stripeDashboard,
      'partly-refunded',
      partialRefundDetail(amountRefundedPence, order.totalPence),
    ),
  );
}
