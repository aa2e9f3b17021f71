import fc from 'fast-check';
import type Stripe from 'stripe';
import { describe, it } from 'vitest';
import { dispatchDaysFrom, holdBottles } from '../../../lambdas/domain/capacity/holds';
import { capacityDayFromItem } from '../../../lambdas/domain/storage/capacity-store';
import { ADMIN_API_ROUTES } from '../../../shared/admin-routes';
import { type IsoDate, nextDispatchDate } from '../../../shared/dispatch';
import { orderReference } from '../../../shared/order-reference';
import {
  REPEAT_WEEKS,
  type Repeat,
  standingDeliveryDay,
  standingDeliveryIndex,
} from '../../../shared/standing-order';
import {
  type CaughtEvent,
  type StandingOrderLifeShop,
  startStandingOrderLifeShop,
} from '../../support/standing-order-life-shop';

// A model-based test of a standing order's life (issue 50): random sequences of what customers
// (subscribe, skip, change the quantity, pause, resume, cancel), Stripe (renewals as its test clock
// moves, a declined card, a cancel in the Dashboard) and the merchant (cancel, pause the shop) do,
// against the real handlers, dynalite, the Stripe simulator and the SES stand-in. Every event
// Stripe sends is held and delivered by the sequence itself: late, out of order, more than once.
// The run starts at a random hour of the week, so every day and hour, a Sunday after the cut-off
// included, is the same test. After every step the invariants are checked against what the
// table, Stripe and the mailbox hold; at rest (every event delivered, the reconciler run) more.
//
// Bounded for `npm test` (STANDING_LIFE_RUNS runs of up to 32 steps; 6 by default, 15 to 60 s by the load).
// Replay a failure with STANDING_LIFE_SEED=<seed> STANDING_LIFE_PATH=<path>, run longer with
// STANDING_LIFE_RUNS=100; STANDING_LIFE_IGNORE=<invariant,...> looks past one known bug for the next.

const RUNS = Number(process.env.STANDING_LIFE_RUNS ?? 6);
const SEED = process.env.STANDING_LIFE_SEED;
const PATH = process.env.STANDING_LIFE_PATH;
const IGNORED = new Set((process.env.STANDING_LIFE_IGNORE ?? '').split(',').filter(Boolean));
const MAX_COMMANDS = 30;
const HOUR_MS = 3_600_000;
const WEEK_MS = 7 * 24 * HOUR_MS;

// ---------------------------------------------------------------------------------------------
// The model: what the sequence did, in the code's words; the truth is read from the real parts.

/** A span of the shared clock (ms) in which no payment may be taken. */
interface Span {
  from: number;
  to?: number;
}

interface ModelStanding {
  subscriptionId: string;
  repeat: Repeat;
  bottles: number;
  pausedByCustomer: boolean;
  pauses: Span[];
  /** Deliveries the customer skipped, and whether each was paid when skipped. */
  skips: Array<{ day: IsoDate; paid: boolean; reference?: string }>;
  /** When it was cancelled (ms), and by whom: nothing may be charged or made after. */
  cancelled?: { at: number; by: 'customer' | 'merchant' | 'stripe' };
  /** The customer's own cancel was accepted: the merchant is told of it. */
  cancelledByCustomer: boolean;
  /** Changes answered 200, per email they owe. */
  told: { skipped: number; quantity: number; paused: number; resumed: number };
}

interface Model {
  standing: ModelStanding[];
  pending: CaughtEvent[];
  delivered: CaughtEvent[];
  shopPauses: Span[];
}

interface Real {
  shop: StandingOrderLifeShop;
}

type Command = fc.AsyncCommand<Model, Real>;

const pick = <T>(list: readonly T[], index: number): T | undefined =>
  list.length === 0 ? undefined : list[index % list.length];
const nowMs = (r: Real) => r.shop.h.deps.now().getTime();

function fail(invariant: string, detail: string): void {
  if (!IGNORED.has(invariant)) throw new Error(`[${invariant}] ${detail}`);
}

