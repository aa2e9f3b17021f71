import { createHash, randomBytes } from 'node:crypto';
import type { CheckoutRequest } from '../../../shared/checkout-request';
import { orderReference } from '../../../shared/checkout-status';
import {
  DISPATCH_WINDOW_WEEKS,
  debitDispatchDate,
  formatDispatchDate,
  formatLondonTime,
  type IsoDate,
  nextDispatchDate,
} from '../../../shared/dispatch';
import { penceToPounds, type Quote, quoteOrder } from '../../../shared/pricing';
import { logger } from '../../lib/logger';
import { emitMetric, METRIC_NAMES, type MetricsWriter } from '../../lib/metrics';
import { isStripeError } from '../../lib/stripe-errors';
import { countClientHold, TooManyOpenHoldsError } from '../capacity/client-holds';
import { CapacityFullError, type Reservation, releaseHold, reserveBottles } from '../capacity/holds';
import { holdForPaymentLink, releaseRequestBottles, requestHold } from '../capacity/request-capacity';
import { buildSessionParams, CheckoutConflictError, checkedQuote } from '../checkout/create-checkout-session';
import type { EmailContent } from '../emails/render';
import { renderDecline, renderPaymentInvitation, renderRequestNotice } from '../emails/request-emails';
import { type SendOnceOutcome, sendOnce } from '../emails/send-email-once';
import { type MerchantPushDeps, pushToMerchants } from '../push/merchant-push';
import { RefusedError } from '../refusal';
import type { CapacitySettings } from '../storage/capacity-settings';
import { capacityStoreFromTable, clientHoldItemsFromTable } from '../storage/capacity-table';
import { putIfAbsent, updateIf } from '../storage/conditional-writes';
import { ACTORS, historyEntry } from '../storage/history';
import type { OrderRequest } from '../storage/order-request';
import {
  DISPATCH_DATE_INDEX,
  dispatchDayKey,
  dispatchSortKey,
  referenceKeyOf,
  requestKey,
} from '../storage/orders-table';
import { findByReference, getRecord, type ShopRecord } from '../storage/records';
import { supersedeEmail } from '../storage/send-once';
import { readShopSettings } from '../storage/settings-store';
import { statusMove } from '../storage/status-move';
import {
  decideRequestNotice,
  type NoticeDecision,
  type NoticeLimitScope,
  takeDeclineEmail,
} from './request-notice-limits';
import type { ShopDeps, ShopStripeDeps } from './shop-deps';

/**
 * Two days: a merchant answers within them, then an unanswered (or unpayable) request stops keeping paying
 * customers off the day. The merchant can still invite it afterwards: the link reserves afresh.
 */
export const REQUEST_HOLD_HOURS = 48;

/** How long a payment link stays usable: under Stripe's 24-hour maximum for `expires_at`. */
export const PAYMENT_LINK_HOURS = 23;

/**
 * "R" and 11 upper-case hex digits, from the page's idempotency key when there is one: a retry records one.
 */
export function requestReference(idempotencyKey: string | undefined): string {
  const digits = idempotencyKey
    ? createHash('sha256').update(`request:${idempotencyKey}`).digest('hex')
    : randomBytes(8).toString('hex');
  return `R${digits.slice(0, 11).toUpperCase()}`;
}

/** What recording an order request needs: the shop's clients, and where its metrics go. */
export interface RequestWriterDeps extends ShopDeps {
  metrics: MetricsWriter;
  /** The merchants' Web Push sender (ADR 0056); absent: no pushes. */
  pushSender?: MerchantPushDeps['pushSender'] | undefined;
}

/** What recording a request did about the merchant's notice. */
export type RequestNoticeOutcome = SendOnceOutcome | 'failed' | `limited-by-${NoticeLimitScope}`;

