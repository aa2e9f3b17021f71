import type Stripe from 'stripe';
import { initOnce } from '../../lib/cold-start';
import { logger } from '../../lib/logger';
import { emitMetric, METRIC_NAMES } from '../../lib/metrics';
import { settleUnpaidSession } from '../capacity/session-capacity';
import { hasShopMarker } from '../checkout/order-metadata';
import { drainOutbox } from '../emails/outbox-sender';
import { notifyFailedDebit } from '../fulfilment/failed-debit';
import { type FulfilmentDeps, fulfilCheckout } from '../fulfilment/fulfil-checkout';
import { releaseLapsedHolds } from '../fulfilment/lapsed-holds';
import { recordPendingDebit } from '../fulfilment/pending-debit';
import { countFulfilment, stepOrNextRun } from '../fulfilment/reconcile-steps';
import { settleStandingOrder } from '../standing-deliveries/follow-record';
import { followShopPause, shopHoldsRenewals } from '../standing-deliveries/shop-pause';
import { syncEveryStandingOrder } from '../standing-deliveries/standing-holds';
import { reconcilePaidInvoices } from '../standing-orders/reconcile-invoices';
import { adoptLegacyEmails } from '../storage/outbox';
import { sessionsWithOutboxDue, standingOrdersWithOutboxDue } from '../storage/outbox-due';
import type { ShopSettings } from '../storage/shop-settings';

/**
 * The longest settlement after completion (Bacs: up to 7 business days, so 10 calendar days with a weekend
 * and a holiday), beyond Stripe's 3 days of webhook retries. RECONCILE_LOOKBACK_DAYS overrides it.
 */
export const DEFAULT_RECONCILE_LOOKBACK_DAYS = 10;
const DAY_MS = 24 * 3_600_000;

export interface ReconcileDeps extends FulfilmentDeps {
  /** RECONCILE_LOOKBACK_DAYS; DEFAULT_RECONCILE_LOOKBACK_DAYS when absent. */
  lookbackDays?: number | undefined;
}

export interface ReconcileSummary {
  /** Completed sessions listed from Stripe in the window. */
  checked: number;
  /** Sessions of ours, paid, looked at (order and emails). */
  paid: number;
  /** Of those, sessions completed unpaid whose delayed payment (PaymentIntent) later succeeded. */
  settledLater: number;
  /** Paid sessions that had no order: their webhook never arrived (or failed for good). */
  fulfilledMissedOrders: number;
  /** Emails this run sent for orders that existed already (left unsent by a failed attempt). */
  emailsRetried: number;
  /** Paid sessions that do not match our prices: for the merchant. */
  needsReview: number;
  /** Sessions whose fulfilment threw (Stripe, DynamoDB or SES failing); the next run retries. */
  failed: number;
  /** Holds on dispatch days given back because their session expired and the webhook did not say so. */
  holdsReleased: number;
  /** Failed debits this run recorded and emailed: their `async_payment_failed` never arrived, or failed. */
  failedDebitsNotified: number;
  /** Pending debits whose customer this run emailed (ADR 0047): their `completed` never came, or failed. */
  pendingDebitsTold: number;
  /** The run reached its deadline and left the rest of the list for the next run. */
  stoppedAtDeadline: boolean;
}

/** Bottles stay sold while the debit is with the bank, back if it failed, whichever webhook was missed. */
async function keepOrReturnBottles(
  session: Stripe.Checkout.Session,
  deps: ReconcileDeps,
  summary: ReconcileSummary,
): Promise<void> {
  if (!deps.capacity) return;
  const intent = typeof session.payment_intent === 'object' ? session.payment_intent : undefined;
  const store = deps.capacity;
  await stepOrNextRun(
    summary,
    'settle the bottles of an unpaid session',
    { sessionId: session.id },
    async () => {
      const settings = await deps.shopSettings();
      await settleUnpaidSession(session.metadata, intent?.status, {
        store,
        settings: settings.capacity,
        metrics: deps.metrics,
      });
    },
  );
}

/** A delayed payment the bank refused: its PaymentIntent waits for another method, or was cancelled. */
function debitFailed(session: Stripe.Checkout.Session): boolean {
  const intent = typeof session.payment_intent === 'object' ? session.payment_intent : undefined;
  return intent?.status === 'requires_payment_method' || intent?.status === 'canceled';
}

/** A delayed payment still with the bank: its PaymentIntent is processing. */
function debitPending(session: Stripe.Checkout.Session): boolean {
  const intent = typeof session.payment_intent === 'object' ? session.payment_intent : undefined;
  return intent?.status === 'processing';
}