async function holdEvents(m: Model, r: Real): Promise<void> {
  m.pending.push(...(await r.shop.takeCaught()));
}

async function deliver(m: Model, r: Real, event: CaughtEvent): Promise<void> {
  const result = await r.shop.deliver(event);
  const status = result.statusCode ?? 0;
  if (process.env.STANDING_LIFE_DEBUG) console.log(`deliver ${event.type} → ${status} ${result.body}`);
  // Stripe retries anything but a 2xx: the event stays to be delivered again.
  if (status >= 200 && status < 300) {
    m.pending = m.pending.filter((e) => e !== event);
    if (!m.delivered.includes(event)) m.delivered.push(event);
  } else if (status < 500) {
    throw new Error(`webhook answered ${status} to a signed ${event.type}: ${result.body}`);
  }
}

async function afterStep(m: Model, r: Real): Promise<void> {
  await holdEvents(m, r);
  await checkInvariants(m, r, false);
}

/** The page's token, once the standing order is recorded (its first invoice reached the shop). */
async function tokenOf(r: Real, s: ModelStanding): Promise<string | undefined> {
  return r.shop.pageToken(s.subscriptionId).catch(() => undefined);
}

/** A change from the standing order's page: 200 done, 409 refused (in the customer's words). */
async function change(r: Real, s: ModelStanding, body: Record<string, unknown>): Promise<number | undefined> {
  const token = await tokenOf(r, s);
  if (token === undefined) return undefined;
  const { statusCode, body: answer } = await r.shop.change({ token, ...body });
  if (statusCode !== 200 && statusCode !== 409) {
    throw new Error(`page ${String(body.action)} answered ${statusCode}: ${JSON.stringify(answer)}`);
  }
  if (statusCode === 200 && s.cancelled !== undefined && s.cancelled.by !== 'stripe') {
    fail('nothing after a cancel', `${String(body.action)} of a cancelled standing order answered 200`);
  }
  return statusCode;
}

// ---------------------------------------------------------------------------------------------
// Commands

class Subscribe implements Command {
  constructor(
    readonly bottles: 3 | 6 | 9,
    readonly repeat: Repeat,
  ) {}
  check = (m: Readonly<Model>) => m.standing.length < 3;
  async run(m: Model, r: Real) {
    const { statusCode, subscriptionId } = await r.shop.subscribe(this.bottles, this.repeat);
    if (subscriptionId !== undefined) {
      m.standing.push({
        subscriptionId,
        repeat: this.repeat,
        bottles: this.bottles,
        pausedByCustomer: false,
        pauses: [],
        skips: [],
        cancelledByCustomer: false,
        told: { skipped: 0, quantity: 0, paused: 0, resumed: 0 },
      });
    } else if (statusCode !== 409 && statusCode !== 503) {
      throw new Error(`create-checkout answered ${statusCode} to a standing order`);
    }
    await afterStep(m, r);
  }
  toString = () => `subscribe(${this.bottles}, ${this.repeat})`;
}

/**
 * Time passes at Stripe and in the shop together: renewals are made, charged or voided. The
 * reconciler runs first, as it does every 15 minutes: it is not the webhook's events that are late by days.
 */
class Advance implements Command {
  constructor(readonly hours: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    await r.shop.reconcile();
    await r.shop.advance(this.hours * HOUR_MS);
    await afterStep(m, r);
  }
  toString = () => `advance(${this.hours}h)`;
}

class DeclineNextRenewal implements Command {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.standing.length > 0;
  async run(m: Model, r: Real) {
    const s = pick(m.standing, this.index);
    if (s) r.shop.h.simulator.failNextRenewal(s.subscriptionId);
    await afterStep(m, r);
  }
  toString = () => `declineNextRenewal(${this.index})`;
}