/**
 * Records a requests-mode order request (totals checked against the quote first) as `REQUEST#<reference>`,
 * never an order, and notifies the merchant within the notice limits (request-notice-limits.ts). The customer
 * is emailed nothing until the merchant answers, so nothing a sender types is mailed to an address they
 * chose. A repeat with the same key finds it and only finishes an unsent notice; a notice SES refuses is
 * logged, not thrown. It holds its bottles on the first day with room for REQUEST_HOLD_HOURS
 * (lapsed-holds.ts); a client over its open-holds limit (client-holds.ts) has it recorded holding none.
 * @throws QuoteMismatchError when the totals are not the server's quote.
 * @throws CheckoutConflictError when the idempotency key was used for other details.
 * @throws CapacityFullError when no dispatch day within 8 weeks has room (nothing recorded).
 */
export async function recordOrderRequest(
  input: CheckoutRequest,
  options: {
    idempotencyKey: string | undefined;
    cutoffHours: number;
    client: string;
    /** The viewer address CloudFront passed, which the client's open holds are counted by (client-holds.ts). */
    viewer?: string | undefined;
    capacity?: CapacitySettings | undefined;
  },
  deps: RequestWriterDeps,
): Promise<{ reference: string; created: boolean; notice: RequestNoticeOutcome }> {
  const quote = checkedQuote(input);
  const reference = requestReference(options.idempotencyKey);
  // Read first, so a retry of a recorded request never spends a notice allowance.
  const earlier =
    options.idempotencyKey === undefined ? undefined : await getRecord(deps.table, requestKey(reference));
  if (earlier)
    return { reference, created: false, notice: await finishRepeat(earlier, reference, input, deps) };

  const now = deps.now();
  const capacity = capacityStoreFromTable(deps.table);
  const held = await holdRequestBottles(
    { reference, bottles: quote.bottles, email: input.email, now },
    options,
    deps,
  );
  const { reservation, holds } = held;
  const decision = await decideRequestNotice(deps.table, { email: input.email, client: options.client }, now);
  const item = requestItem(reference, input, quote, { now, held, decision });
  const recorded = await putIfAbsent(deps.table, item).catch(async (error: unknown) => {
    // Not known to be recorded: give the bottles back rather than hold them for a request that may
    // not exist (a request that does exist then holds none, and its payment link reserves afresh).
    if (reservation.added && holds) {
      await releaseHold(capacity, reservation.date, reservation.hold).catch(() => undefined);
    }
    throw error;
  });
  if (!recorded) {
    // The same key recorded concurrently: as a repeat (its allowance, if it took one, is spent).
    const stored = await getRecord(deps.table, item.pk);
    return { reference, created: false, notice: await finishRepeat(stored, reference, input, deps) };
  }
  emitMetric(deps.metrics, METRIC_NAMES.orderRequests, 1);
  if (!decision.notify) {
    emitMetric(deps.metrics, METRIC_NAMES.orderRequestNoticesSuppressed, 1);
    return { reference, created: true, notice: `limited-by-${decision.limitedBy}` };
  }
  // The merchants' push goes with the notice, within the same limits (a flood of requests pushes
  // no more than it emails), once: claimed on the request.
  const pushing =
    deps.pushSender === undefined
      ? undefined
      : pushToMerchants(
          {
            pk: item.pk,
            kind: 'request',
            reference,
            detail: `${item.bottles} bottles requested for ${formatDispatchDate(item.dispatchDate)}`,
          },
          { table: deps.table, pushSender: deps.pushSender, now: deps.now },
        );
  const notice = await trySendNotice(item, deps);
  await pushing;
  return { reference, created: true, notice };
}

/** A new request's bottles held on its day, and whether its client may hold them. */
interface HeldRequestBottles {
  reservation: Reservation;
  /** False over the client's limit of open holds: recorded all the same, holding nothing. */
  holds: boolean;
  holdsUntil: string;
}

/**
 * Over its client's limit of open holds a request is recorded all the same (the merchant sees it, and a link
 * reserves afresh) but holds nothing: one client cannot keep many days.
 */