/** The "waiting for your bank" email when the webhook's was not sent; a settled one costs one read. */
async function tellMissedPending(
  sessionId: string,
  deps: ReconcileDeps,
  summary: ReconcileSummary,
): Promise<void> {
  await stepOrNextRun(
    summary,
    'tell a customer their payment waits for the bank',
    { sessionId },
    async () => {
      const result = await recordPendingDebit(sessionId, deps);
      if (result.outcome === 'told' && result.email === 'sent') {
        summary.pendingDebitsTold += 1;
        logger.warn('Reconciler told a customer their payment waits for the bank; the webhook had not', {
          reference: result.reference,
        });
      }
    },
  );
}

/** Drains every order in OUTBOX_DUE_INDEX through the one sender (outbox-sender.ts), counting sends. */
async function sweepOutboxes(deps: ReconcileDeps, summary: ReconcileSummary): Promise<number> {
  let sent = 0;
  for await (const sessionId of sessionsWithOutboxDue(deps.table)) {
    // One order's failure (SES throttling, say) must not leave every order after it unswept.
    await stepOrNextRun(summary, "drain an order's outbox", { sessionId }, async () => {
      sent += (await drainOutbox(sessionId, deps)).sent.length;
    });
  }
  return sent;
}

/**
 * Settles every standing order a stopped writer left due (ADR 0062): Stripe follows its record, holds set,
 * owed emails sent once, marker removed. A healthy one is not in the index and costs nothing.
 */
async function sweepStandingOrders(deps: ReconcileDeps, summary: ReconcileSummary): Promise<number> {
  let sent = 0;
  for await (const subscriptionId of standingOrdersWithOutboxDue(deps.table)) {
    await stepOrNextRun(summary, 'settle a standing order', { subscriptionId }, async () => {
      sent += await settleStandingOrder(subscriptionId, deps, deps);
    });
  }
  return sent;
}

/** A failed debit's emails, once each, when the webhook's were not sent; a record found costs one read. */
async function notifyMissedFailure(
  sessionId: string,
  deps: ReconcileDeps,
  summary: ReconcileSummary,
): Promise<void> {
  await stepOrNextRun(summary, 'send the emails of a failed Direct Debit', { sessionId }, async () => {
    const result = await notifyFailedDebit(sessionId, deps);
    if (result.outcome === 'notified' && result.recorded) {
      summary.failedDebitsNotified += 1;
      logger.warn(
        'Reconciler told the customer and the merchant of a failed Direct Debit whose webhook never arrived',
        { reference: result.reference },
      );
    }
  });
}

function emptySummary(): ReconcileSummary {
  return {
    checked: 0,
    paid: 0,
    settledLater: 0,
    fulfilledMissedOrders: 0,
    emailsRetried: 0,
    needsReview: 0,
    failed: 0,
    holdsReleased: 0,
    failedDebitsNotified: 0,
    pendingDebitsTold: 0,
    stoppedAtDeadline: false,
  };
}

/** Standing orders' paid invoices of the window (reconcilePaidInvoices), counted into the summary. */
async function reconcileInvoices(
  deps: ReconcileDeps,
  since: number,
  options: { pageSize?: number; deadline?: Date | undefined },
  summary: ReconcileSummary,
): Promise<void> {
  await stepOrNextRun(summary, "list the standing orders' invoices", {}, async () => {
    const counts = await reconcilePaidInvoices(deps, { since, ...options });
    summary.paid += counts.checked;
    summary.fulfilledMissedOrders += counts.fulfilledMissedOrders;
    summary.emailsRetried += counts.emailsRetried;
    summary.needsReview += counts.needsReview;
    summary.failed += counts.failed;
    summary.stoppedAtDeadline = counts.stoppedAtDeadline;
  });
}

/** Every active standing order's holds as its record says (ADR 0060): the window rolls each week. */
async function syncStandingOrders(deps: ReconcileDeps, summary: ReconcileSummary): Promise<void> {
  if (!deps.capacity) return;
  try {
    const counts = await syncEveryStandingOrder({ ...deps, capacity: deps.capacity }, deps.now());
    summary.failed += counts.failed;
    logger.info('Standing orders holds set', counts);
  } catch (error) {
    summary.failed += 1;
    logger.error('Reconciler could not list the standing orders; the next run retries', { error });
  }
}

/** Each active standing order to the shop's mode (ADR 0061); one already so costs no Stripe call. */
async function followShop(
  deps: ReconcileDeps,
  settings: () => Promise<ShopSettings>,
  summary: ReconcileSummary,
): Promise<void> {
  try {
    const { failed } = await followShopPause(shopHoldsRenewals(await settings()), deps);
    summary.failed += failed.length;
  } catch (error) {
    summary.failed += 1;
    logger.error('Reconciler could not set the standing orders to follow the shop; the next run retries', {
      error,
    });
  }
}

/** A run that could not finish every session: thrown after the summary and metric are out. */
export class ReconcileIncompleteError extends Error {
  constructor(readonly summary: ReconcileSummary) {
    super(
      summary.stoppedAtDeadline
        ? `Reconciliation stopped at its deadline after ${summary.checked} session(s); the next run goes on`
        : `Reconciliation left ${summary.failed} session(s) for the next run`,
    );
    this.name = 'ReconcileIncompleteError';
  }
}