/** The customer skips the next delivery (or, to be refused, the one after), as the page lists them. */
class Skip implements Command {
  constructor(
    readonly index: number,
    readonly which: 0 | 1,
  ) {}
  check = (m: Readonly<Model>) => m.standing.length > 0;
  async run(m: Model, r: Real) {
    const s = pick(m.standing, this.index);
    const token = s === undefined ? undefined : await tokenOf(r, s);
    if (s !== undefined && token !== undefined) {
      const view = await r.shop.view(token);
      const deliveries = Array.isArray(view.body.deliveries) ? view.body.deliveries : [];
      const open = deliveries.filter(
        (d): d is { day: IsoDate; state: string; reference?: string } =>
          d.state === 'paid' || d.state === 'due',
      );
      const target = open[this.which];
      if (target !== undefined && (await change(r, s, { action: 'skip', day: target.day })) === 200) {
        // A paid one by its order's reference: a late-recorded payment can share its day with another.
        s.skips.push({ day: target.day, paid: target.state === 'paid', reference: target.reference });
        s.told.skipped += 1;
      }
    }
    await afterStep(m, r);
  }
  toString = () => `skip(${this.index}, ${this.which === 0 ? 'next' : 'the one after'})`;
}

class Quantity implements Command {
  constructor(
    readonly index: number,
    readonly bottles: 3 | 6 | 9,
  ) {}
  check = (m: Readonly<Model>) => m.standing.length > 0;
  async run(m: Model, r: Real) {
    const s = pick(m.standing, this.index);
    if (s && (await change(r, s, { action: 'quantity', quantity: this.bottles })) === 200) {
      s.bottles = this.bottles;
      s.told.quantity += 1;
    }
    await afterStep(m, r);
  }
  toString = () => `quantity(${this.index}, ${this.bottles})`;
}

class CustomerPause implements Command {
  constructor(
    readonly index: number,
    readonly pause: boolean,
  ) {}
  check = (m: Readonly<Model>) => m.standing.length > 0;
  async run(m: Model, r: Real) {
    const s = pick(m.standing, this.index);
    if (s && (await change(r, s, { action: this.pause ? 'pause' : 'resume' })) === 200) {
      s.pausedByCustomer = this.pause;
      if (this.pause) {
        s.pauses.push({ from: nowMs(r) });
        s.told.paused += 1;
      } else {
        const open = s.pauses.at(-1);
        if (open !== undefined) open.to = nowMs(r);
        s.told.resumed += 1;
      }
    }
    await afterStep(m, r);
  }
  toString = () => `${this.pause ? 'pause' : 'resume'}(${this.index})`;
}

class CustomerCancel implements Command {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.standing.length > 0;
  async run(m: Model, r: Real) {
    const s = pick(m.standing, this.index);
    if (s && (await change(r, s, { action: 'cancel' })) === 200) {
      s.cancelled ??= { at: nowMs(r), by: 'customer' };
      s.cancelledByCustomer = true;
    }
    await afterStep(m, r);
  }
  toString = () => `cancel(${this.index})`;
}

class MerchantCancel implements Command {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.standing.length > 0;
  async run(m: Model, r: Real) {
    const s = pick(m.standing, this.index);
    if (s) {
      const { statusCode, body } = await r.shop.admin(ADMIN_API_ROUTES.cancelStandingOrder.path, {
        subscriptionId: s.subscriptionId,
      });
      if (statusCode !== 200 && statusCode !== 404 && statusCode !== 409) {
        throw new Error(`admin cancel answered ${statusCode}: ${JSON.stringify(body)}`);
      }
      if (statusCode === 200 && body.changed === true) {
        if (s.cancelled !== undefined && s.cancelled.by !== 'stripe') {
          fail('nothing after a cancel', `${s.subscriptionId} was cancelled twice`);
        }
        s.cancelled ??= { at: nowMs(r), by: 'merchant' };
      }
    }
    await afterStep(m, r);
  }
  toString = () => `merchantCancel(${this.index})`;
}