async function holdRequestBottles(
  request: { reference: string; bottles: number; email: string; now: Date },
  options: { cutoffHours: number; viewer?: string | undefined; capacity?: CapacitySettings | undefined },
  deps: RequestWriterDeps,
): Promise<HeldRequestBottles> {
  const { reference, bottles, now } = request;
  const capacity = capacityStoreFromTable(deps.table);
  const holdsUntil = new Date(
    Math.floor(now.getTime() / 1000) * 1000 + REQUEST_HOLD_HOURS * 3_600_000,
  ).toISOString();
  const reservation = await reserveBottles(capacity, {
    from: nextDispatchDate(now, { cutoffHours: options.cutoffHours }),
    hold: requestHold({ reference, bottles, holdsUntil }),
    capacity: options.capacity,
  });
  const holds = await countClientHold(
    { items: clientHoldItemsFromTable(deps.table), capacity, now },
    { email: request.email, viewer: options.viewer },
    reservation,
  ).then(
    () => true,
    async (error: unknown) => {
      if (!(error instanceof TooManyOpenHoldsError)) throw error;
      if (reservation.added) await releaseHold(capacity, reservation.date, reservation.hold);
      return false;
    },
  );
  return { reservation, holds, holdsUntil };
}

/** The request's item as recorded: `requested`, on its day, with its notice due or not. */
function requestItem(
  reference: string,
  input: CheckoutRequest,
  quote: Quote,
  at: { now: Date; held: HeldRequestBottles; decision: NoticeDecision },
): OrderRequest {
  const { held, decision } = at;
  const createdAt = at.now.toISOString();
  const dispatchDate = held.reservation.date;
  return {
    pk: requestKey(reference),
    reference,
    referenceKey: referenceKeyOf(reference),
    status: 'requested',
    bottles: quote.bottles,
    unitPricePence: quote.unitPricePence,
    subtotalPence: quote.subtotalPence,
    shippingPence: quote.shippingPence,
    totalPence: quote.totalPence,
    customerName: input.name,
    customerEmail: input.email,
    customerPhone: input.phone,
    deliveryAddress: input.address,
    postcode: input.postcode,
    dispatchDate,
    createdAt,
    ...(held.holds && { holdsUntil: held.holdsUntil }),
    ...(decision.notify && {
      requestNoticeEmailState: 'pending',
      ...(decision.unnotified && {
        unnotifiedRequests: decision.unnotified.count,
        unnotifiedSince: decision.unnotified.since,
      }),
    }),
    gsi1pk: dispatchDayKey(dispatchDate),
    gsi1sk: dispatchSortKey('requested', createdAt, reference),
    history: [historyEntry(createdAt, ACTORS.customer, 'requested')],
  };
}

/** A repeat of a recorded request: the same details only, finishing a notice a stopped attempt left. */
async function finishRepeat(
  record: ShopRecord | undefined,
  reference: string,
  input: CheckoutRequest,
  deps: RequestWriterDeps,
): Promise<RequestNoticeOutcome> {
  if (record?.kind !== 'request') throw new Error(`Request ${reference} cannot be read`);
  if (!sameDetails(record.request, input)) throw new CheckoutConflictError();
  return trySendNotice(record.request, deps);
}

/** The merchant's notice of a request, once; SES refusing it is logged, not thrown. */
async function trySendNotice(
  request: OrderRequest,
  deps: RequestWriterDeps,
): Promise<SendOnceOutcome | 'failed'> {
  try {
    return await sendOnce(
      request.pk,
      'requestNotice',
      () => ({
        to: deps.merchantEmail,
        replyTo: request.customerEmail,
        content: renderRequestNotice(request, deps.seller.shopName),
      }),
      deps,
    );
  } catch (error) {
    logger.error('Order request notice not sent', { reference: request.reference, error });
    return 'failed';
  }
}

/** Whether a repeat of a request (same idempotency key) asks for what the stored request holds. */
function sameDetails(request: OrderRequest, input: CheckoutRequest): boolean {
  return (
    request.customerName === input.name &&
    request.customerEmail === input.email &&
    request.customerPhone === input.phone &&
    request.deliveryAddress === input.address &&
    request.postcode === input.postcode &&
    request.bottles === input.quantity
  );
}