/**
 * The safety net under the webhook: runs fulfilCheckout on every paid session of ours completed in the
 * lookback window (a delayed method's included once it succeeded), writing orders whose webhook never came
 * and sending emails left pending; a failed debit's emails likewise. Safe beside webhooks: the same
 * conditional writes. Emits `ReconcilerFulfilledMissedOrders` for an alarm. No session starts after
 * `deadline`: a backlog must not run into the Lambda's time limit, which would kill it mid-send before the
 * summary and metric are out.
 * @throws ReconcileIncompleteError when some sessions failed or the deadline came first.
 */
export async function reconcileOrders(
  deps: ReconcileDeps,
  options: { lookbackMs?: number; pageSize?: number; deadline?: Date | undefined } = {},
): Promise<ReconcileSummary> {
  const summary = emptySummary();
  const lookbackMs = options.lookbackMs ?? (deps.lookbackDays ?? DEFAULT_RECONCILE_LOOKBACK_DAYS) * DAY_MS;
  const since = Math.floor((deps.now().getTime() - lookbackMs) / 1000);
  // Read once a run, and only if an unpaid session needs the limits.
  const settings = initOnce(() => deps.shopSettings());
  // The SDK's auto-pagination fetches further pages as the loop goes.
  for await (const session of deps.stripe.checkout.sessions.list({
    status: 'complete',
    created: { gte: since },
    limit: options.pageSize ?? 100,
    // A delayed payment's outcome is on its PaymentIntent; expanded here, so an unpaid session
    // costs no extra call.
    expand: ['data.payment_intent'],
  })) {
    if (options.deadline !== undefined && deps.now() >= options.deadline) {
      summary.stoppedAtDeadline = true;
      break;
    }
    summary.checked += 1;
    if (!hasShopMarker(session.metadata, deps.shopId)) continue;
    // A standing order's session: its payments are invoices, fulfilled by the pass over them below.
    if (session.mode === 'subscription') continue;
    const settledLater =
      session.payment_status === 'unpaid' &&
      typeof session.payment_intent === 'object' &&
      session.payment_intent?.status === 'succeeded';
    if (session.payment_status !== 'paid' && !settledLater) {
      await keepOrReturnBottles(session, { ...deps, shopSettings: settings }, summary);
      if (debitFailed(session)) await notifyMissedFailure(session.id, deps, summary);
      else if (debitPending(session)) await tellMissedPending(session.id, deps, summary);
      continue;
    }
    summary.paid += 1;
    if (settledLater) summary.settledLater += 1;
    await stepOrNextRun(summary, 'fulfil a session', { sessionId: session.id }, async () => {
      const result = await fulfilCheckout(session.id, deps);
      if (result.outcome === 'refunded' && result.orderCreated) {
        // Missed all the same (its webhook never came): counted, though there is nothing to pack.
        summary.fulfilledMissedOrders += 1;
        logger.warn('Reconciler recorded an order whose webhook never arrived; refunded in Stripe already', {
          reference: result.reference,
        });
      }
      // An order written before the outbox is in no due index: its flat pending flags become
      // entries here (and due), and the sweep below sends them.
      if (countFulfilment(result, summary, 'a paid order') === 'existed') {
        await adoptLegacyEmails(deps.table, session.id, deps.now);
      }
    });
  }
  if (!summary.stoppedAtDeadline) await reconcileInvoices(deps, since, options, summary);
  // Outbox entries a writer left unsent (it stopped after its write): each order drained once.
  if (!summary.stoppedAtDeadline) {
    await stepOrNextRun(summary, 'sweep the outbox', {}, async () => {
      summary.emailsRetried += await sweepOutboxes(deps, summary);
    });
    await stepOrNextRun(summary, "sweep the standing orders' changes", {}, async () => {
      summary.emailsRetried += await sweepStandingOrders(deps, summary);
    });
  }
  if (!summary.stoppedAtDeadline) await followShop(deps, settings, summary);
  // After the completed sessions, so a hold paid in its last minute is already a sale here.
  const store = deps.capacity;
  if (store && !summary.stoppedAtDeadline) {
    await stepOrNextRun(summary, 'release lapsed holds', {}, async () => {
      summary.holdsReleased = await releaseLapsedHolds({ ...deps, store });
    });
  }
  if (!summary.stoppedAtDeadline) await syncStandingOrders(deps, summary);
  emitMetric(deps.metrics, METRIC_NAMES.reconcilerFulfilledMissedOrders, summary.fulfilledMissedOrders);
  logger.info('Reconciliation finished', { ...summary });
  if (summary.failed > 0 || summary.stoppedAtDeadline) throw new ReconcileIncompleteError(summary);
  return summary;
}