/** Cancelled in Stripe's Dashboard: the shop hears of it only by `customer.subscription.deleted`. */
class StripeCancel implements Command {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.standing.length > 0;
  async run(m: Model, r: Real) {
    const s = pick(m.standing, this.index);
    if (s && r.shop.h.simulator.getSubscription(s.subscriptionId)?.status !== 'canceled') {
      await r.shop.h.stripe.subscriptions.cancel(s.subscriptionId);
      s.cancelled ??= { at: nowMs(r), by: 'stripe' };
    }
    await afterStep(m, r);
  }
  toString = () => `stripeCancel(${this.index})`;
}

class ShopPause implements Command {
  constructor(readonly pause: boolean) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const [path, body] = this.pause
      ? [ADMIN_API_ROUTES.pause.path, { mode: 'paused', message: 'Back next week.' }]
      : [ADMIN_API_ROUTES.resume.path, {}];
    const { statusCode, body: answer } = await r.shop.admin(path, body);
    if (statusCode !== 200 && statusCode !== 409) {
      throw new Error(`admin ${path} answered ${statusCode}: ${JSON.stringify(answer)}`);
    }
    const open = m.shopPauses.at(-1);
    if (statusCode === 200 && this.pause && (open === undefined || open.to !== undefined)) {
      m.shopPauses.push({ from: nowMs(r) });
    }
    if (statusCode === 200 && !this.pause && open !== undefined && open.to === undefined) open.to = nowMs(r);
    await afterStep(m, r);
  }
  toString = () => (this.pause ? 'shopPause' : 'shopResume');
}

class Deliver implements Command {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.pending.length > 0;
  async run(m: Model, r: Real) {
    const event = pick(m.pending, this.index);
    if (event) await deliver(m, r, event);
    await afterStep(m, r);
  }
  toString = () => `deliver(${this.index})`;
}

/** Stripe delivers at least once: an event already delivered comes again, signed afresh. */
class Redeliver implements Command {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.delivered.length > 0;
  async run(m: Model, r: Real) {
    const event = pick(m.delivered, this.index);
    if (event) await deliver(m, r, event);
    await afterStep(m, r);
  }
  toString = () => `redeliver(${this.index})`;
}

class Reconcile implements Command {
  check = () => true;
  async run(m: Model, r: Real) {
    await r.shop.reconcile();
    await afterStep(m, r);
  }
  toString = () => 'reconcile';
}

class Settle implements Command {
  check = () => true;
  async run(m: Model, r: Real) {
    await settle(m, r);
  }
  toString = () => 'settle';
}

/** Everything Stripe sent arrives (oldest first), then the reconciler runs: the shop at rest. */
async function settle(m: Model, r: Real): Promise<void> {
  for (let round = 0; round < 5 && m.pending.length > 0; round += 1) {
    for (const event of [...m.pending]) await deliver(m, r, event);
    await holdEvents(m, r);
  }
  await r.shop.reconcile();
  await holdEvents(m, r);
  await checkInvariants(m, r, m.pending.length === 0);
}

// ---------------------------------------------------------------------------------------------
// Invariants

interface Seen {
  items: Array<Record<string, unknown>>;
  orders: Array<Record<string, unknown>>;
  emails: Array<{ subject: string; to: string[] }>;
  refunded: Map<string, number>;
}

async function observe(r: Real): Promise<Seen> {
  const { standIns, simulator } = r.shop.h;
  const items = await standIns.orderItems();
  const emails = (await standIns.emails()).map((email) => ({
    subject: email.subject,
    to: email.destination.to,
  }));
  const refunded = new Map<string, number>();
  for (const refund of simulator.refunds) {
    if (refund.status !== 'succeeded' || typeof refund.payment_intent !== 'string') continue;
    refunded.set(refund.payment_intent, (refunded.get(refund.payment_intent) ?? 0) + refund.amount);
  }
  const orders = items.filter((item) => String(item.pk).startsWith('ORDER#'));
  return { items, orders, emails, refunded };
}

const count = (seen: Seen, test: (subject: string) => boolean) =>
  seen.emails.filter((email) => test(email.subject)).length;

function intentOf(invoice: Stripe.Invoice): string | undefined {
  const intent = invoice.payments?.data[0]?.payment.payment_intent;
  return typeof intent === 'string' ? intent : intent?.id;
}