async function readRequest(deps: Pick<ShopDeps, 'table'>, reference: string): Promise<OrderRequest> {
  const record = await getRecord(deps.table, requestKey(reference));
  if (record?.kind !== 'request') throw new Error(`Request ${reference} cannot be read`);
  return record.request;
}

async function findRequest(deps: Pick<ShopDeps, 'table'>, reference: string): Promise<OrderRequest> {
  const record = await findByReference(deps.table, reference);
  if (record.kind === 'order') {
    throw new RefusedError(
      `${record.order.reference} is a paid order (${record.order.status}), not an order request.`,
    );
  }
  return record.request;
}

/** The customer's email of `kind` about their request, sent once; replies go to the seller. */
function emailCustomer(
  request: OrderRequest,
  kind: 'paymentInvitation' | 'decline',
  deps: ShopStripeDeps,
  content: () => EmailContent,
): Promise<SendOnceOutcome> {
  const message = () => ({ to: request.customerEmail, replyTo: deps.seller.email, content: content() });
  return sendOnce(request.pk, kind, message, deps);
}

/** Whether a request's payment link has expired: it can then be sent again, or the request declined. */
function linkExpired(request: OrderRequest, now: Date): boolean {
  return (
    request.status === 'invited' &&
    request.checkoutExpiresAt !== undefined &&
    Date.parse(request.checkoutExpiresAt) <= now.getTime()
  );
}

/**
 * Stripe expires a session a little after its `expires_at`, so an expired link's session still open is
 * expired here: a new link or a decline can never meet a payment for the old one. Returns its id.
 * @throws RefusedError when the customer completed it: the request is an order now, only a refund undoes it.
 */
async function closeExpiredLink(request: OrderRequest, deps: ShopStripeDeps): Promise<string> {
  const sessionId = request.checkoutSessionId;
  if (sessionId === undefined) throw new Error(`${request.reference} is invited without a Checkout Session`);
  let session = await deps.stripe.checkout.sessions.retrieve(sessionId);
  if (session.status === 'open') {
    try {
      session = await deps.stripe.checkout.sessions.expire(sessionId);
    } catch (error) {
      // Completed or expired between the two calls: the session as it is now says which.
      if (!(isStripeError(error) && error.type === 'StripeInvalidRequestError')) throw error;
      session = await deps.stripe.checkout.sessions.retrieve(sessionId);
    }
  }
  if (session.status === 'complete') {
    throw new RefusedError(
      `${request.reference} was paid through its payment link: it is order ${orderReference(sessionId)} now (refund it if it cannot be supplied). Nothing changed.`,
    );
  }
  return sessionId;
}

/** Still `requested`, or `invited` with the expired session `previous`: two operators never both move it. */
function stillAsRead(previous: string | undefined): {
  condition: string;
  names: Record<string, string>;
  values: Record<string, string>;
} {
  return previous === undefined
    ? { condition: '#status = :from', names: { '#status': 'status' }, values: { ':from': 'requested' } }
    : {
        condition: '#status = :from AND #previous = :previous',
        names: { '#status': 'status', '#previous': 'checkoutSessionId' },
        values: { ':from': 'invited', ':previous': previous },
      };
}

/**
 * A new payment link: bottles held for it (moved to a later day if the request's has closed), a session made
 * as create-checkout makes one. @throws RefusedError when no day has room or Stripe refuses (hold undone).
 */