function inSpan(at: number, spans: readonly Span[]): boolean {
  return spans.some((span) => at > span.from && (span.to === undefined || at < span.to));
}

async function checkInvariants(m: Model, r: Real, atRest: boolean): Promise<void> {
  const seen = await observe(r);
  for (const s of m.standing) checkStanding(m, r, s, seen, atRest);
  checkDayCounters(seen);
  if (atRest) checkHolds(m, r, seen);
}

function checkStanding(m: Model, r: Real, s: ModelStanding, seen: Seen, atRest: boolean): void {
  const { simulator } = r.shop.h;
  const subscription = simulator.getSubscription(s.subscriptionId);
  if (subscription === undefined) throw new Error(`Stripe does not know ${s.subscriptionId}`);
  const invoices = simulator.getInvoices({ subscription: s.subscriptionId });
  const record = seen.items.find((item) => item.pk === `STANDING_ORDER#${s.subscriptionId}`);
  const ref = orderReference(s.subscriptionId);
  const first = typeof record?.firstDelivery === 'string' ? record.firstDelivery : undefined;

  for (const invoice of invoices) {
    const orders = seen.orders.filter((order) => order.sessionId === invoice.id);
    const invoiceRef = orderReference(invoice.id ?? '');
    const createdMs = invoice.created * 1000;
    // Exactly one order per paid invoice (at most one while events are on their way), none for another.
    if (orders.length > 1) fail('one order per paid invoice', `${invoiceRef} has ${orders.length} orders`);
    if (orders.length > 0 && invoice.status !== 'paid') {
      fail('one order per paid invoice', `${invoiceRef} is ${invoice.status} and has an order`);
    }
    if (atRest && invoice.status === 'paid' && orders.length !== 1) {
      fail('one order per paid invoice', `${invoiceRef} is paid and has ${orders.length} orders at rest`);
    }
    const confirmations = count(seen, (subject) => subject.includes(`order ${invoiceRef} confirmed`));
    const notices = count(seen, (subject) => subject.startsWith(`New order ${invoiceRef}`));
    if (confirmations > 1 || notices > 1 || (atRest && invoice.status === 'paid' && confirmations !== 1)) {
      fail('each delivery told once', `${invoiceRef}: ${confirmations} confirmations, ${notices} notices`);
    }
    // Nothing after a cancel: no invoice made later (paid, voided or failed).
    if (s.cancelled !== undefined && createdMs > s.cancelled.at) {
      fail('nothing after a cancel', `${invoiceRef} (${invoice.status}) was made after the cancel`);
    }
    if (invoice.status !== 'paid' || invoice.billing_reason !== 'subscription_cycle') continue;
    // No charge while the customer or the shop paused it.
    if (inSpan(createdMs, s.pauses) || inSpan(createdMs, m.shopPauses)) {
      fail('no charge while paused', `${invoiceRef} was paid at ${new Date(createdMs).toISOString()}`);
    }
    // No charge for a skipped unpaid delivery: the day this payment is for is not one skipped.
    if (first !== undefined) {
      const index = standingDeliveryIndex(subscription.start_date, invoice.created, s.repeat);
      const day = standingDeliveryDay(
        { first, repeat: s.repeat, index, paidAt: new Date(createdMs) },
        { cutoffHours: r.shop.h.deps.cutoffHours },
      );
      if (s.skips.some((skip) => !skip.paid && skip.day === day)) {
        fail('no charge for a skipped delivery', `${invoiceRef} paid for ${day}, which was skipped unpaid`);
      }
    }
  }

  // A skipped paid delivery: its order refunded, in full.
  for (const skip of s.skips.filter(({ paid }) => paid)) {
    const order = seen.orders.find((o) => o.reference === skip.reference);
    const invoice = invoices.find((i) => i.id === order?.sessionId);
    const intent = invoice === undefined ? undefined : intentOf(invoice);
    const refunded = intent === undefined ? 0 : (seen.refunded.get(intent) ?? 0);
    if (order?.status !== 'refunded' || refunded !== invoice?.amount_paid) {
      fail(
        'a skipped paid delivery refunded in full',
        `${skip.day}: order ${String(order?.status)}, refunded ${refunded} of ${invoice?.amount_paid}`,
      );
    }
  }

  // Each change told once: the customer's emails equal the changes the page accepted.
  const told = {
    skipped: count(seen, (x) => x.includes(`standing order ${ref} is the delivery of`)),
    quantity: count(seen, (x) => x.includes(`standing order ${ref} is now `)),
    paused: count(seen, (x) => x.endsWith(`standing order ${ref} is paused`)),
    resumed: count(seen, (x) => x.endsWith(`standing order ${ref} is resumed`)),
  };
  if (JSON.stringify(told) !== JSON.stringify(s.told)) {
    fail(
      'each change emailed exactly once',
      `${ref}: sent ${JSON.stringify(told)}, owed ${JSON.stringify(s.told)}`,
    );
  }
  const cancels = count(seen, (x) => x.endsWith(`standing order ${ref} is cancelled`));
  const cancelNotices = count(seen, (x) => x.startsWith(`Standing order cancelled by the customer: ${ref}`));
  const owed = s.cancelled !== undefined && (atRest || s.cancelled.by !== 'stripe') && record !== undefined;
  if (cancels > 1 || (owed && cancels !== 1)) {
    fail(
      'each change emailed exactly once',
      `${ref}: ${cancels} cancel emails, cancelled ${JSON.stringify(s.cancelled)}`,
    );
  }
  if (cancelNotices !== (s.cancelledByCustomer ? 1 : 0)) {
    fail('each change emailed exactly once', `${ref}: ${cancelNotices} notices of the customer's cancel`);
  }
  // A declined renewal: no order, and the customer and the merchant told once each.
  const failed = invoices.filter((i) => i.status === 'open').length;
  const failedCustomer = count(seen, (x) =>
    x.includes(`payment for your standing order ${ref} did not go through`),
  );
  const failedMerchant = count(seen, (x) => x.startsWith(`Standing order payment failed: ${ref}`));
  if (
    failedCustomer > failed ||
    failedMerchant > failed ||
    (atRest && (failedCustomer !== failed || failedMerchant !== failed))
  ) {
    fail(
      'a failed renewal told once',
      `${ref}: ${failed} declined, ${failedCustomer} emails, ${failedMerchant} notices`,
    );
  }
  if (atRest && s.cancelled !== undefined && record !== undefined && record.status !== 'cancelled') {
    fail('nothing after a cancel', `${ref} is cancelled in Stripe and ${String(record.status)} in the shop`);
  }
}