async function createPaymentLink(
  request: OrderRequest,
  at: { now: Date; previous: string | undefined },
  deps: ShopStripeDeps,
): Promise<{ session: { id: string; url: string }; dispatchDate: IsoDate; expiresAt: number }> {
  const { now, previous } = at;
  const quote = quoteOrder(request.bottles);
  const expiresAt = Math.floor(now.getTime() / 1000) + PAYMENT_LINK_HOURS * 3600;
  const link = await holdForPaymentLink(capacityStoreFromTable(deps.table), request, {
    expiresAt,
    earliest: nextDispatchDate(now, { cutoffHours: deps.cutoffHours }),
    capacity: (await readShopSettings(deps.table, true)).capacity,
    now,
  }).catch((error: unknown) => {
    if (!(error instanceof CapacityFullError)) throw error;
    throw new RefusedError(
      `No dispatch day in the next ${DISPATCH_WINDOW_WEEKS} weeks has room for ${request.reference}'s ${request.bottles} bottles: raise a day's capacity (npm run orders -- capacity) or decline it. Nothing sent.`,
    );
  });
  const dispatchDate = link.date;
  const params = buildSessionParams({
    input: {
      name: request.customerName,
      email: request.customerEmail,
      phone: request.customerPhone,
      address: request.deliveryAddress,
      postcode: request.postcode,
      quantity: quote.bottles === 3 || quote.bottles === 6 ? quote.bottles : 9,
      subtotal: penceToPounds(quote.subtotalPence),
      shipping: penceToPounds(quote.shippingPence),
      total: penceToPounds(quote.totalPence),
    },
    quote,
    siteUrl: deps.siteUrl,
    shopId: deps.shopId,
    clientReferenceId: `req_${request.reference}`,
    dispatchDate,
    debitDispatchDate: debitDispatchDate(now, { cutoffHours: deps.cutoffHours }),
    expiresAt,
    capacityHold: link.hold,
  });
  let session: { id: string; url: string | null };
  try {
    // Keyed on the request (and the link it replaces): a repeat within Stripe's 24-hour key
    // lifetime gets the same session, and a new link never gets the expired one back.
    session = await deps.stripe.checkout.sessions.create(params, {
      idempotencyKey: `request-payment-${request.reference}${previous === undefined ? '' : `-after-${previous}`}`,
    });
  } catch (error) {
    await link.undo().catch(() => undefined);
    if (isStripeError(error) && error.type === 'StripeInvalidRequestError') {
      throw new RefusedError(
        `Stripe refused the payment link for ${request.reference}: ${error.message}. Nothing changed.`,
        { cause: error },
      );
    }
    throw error;
  }
  const { url } = session;
  if (!url) throw new Error(`Stripe made session ${session.id} without a URL`);
  return { session: { id: session.id, url }, dispatchDate, expiresAt };
}

/**
 * Invites payment: a session made as create-checkout makes one (so it becomes an ordinary order through the
 * webhook), valid PAYMENT_LINK_HOURS, its link emailed once; `requested → invited`, conditional, with a
 * history line. An expired link is replaced (old session closed first); a valid one is refused: it was sent.
 */
export async function requestPayment(
  reference: string,
  options: { actor: string },
  deps: ShopStripeDeps,
): Promise<{ reference: string; changed: boolean; url: string; expiresAt: string; email: SendOnceOutcome }> {
  let request = await findRequest(deps, reference);
  if (request.status === 'declined')
    throw new RefusedError(`${request.reference} was declined: no payment can be asked for it.`);
  let changed = false;
  const now = deps.now();
  if (request.status === 'requested' || linkExpired(request, now)) {
    const previous = request.status === 'invited' ? await closeExpiredLink(request, deps) : undefined;
    const link = await createPaymentLink(request, { now, previous }, deps);
    const from = stillAsRead(previous);
    const linkExpiresAt = new Date(link.expiresAt * 1000).toISOString();
    changed = await updateIf(
      deps.table,
      request.pk,
      statusMove({
        status: 'invited',
        since: request.createdAt,
        reference: request.reference,
        condition: from.condition,
        email: 'paymentInvitation',
        entry: historyEntry(
          now.toISOString(),
          options.actor,
          'payment-link-sent',
          `dispatch ${link.dispatchDate}, link valid until ${linkExpiresAt}`,
        ),
        set: 'checkoutSessionId = :session, checkoutUrl = :url, checkoutExpiresAt = :expires, dispatchDate = :day, #dayKey = :dayKey',
        names: { ...from.names, '#dayKey': DISPATCH_DATE_INDEX.partitionKey },
        values: {
          ...from.values,
          ':session': link.session.id,
          ':url': link.session.url,
          ':expires': linkExpiresAt,
          ':day': link.dispatchDate,
          ':dayKey': dispatchDayKey(link.dispatchDate),
        },
      }),
    );
    request = await readRequest(deps, request.reference);
  }
  const { checkoutUrl, checkoutExpiresAt } = request;
  if (request.status !== 'invited' || !checkoutUrl || !checkoutExpiresAt) {
    throw new RefusedError(`${request.reference} is ${request.status}: no payment link to send.`);
  }
  const stored = request;
  const link = { url: checkoutUrl, expiresAt: checkoutExpiresAt, dispatchDate: stored.dispatchDate };
  const email = await emailCustomer(stored, 'paymentInvitation', deps, () =>
    renderPaymentInvitation(stored, link, deps.seller),
  );
  if (!changed && email !== 'sent') {
    const invitedAt = stored.invitedAt === undefined ? '(unknown)' : formatLondonTime(stored.invitedAt, now);
    throw new RefusedError(
      `${stored.reference} was already invited to pay on ${invitedAt}; the link (valid until ${formatLondonTime(checkoutExpiresAt, now)}) was emailed then. Nothing sent again; once it expires, request-payment sends a new one.`,
    );
  }
  return { reference: stored.reference, changed, url: checkoutUrl, expiresAt: checkoutExpiresAt, email };
}