/** A day item's counters agree with its hold ids: sales, checkouts' holds and standing holds. */
function checkDayCounters(seen: Seen): void {
  for (const item of seen.items.filter((i) => String(i.pk).startsWith('CAPACITY#'))) {
    const day = capacityDayFromItem(String(item.pk).slice('CAPACITY#'.length), item);
    const sum = (holds: Iterable<string>) => [...holds].reduce((n, hold) => n + holdBottles(hold), 0);
    if (day.sold !== sum(day.sales) || day.taken !== sum(day.sales) + sum(day.holds) + sum(day.standing)) {
      fail('day counters match their holds', `${day.date}: taken ${day.taken}, sold ${day.sold}`);
    }
  }
}

/**
 * At rest, each day from the first still packed holds exactly the coming deliveries' bottles of
 * each standing order: those after its last paid one, each paid a period after the one before
 * from Stripe's start, on the day standingDeliveryDay gives, within the 8 dispatch days a
 * checkout searches; none skipped, none while paused or cancelled, and none on a day closed.
 */
function checkHolds(m: Model, r: Real, seen: Seen): void {
  const now = r.shop.h.deps.now();
  const cutoffHours = r.shop.h.deps.cutoffHours;
  const window = dispatchDaysFrom(nextDispatchDate(now, { cutoffHours }), 8);
  const opens = window[0] ?? '';
  const days = seen.items
    .filter((i) => String(i.pk).startsWith('CAPACITY#'))
    .map((item) => capacityDayFromItem(String(item.pk).slice('CAPACITY#'.length), item))
    .filter((day) => day.date >= opens);
  const shopPaused = m.shopPauses.at(-1)?.to === undefined && m.shopPauses.length > 0;
  for (const s of m.standing) {
    const held = days
      .flatMap((day) => [...day.standing].map((hold) => ({ day: day.date, hold })))
      .filter(({ hold }) => hold.startsWith(`${s.subscriptionId}:`))
      .map(({ day, hold }) => `${day} ${hold}`)
      .sort();
    const expected = expectedHolds(r, s, { window, now, shopPaused, seen });
    if (JSON.stringify(held) !== JSON.stringify(expected)) {
      fail(
        'holds equal the coming deliveries',
        `${orderReference(s.subscriptionId)}: held ${held.join(', ') || 'nothing'}; coming ${expected.join(', ') || 'nothing'}`,
      );
    }
  }
}

function expectedHolds(
  r: Real,
  s: ModelStanding,
  at: { window: IsoDate[]; now: Date; shopPaused: boolean; seen: Seen },
): string[] {
  const subscription = r.shop.h.simulator.getSubscription(s.subscriptionId);
  const record = at.seen.items.find((item) => item.pk === `STANDING_ORDER#${s.subscriptionId}`);
  const first = record?.firstDelivery;
  if (subscription === undefined || typeof first !== 'string') return [];
  if (s.cancelled !== undefined || s.pausedByCustomer || at.shopPaused) return [];
  const period = REPEAT_WEEKS[s.repeat] * WEEK_MS;
  const startMs = subscription.start_date * 1000;
  // A voided payment (a skip's, or a pause's: ADR 0064) is no coming delivery either.
  const paid = r.shop.h.simulator
    .getInvoices({ subscription: s.subscriptionId })
    .filter((invoice) => invoice.status === 'paid' || invoice.status === 'void')
    .map((invoice) => standingDeliveryIndex(subscription.start_date, invoice.created, s.repeat));
  const skipped = new Set(s.skips.map(({ day }) => day));
  const [opens, closes] = [at.window[0] ?? '', at.window.at(-1) ?? ''];
  const expected: string[] = [];
  for (let index = Math.max(0, ...paid) + 1; index < Math.max(0, ...paid) + 20; index += 1) {
    const paidAt = new Date(startMs + index * period);
    const day = standingDeliveryDay(
      { first, repeat: s.repeat, index, paidAt },
      { cutoffHours: r.shop.h.deps.cutoffHours },
    );
    if (day > closes) break;
    if (day >= opens && !skipped.has(day)) expected.push(`${day} ${s.subscriptionId}:${s.bottles}`);
  }
  return expected.sort();
}

/** What a run did, for STANDING_LIFE_DEBUG: its steps and, per standing order, its invoices. */
function summary(startHour: number, steps: Command[], m: Model, r: Real): string {
  const lines = m.standing.map((s) => {
    const invoices = r.shop.h.simulator.getInvoices({ subscription: s.subscriptionId });
    return `  ${s.subscriptionId} ${s.repeat}: ${invoices.map((i) => i.status).join(' ')}; skips ${JSON.stringify(s.skips)}; told ${JSON.stringify(s.told)}${s.cancelled ? ` cancelled by ${s.cancelled.by}` : ''}`;
  });
  return [`start +${startHour}h: ${steps.join(', ')}`, ...lines].join('\n');
}

// ---------------------------------------------------------------------------------------------