/** Why a decline sent no email though one was due: one a day to an address. */
export const DECLINE_EMAIL_WITHHELD = 'this address was emailed a decline today';

/** What a decline did; `withheld` when its email was due but not sent, and why. */
export interface DeclineResult {
  reference: string;
  changed: boolean;
  email: SendOnceOutcome;
  withheld?: typeof DECLINE_EMAIL_WITHHELD;
}

/**
 * Declines a request and tells the customer once: from `requested`, or `invited` once its link has expired
 * (the old session closed first); a valid link is refused, as the customer may be paying. At most one decline
 * email to an address a day (takeDeclineEmail): the others go without, and `withheld` says why.
 */
export async function declineRequest(
  reference: string,
  options: { actor: string },
  deps: ShopStripeDeps,
): Promise<DeclineResult> {
  let request = await findRequest(deps, reference);
  const now = deps.now();
  if (request.status === 'invited' && !linkExpired(request, now)) {
    const until =
      request.checkoutExpiresAt === undefined
        ? 'its expiry'
        : formatLondonTime(request.checkoutExpiresAt, now);
    throw new RefusedError(
      `${request.reference} was already sent a payment link (valid until ${until}); it cannot be declined now. Once the link expires it can be declined (or sent a new link); if it is paid, refund the order.`,
    );
  }
  let changed = false;
  if (request.status !== 'declined') {
    const previous = request.status === 'invited' ? await closeExpiredLink(request, deps) : undefined;
    const from = stillAsRead(previous);
    changed = await updateIf(
      deps.table,
      request.pk,
      statusMove({
        status: 'declined',
        since: request.createdAt,
        reference: request.reference,
        condition: from.condition,
        email: 'decline',
        entry: historyEntry(now.toISOString(), options.actor, 'declined'),
        names: from.names,
        values: from.values,
      }),
    );
    request = await readRequest(deps, request.reference);
  }
  const stored = request;
  // Whatever the request still holds goes back to its day (every run: a stopped one may not have).
  if (stored.status === 'declined') await releaseRequestBottles(capacityStoreFromTable(deps.table), stored);
  if (
    stored.declineEmailState === 'pending' &&
    !(await takeDeclineEmail(deps.table, { email: stored.customerEmail, reference: stored.reference }, now))
  ) {
    await supersedeEmail(deps.table, stored.pk, 'decline', 'declined');
    return { reference: stored.reference, changed, email: 'not-sent', withheld: DECLINE_EMAIL_WITHHELD };
  }
  const email = await emailCustomer(stored, 'decline', deps, () => renderDecline(stored, deps.seller));
  if (!changed && email !== 'sent') {
    const declinedAt =
      stored.declinedAt === undefined ? '(unknown)' : formatLondonTime(stored.declinedAt, now);
    throw new RefusedError(`${stored.reference} was already declined on ${declinedAt}. Nothing sent again.`);
  }
  return { reference: stored.reference, changed, email };
}