const index = fc.nat({ max: 2 });
const bottles = fc.constantFrom<3 | 6 | 9>(3, 6, 9);
const repeat = fc.constantFrom<Repeat>('weekly', 'weekly', 'fortnightly');
const advance = fc.constantFrom(24, 72, 168, 168, 336).map((hours) => new Advance(hours));
const delivery = fc.nat({ max: 7 }).map((i) => new Deliver(i));
const skip = fc.tuple(index, fc.constantFrom<0 | 1>(0, 0, 1)).map(([i, which]) => new Skip(i, which));
const pause = fc.tuple(index, fc.boolean()).map(([i, paused]) => new CustomerPause(i, paused));
// One cancel of three kinds, rarely: a cancel ends the life the other steps explore.
const cancel = fc
  .tuple(index, fc.constantFrom('customer', 'merchant', 'stripe'))
  .map(([i, by]) =>
    by === 'customer'
      ? new CustomerCancel(i)
      : by === 'merchant'
        ? new MerchantCancel(i)
        : new StripeCancel(i),
  );

// Weighted by repetition: time passes, customers change their orders and Stripe delivers most often.
const commands: Array<fc.Arbitrary<Command>> = [
  fc.tuple(bottles, repeat).map(([n, every]) => new Subscribe(n, every)),
  advance,
  advance,
  advance,
  advance,
  index.map((i) => new DeclineNextRenewal(i)),
  index.map((i) => new DeclineNextRenewal(i)),
  skip,
  skip,
  skip,
  fc.tuple(index, bottles).map(([i, n]) => new Quantity(i, n)),
  pause,
  pause,
  cancel,
  fc.boolean().map((paused) => new ShopPause(paused)),
  delivery,
  delivery,
  delivery,
  fc.nat({ max: 7 }).map((i) => new Redeliver(i)),
  fc.constant(new Reconcile()),
  fc.constant(new Settle()),
];

describe("a standing order's life, under any order of events, from any hour of the week", () => {
  it(
    'keeps every invariant after every step, and at rest',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.nat({ max: 7 * 24 - 1 }),
          // Every run has a standing order to act on: its first subscription, recorded by the
          // reconciler (its events still held, to arrive later), then anything.
          fc.tuple(bottles, repeat).map(([n, every]) => new Subscribe(n, every)),
          fc.array(fc.oneof(...commands), { minLength: 8, maxLength: MAX_COMMANDS, size: 'max' }),
          async (startHour, subscribe, rest) => {
            const steps = [subscribe, new Reconcile(), ...rest];
            const shop = await startStandingOrderLifeShop();
            try {
              // The run starts at any hour of the week: both clocks move there together.
              await shop.advance(startHour * HOUR_MS);
              const model: Model = { standing: [], pending: [], delivered: [], shopPauses: [] };
              const real: Real = { shop };
              await fc.asyncModelRun(() => ({ model, real }), steps);
              await settle(model, real);
              if (process.env.STANDING_LIFE_DEBUG) console.log(summary(startHour, [...steps], model, real));
            } finally {
              await shop.close();
            }
          },
        ),
        {
          numRuns: RUNS,
          // Cases a run once found, replayed every time besides the random ones.
          examples: [
            // A renewal charged for 3 bottles, its invoice.paid arriving after the customer changed
            // to 6: it was sent for review and made no order though paid (fixed in paid-invoice.ts).
            [0, new Subscribe(3, 'weekly'), [new Advance(168), new Quantity(0, 6)]],
            // Two renewals recorded late by one reconcile, both on Tuesday 29 December: the skip
            // refunds the one the page showed, and the model must look at that one.
            [
              0,
              new Subscribe(3, 'weekly'),
              [new Advance(336), new Reconcile(), new Skip(0, 0), new CustomerCancel(0), new Settle()],
            ],
            // A pause over a renewal (voided), resumed within the hour: its day was still listed
            // due, held, and blocked the skip of the next one (fixed by voidedThrough, ADR 0064).
            [
              0,
              new Subscribe(3, 'weekly'),
              [new CustomerPause(0, true), new Advance(168), new CustomerPause(0, false), new Skip(0, 0)],
            ],
          ],
          ...(SEED !== undefined && { seed: Number(SEED) }),
          ...(PATH !== undefined && { path: PATH }),
        },
      );
    },
    Math.max(180_000, RUNS * 30_000),
  );
});
