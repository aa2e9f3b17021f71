import fc from 'fast-check';
import { describe, it } from 'vitest';
import { dispatchDaysFrom, holdBottles } from '../../../lambdas/domain/capacity/holds';
import { reservationOf } from '../../../lambdas/domain/capacity/session-reservation';
import { limitFor } from '../../../lambdas/domain/storage/capacity-settings';
import { capacityDayFromItem } from '../../../lambdas/domain/storage/capacity-store';
import { readShopSettings, writeCapacitySettings } from '../../../lambdas/domain/storage/settings-store';
import { ADMIN_API_ROUTES } from '../../../shared/admin-routes';
import {
  addDays,
  addWorkingDays,
  dispatchDayOfWeekOf,
  type IsoDate,
  nextDispatchDate,
} from '../../../shared/dispatch';
import { orderReference } from '../../../shared/order-reference';
import { type HeldEvent, type OrderLifeShop, startOrderLifeShop } from '../../support/order-life-shop';

// A model-based test of an order's life (issue 30): random sequences of what customers, Stripe and
// the merchant do, against the real handlers, dynalite, the Stripe simulator and the SES stand-in,
// with every event the simulator sends held back and delivered by the sequence itself: late, out
// of order, more than once, or not at all until the end. After every step the shop's invariants
// are checked against what the table, Stripe and the mailbox hold.
//
// Bounded for `npm test` (ORDER_LIFE_RUNS runs of up to 25 steps; 15 by default). A failure prints
// fast-check's seed and path: replay exactly that case, shrunk, with
//   ORDER_LIFE_SEED=<seed> ORDER_LIFE_PATH=<path> npx vitest run test/lambdas/model/order-life.model.test.ts
// and run longer with ORDER_LIFE_RUNS=500.

const RUNS = Number(process.env.ORDER_LIFE_RUNS ?? 15);
const SEED = process.env.ORDER_LIFE_SEED;
const PATH = process.env.ORDER_LIFE_PATH;
/**
 * Invariants to leave unchecked, by name as printed in brackets, comma-separated: for triage only,
 * to look past one known bug for the next while its fix is under way.
 */
const IGNORED = new Set((process.env.ORDER_LIFE_IGNORE ?? '').split(',').filter(Boolean));
const MAX_COMMANDS = 25;
/** A small shop: two orders can fill a day, so limits are tested, not just counted. */
const WEEKLY_LIMIT = 12;

// ---------------------------------------------------------------------------------------------
// The model: only what the sequence needs to choose its next step. The truth is read from the
// real parts after every step (Stripe's sessions and refunds, the table, the mailbox).

interface ModelSession {
  id: string;
  bottles: 3 | 6 | 9;
  /** A Direct Debit the bank refused (the simulator leaves such a session complete and unpaid). */
  debitFailed: boolean;
  /** Made after a pause (or requests mode) was written: the shop must take no money for it. */
  madeWhileClosed: boolean;
}

interface Model {
  sessions: ModelSession[];
  /** Events Stripe sent that have not reached the webhook yet. */
  pending: HeldEvent[];
  delivered: HeldEvent[];
  mode: 'open' | 'paused' | 'requests';
  /**
   * Per dispatch week, how far the merchant chose to let it go over its limit (a limit lowered
   * below what is sold and held, a delay onto it): what was sold and held right after their act,
   * shrinking as those orders go. Customers' sales must stay within max(limit, this).
   */
  allowance: Map<IsoDate, number>;
}

interface Real {
  shop: OrderLifeShop;
  /** The first three dispatch days an order placed now can get. */
  days: IsoDate[];
}

type OrderLifeCommand = fc.AsyncCommand<Model, Real>;

const pick = <T>(list: readonly T[], index: number): T | undefined =>
  list.length === 0 ? undefined : list[index % list.length];

/** Runs a simulator hook that may refuse (the session is not in the state the step needs): a no-op then. */
async function attempt(action: () => Promise<unknown>): Promise<void> {
  await action().catch(() => undefined);
}

/** Takes the events Stripe sent during a step into the model's queue, undelivered. */
async function holdEvents(m: Model, r: Real): Promise<void> {
  m.pending.push(...(await r.shop.takeCaught()));
}

async function deliver(m: Model, r: Real, event: HeldEvent): Promise<void> {
  const result = await r.shop.deliver(event);
  if (process.env.ORDER_LIFE_DEBUG)
    console.log(`deliver ${event.type} ${event.sessionId} → ${result.statusCode} ${result.body}`);
  const status = result.statusCode ?? 0;
  // Stripe retries anything but a 2xx: the event stays to be delivered again.
  if (status >= 200 && status < 300) {
    m.pending = m.pending.filter((e) => e !== event);
    if (!m.delivered.includes(event)) m.delivered.push(event);
  } else if (status < 500) {
    throw new Error(`webhook answered ${status} to a signed ${event.type}: ${result.body}`);
  }
}

/** Every step ends here: events into the queue, then every invariant. */
async function afterStep(m: Model, r: Real, merchantActed = false): Promise<void> {
  await holdEvents(m, r);
  await checkInvariants(m, r, merchantActed);
}

// ---------------------------------------------------------------------------------------------
// Commands

class Checkout implements OrderLifeCommand {
  constructor(readonly bottles: 3 | 6 | 9) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const answer = await r.shop.checkout(this.bottles);
    if (answer.sessionId !== undefined) {
      m.sessions.push({
        id: answer.sessionId,
        bottles: this.bottles,
        debitFailed: false,
        madeWhileClosed: m.mode !== 'open',
      });
    } else if (![200, 409, 503].includes(answer.statusCode)) {
      throw new Error(`create-checkout answered ${answer.statusCode}`);
    }
    await afterStep(m, r);
  }
  toString = () => `checkout(${this.bottles})`;
}

class Pay implements OrderLifeCommand {
  constructor(
    readonly index: number,
    readonly method: 'card' | 'bacs',
  ) {}
  check = (m: Readonly<Model>) => m.sessions.length > 0;
  async run(m: Model, r: Real) {
    const session = pick(m.sessions, this.index);
    if (session) {
      const paymentStatus = this.method === 'card' ? 'paid' : 'unpaid';
      await attempt(() => r.shop.h.simulator.completeSession(session.id, { paymentStatus }));
    }
    await afterStep(m, r);
  }
  toString = () => `pay(${this.index}, ${this.method})`;
}

class SettleDebit implements OrderLifeCommand {
  constructor(
    readonly index: number,
    readonly outcome: 'succeeded' | 'failed',
  ) {}
  check = (m: Readonly<Model>) => m.sessions.length > 0;
  async run(m: Model, r: Real) {
    const session = pick(m.sessions, this.index);
    if (session) {
      await r.shop.h.simulator
        .settleAsyncPayment(session.id, this.outcome)
        .then(() => {
          if (this.outcome === 'failed') session.debitFailed = true;
        })
        .catch(() => undefined);
    }
    await afterStep(m, r);
  }
  toString = () => `debit(${this.index}, ${this.outcome})`;
}

class Expire implements OrderLifeCommand {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.sessions.length > 0;
  async run(m: Model, r: Real) {
    const session = pick(m.sessions, this.index);
    if (session) await attempt(() => r.shop.h.stripe.checkout.sessions.expire(session.id));
    await afterStep(m, r);
  }
  toString = () => `expire(${this.index})`;
}

class DashboardRefund implements OrderLifeCommand {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.sessions.length > 0;
  async run(m: Model, r: Real) {
    const session = pick(m.sessions, this.index);
    if (session) await attempt(() => r.shop.h.simulator.refundFromDashboard(session.id));
    await afterStep(m, r);
  }
  toString = () => `dashboardRefund(${this.index})`;
}

/** The merchant's actions through the admin API: 409 is a refusal in the merchant's words, never a failure. */
async function merchant(r: Real, path: string, body: unknown): Promise<number> {
  const { statusCode, body: answer } = await r.shop.admin(path, body);
  if (statusCode !== 200 && statusCode !== 409) {
    throw new Error(`admin ${path} answered ${statusCode}: ${JSON.stringify(answer)}`);
  }
  return statusCode;
}

const refund = (session: ModelSession) => ({ reference: orderReference(session.id), reason: 'supply' });
const dispatch = (session: ModelSession) => ({ references: [orderReference(session.id)] });

class OperatorRefund implements OrderLifeCommand {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.sessions.length > 0;
  async run(m: Model, r: Real) {
    const session = pick(m.sessions, this.index);
    if (session) await attemptMerchant(r, ADMIN_API_ROUTES.refund.path, refund(session));
    await afterStep(m, r);
  }
  toString = () => `operatorRefund(${this.index})`;
}

class Dispatch implements OrderLifeCommand {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.sessions.length > 0;
  async run(m: Model, r: Real) {
    const session = pick(m.sessions, this.index);
    if (session) await attemptMerchant(r, ADMIN_API_ROUTES.dispatch.path, dispatch(session));
    await afterStep(m, r);
  }
  toString = () => `dispatch(${this.index})`;
}

/** The merchant on two devices: refund and mark dispatched at the same moment. */
class RefundAndDispatchAtOnce implements OrderLifeCommand {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.sessions.length > 0;
  async run(m: Model, r: Real) {
    const session = pick(m.sessions, this.index);
    if (session) {
      await Promise.all([
        attemptMerchant(r, ADMIN_API_ROUTES.refund.path, refund(session)),
        attemptMerchant(r, ADMIN_API_ROUTES.dispatch.path, dispatch(session)),
      ]);
    }
    await afterStep(m, r);
  }
  toString = () => `refundAndDispatchAtOnce(${this.index})`;
}

/** A reference that names no order yet is a 404 from the API, which the merchant would just read. */
async function attemptMerchant(r: Real, path: string, body: unknown): Promise<void> {
  const { statusCode, body: answer } = await r.shop.admin(path, body);
  if (![200, 404, 409].includes(statusCode)) {
    throw new Error(`admin ${path} answered ${statusCode}: ${JSON.stringify(answer)}`);
  }
}

/** Weather: a dispatch day's orders move to the next working day. */
class Delay implements OrderLifeCommand {
  constructor(readonly dayIndex: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const from = r.days[this.dayIndex % r.days.length] ?? r.days[0];
    if (from !== undefined) {
      await merchant(r, ADMIN_API_ROUTES.delay.path, {
        from,
        to: addWorkingDays(from, 1),
        reason: 'weather',
      });
    }
    await afterStep(m, r, true);
  }
  toString = () => `delay(day ${this.dayIndex})`;
}

type Bottles = number | null;

const capacityBody = (r: Real, dayIndex: number | 'default', bottles: Bottles) => ({
  date: dayIndex === 'default' ? 'default' : r.days[dayIndex % r.days.length],
  bottles,
});

class SetCapacity implements OrderLifeCommand {
  constructor(
    readonly dayIndex: number | 'default',
    readonly bottles: Bottles,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    await merchant(r, ADMIN_API_ROUTES.setCapacity.path, capacityBody(r, this.dayIndex, this.bottles));
    await afterStep(m, r, true);
  }
  toString = () => `setCapacity(${this.dayIndex}, ${this.bottles})`;
}

/** Two changes for two different days at once (two merchants, or a double submit): both must stick. */
class TwoCapacityChangesAtOnce implements OrderLifeCommand {
  constructor(
    readonly first: Bottles,
    readonly second: Bottles,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const [a, b] = await Promise.all([
      merchant(r, ADMIN_API_ROUTES.setCapacity.path, capacityBody(r, 0, this.first)),
      merchant(r, ADMIN_API_ROUTES.setCapacity.path, capacityBody(r, 1, this.second)),
    ]);
    const capacity = (await readShopSettings(tableOf(r), true)).capacity;
    const [day0, day1] = r.days;
    for (const [answer, day, wanted] of [
      [a, day0, this.first],
      [b, day1, this.second],
    ] as const) {
      if (answer === 200 && day !== undefined && capacity?.days?.[day] !== wanted) {
        fail(
          'capacity change lost',
          `${day} was set to ${wanted} (200), the settings say ${capacity?.days?.[day]}`,
        );
      }
    }
    await afterStep(m, r, true);
  }
  toString = () => `twoCapacityChangesAtOnce(${this.first}, ${this.second})`;
}

class Pause implements OrderLifeCommand {
  constructor(readonly mode: 'paused' | 'requests') {}
  check = () => true;
  async run(m: Model, r: Real) {
    const body =
      this.mode === 'paused' ? { mode: 'paused', message: 'Back next week.' } : { mode: 'requests' };
    if ((await merchant(r, ADMIN_API_ROUTES.pause.path, body)) === 200) m.mode = this.mode;
    await afterStep(m, r);
  }
  toString = () => `pause(${this.mode})`;
}

class Resume implements OrderLifeCommand {
  check = () => true;
  async run(m: Model, r: Real) {
    if ((await merchant(r, ADMIN_API_ROUTES.resume.path, {})) === 200) m.mode = 'open';
    await afterStep(m, r);
  }
  toString = () => 'resume';
}

/** Any one undelivered event, in any order: late, reordered. */
class Deliver implements OrderLifeCommand {
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
class Redeliver implements OrderLifeCommand {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.delivered.length > 0;
  async run(m: Model, r: Real) {
    const event = pick(m.delivered, this.index);
    if (event) await deliver(m, r, event);
    await afterStep(m, r);
  }
  toString = () => `redeliver(${this.index})`;
}

class Reconcile implements OrderLifeCommand {
  check = () => true;
  async run(m: Model, r: Real) {
    await r.shop.reconcile();
    await afterStep(m, r);
  }
  toString = () => 'reconcile';
}

/** Everything Stripe sent arrives (oldest first) and the reconciler runs: the shop at rest. */
class Settle implements OrderLifeCommand {
  check = () => true;
  async run(m: Model, r: Real) {
    await settle(m, r);
  }
  toString = () => 'settle';
}

async function settle(m: Model, r: Real): Promise<void> {
  // Events a delivery itself caused (a refund's own charge.refunded) join the queue and arrive too.
  for (let round = 0; round < 5 && m.pending.length > 0; round += 1) {
    for (const event of [...m.pending]) await deliver(m, r, event);
    await holdEvents(m, r);
  }
  await r.shop.reconcile();
  await afterStep(m, r);
  await checkAtRest(m, r);
}

// ---------------------------------------------------------------------------------------------
// Invariants

const tableOf = (r: Real) => ({
  client: r.shop.h.standIns.inspector,
  tableName: r.shop.h.standIns.tableName,
});

interface OrderRow {
  sessionId: string;
  status: string;
  bottles: number;
  dispatchDate: IsoDate;
  dispatchedAt?: string;
  capacityHold?: string;
  capacityDate?: IsoDate;
}

function orderRow(item: Record<string, unknown>): OrderRow {
  return {
    sessionId: String(item.sessionId),
    status: String(item.status),
    bottles: Number(item.bottles),
    dispatchDate: String(item.dispatchDate),
    ...(typeof item.dispatchedAt === 'string' && { dispatchedAt: item.dispatchedAt }),
    ...(typeof item.capacityHold === 'string' && { capacityHold: item.capacityHold }),
    ...(typeof item.capacityDate === 'string' && { capacityDate: item.capacityDate }),
  };
}

type EmailKind =
  | 'confirmed'
  | 'notice'
  | 'dispatch'
  | 'delay'
  | 'refund'
  | 'debitFailed'
  | 'debitFailedNotice';

const EMAIL_KINDS: ReadonlyArray<[EmailKind, RegExp]> = [
  ['confirmed', /: order \w+ confirmed/],
  ['notice', /^New order /],
  ['dispatch', /is on its way/],
  ['delay', /new dispatch date for order/],
  ['refund', /: refund for order/],
  ['debitFailed', /did not go through/],
  ['debitFailedNotice', /^Direct Debit failed:/],
];

function emailKind(subject: string): EmailKind | undefined {
  return EMAIL_KINDS.find(([, pattern]) => pattern.test(subject))?.[0];
}

/** What the real parts hold now, read once per check. */
async function observe(r: Real) {
  const { standIns, simulator } = r.shop.h;
  const items = await standIns.orderItems();
  const orders = items.filter((item) => String(item.pk).startsWith('ORDER#')).map(orderRow);
  const capacityDays = items
    .filter((item) => String(item.pk).startsWith('CAPACITY#'))
    .map((item) => capacityDayFromItem(String(item.pk).slice('CAPACITY#'.length), item));
  const settings = await readShopSettings(tableOf(r), true);
  const emails = await standIns.emails();
  const refundedIntents = new Map<string, number>();
  for (const refund of simulator.refunds) {
    if (refund.status !== 'succeeded' || typeof refund.payment_intent !== 'string') continue;
    refundedIntents.set(
      refund.payment_intent,
      (refundedIntents.get(refund.payment_intent) ?? 0) + refund.amount,
    );
  }
  return { orders, capacityDays, settings, emails, refundedIntents };
}

function fail(invariant: string, detail: string): void {
  if (!IGNORED.has(invariant)) throw new Error(`[${invariant}] ${detail}`);
}

async function checkInvariants(m: Model, r: Real, merchantActed: boolean): Promise<void> {
  const seen = await observe(r);
  const { simulator } = r.shop.h;
  const settled = (id: string) => !m.pending.some((event) => event.sessionId === id);
  const orderOf = (id: string) => seen.orders.filter((order) => order.sessionId === id);

  for (const session of m.sessions) {
    const stripe = simulator.getSession(session.id);
    if (stripe === undefined) throw new Error(`Stripe does not know ${session.id}`);
    const orders = orderOf(session.id);
    const reference = orderReference(session.id);
    const intent = typeof stripe.payment_intent === 'string' ? stripe.payment_intent : undefined;
    const refunded =
      intent !== undefined && (seen.refundedIntents.get(intent) ?? 0) >= (stripe.amount_total ?? 0);

    // An order exists only for a session Stripe says is paid, and one at most.
    if (orders.length > 1) fail('one order per session', `${reference} has ${orders.length} orders`);
    const order = orders[0];
    if (order !== undefined && stripe.payment_status !== 'paid') {
      fail(
        'no order without payment',
        `${reference} is ${order.status} but Stripe says ${stripe.payment_status}`,
      );
    }
    // Never refunded-but-paid, once the session's events have all arrived.
    if (refunded && settled(session.id) && (order?.status === 'paid' || order?.status === 'dispatched')) {
      fail(
        'no refunded payment as a paid order',
        `${reference}: refunded in Stripe, order stands ${order.status}`,
      );
    }
    // Pause means no new money: nothing made after it was written becomes an order.
    if (session.madeWhileClosed && order !== undefined) {
      fail(
        'pause takes no money',
        `${reference} was made after the pause and is now an order (${order.status})`,
      );
    }

    // Each email at most once, and none contradicting one sent before it.
    const kinds = seen.emails.flatMap((email) => {
      const kind = email.subject.includes(reference) ? emailKind(email.subject) : undefined;
      return kind === undefined ? [] : [kind];
    });
    for (const [kind] of EMAIL_KINDS) {
      // A delay email goes once per delay, and an order may be delayed twice.
      if (kind !== 'delay' && kinds.filter((k) => k === kind).length > 1) {
        fail(
          'each email at most once',
          `${reference} got ${kind} ${kinds.filter((k) => k === kind).length} times`,
        );
      }
    }
    const refundAt = kinds.indexOf('refund');
    if (refundAt >= 0) {
      const later = kinds
        .slice(refundAt + 1)
        .filter((k) => k === 'dispatch' || k === 'confirmed' || k === 'delay');
      if (later.length > 0) fail('no email contradicting a refund', `${reference}: ${kinds.join(' → ')}`);
    }
    if (kinds.includes('confirmed') && kinds.includes('debitFailed')) {
      fail('no email contradicting another', `${reference}: ${kinds.join(' → ')}`);
    }

    checkBottles(session, { stripe, order, refunded, settled: settled(session.id), seen });
  }

  checkDayCounters(seen.capacityDays);
  checkWeeks(m, r, seen, merchantActed);
}

/** A day item's counters agree with its hold ids. */
function checkDayCounters(days: ReadonlyArray<ReturnType<typeof capacityDayFromItem>>): void {
  for (const day of days) {
    const sold = [...day.sales].reduce((sum, hold) => sum + holdBottles(hold), 0);
    const held = [...day.holds].reduce((sum, hold) => sum + holdBottles(hold), 0);
    if (day.sold !== sold || day.taken !== sold + held) {
      fail(
        'day counters match their holds',
        `${day.date}: taken ${day.taken}, sold ${day.sold}; sales ${sold}, holds ${held}`,
      );
    }
  }
}

/**
 * Every bottle held is sold (to an order, or a debit still with the bank), released, or in a
 * hold that lapses (its session still payable, or an event that releases it not yet arrived).
 */
function checkBottles(
  session: ModelSession,
  state: {
    stripe: NonNullable<ReturnType<OrderLifeShop['h']['simulator']['getSession']>>;
    order: OrderRow | undefined;
    refunded: boolean;
    settled: boolean;
    seen: Awaited<ReturnType<typeof observe>>;
  },
): void {
  const { stripe, order, settled, seen } = state;
  const reservation = reservationOf(stripe.metadata);
  if (reservation === undefined || !settled) return;
  const reference = orderReference(session.id);
  const soldOn = seen.capacityDays.filter((day) => day.sales.has(reservation.hold)).map((day) => day.date);
  const heldOn = seen.capacityDays.filter((day) => day.holds.has(reservation.hold)).map((day) => day.date);
  const debitPending =
    stripe.status === 'complete' && stripe.payment_status === 'unpaid' && !session.debitFailed;
  const orderKeepsBottles =
    order !== undefined && (order.status !== 'refunded' || order.dispatchedAt !== undefined);
  const shouldBeSold = orderKeepsBottles || (order === undefined && debitPending && !state.refunded);
  if (soldOn.length > 1) fail('bottles sold once', `${reference} is sold on ${soldOn.join(' and ')}`);
  if (soldOn.length === 1 && !shouldBeSold) {
    fail(
      'every bottle held is sold, released or lapsing',
      `${reference} (${stripe.status}, ${stripe.payment_status}${session.debitFailed ? ', debit failed' : ''}, order ${order?.status ?? 'none'}) still counts as sold on ${soldOn[0]}`,
    );
  }
  if (heldOn.length > 0 && stripe.status !== 'open') {
    fail(
      'every bottle held is sold, released or lapsing',
      `${reference} is ${stripe.status} with every event delivered, and still holds bottles on ${heldOn.join(', ')}`,
    );
  }
  if (order !== undefined && orderKeepsBottles && order.capacityHold !== undefined && soldOn.length === 0) {
    fail('an order keeps its bottles', `${reference} (${order.status}) is sold on no day`);
  }
}

/**
 * No dispatch week sold over its limit: bottles of the orders it sends (a delay to the next
 * working day keeps them in the week) and of debits still with the bank, against the week's
 * limit, or what the merchant chose to let it carry.
 */
function checkWeeks(
  m: Model,
  r: Real,
  seen: Awaited<ReturnType<typeof observe>>,
  merchantActed: boolean,
): void {
  const sold = new Map<IsoDate, number>();
  const add = (day: IsoDate, bottles: number) => {
    const week = dispatchDayOfWeekOf(day);
    sold.set(week, (sold.get(week) ?? 0) + bottles);
  };
  // Bottles of orders paid after their reserved day closed, per week they were sold in instead.
  const moved = new Map<IsoDate, number>();
  for (const order of seen.orders) {
    // Where the shop counted them (a debit's order may go later than the day its bottles came from).
    const day = order.capacityDate ?? order.dispatchDate;
    if (order.status === 'refunded' && order.dispatchedAt === undefined) continue;
    add(day, order.bottles);
    const reserved = reservationOf(r.shop.h.simulator.getSession(order.sessionId)?.metadata)?.date;
    const week = dispatchDayOfWeekOf(day);
    if (reserved !== undefined && dispatchDayOfWeekOf(reserved) !== week) {
      moved.set(week, (moved.get(week) ?? 0) + order.bottles);
    }
  }
  for (const session of m.sessions) {
    const stripe = r.shop.h.simulator.getSession(session.id);
    const reservation = reservationOf(stripe?.metadata);
    const hasOrder = seen.orders.some((order) => order.sessionId === session.id);
    if (reservation === undefined || stripe?.status !== 'complete' || session.debitFailed || hasOrder)
      continue;
    // A debit the shop sold its bottles to (recorded as waiting for the bank) still counts once the
    // bank has paid and before its order is written: Stripe says paid, the table has no order yet.
    const soldToDebit = seen.capacityDays.some((day) => day.sales.has(reservation.hold));
    if (stripe.payment_status === 'unpaid' || soldToDebit) {
      // Still a hold until its completed event arrives: counted with the holds below then.
      const stillHeld = seen.capacityDays.some((day) => day.holds.has(reservation.hold));
      if (!stillHeld) add(reservation.date, session.bottles);
    }
  }
  const held = new Map<IsoDate, number>();
  for (const day of seen.capacityDays) {
    const week = dispatchDayOfWeekOf(day.date);
    held.set(week, (held.get(week) ?? 0) + day.taken - day.sold);
  }
  const weeks = new Set([...sold.keys(), ...held.keys(), ...m.allowance.keys()]);
  const committedIn = (week: IsoDate) => (sold.get(week) ?? 0) + (held.get(week) ?? 0);
  for (const week of weeks) {
    const committed = committedIn(week);
    const limit = limitFor(seen.settings.capacity, week);
    const allowed = m.allowance.get(week);
    const forced = forcedOver(week, moved.get(week) ?? 0, committedIn, seen.settings.capacity);
    if (merchantActed) {
      // The merchant's own act may leave the week over its limit: that is theirs to choose.
      m.allowance.set(week, Math.max(allowed ?? 0, committed));
      continue;
    }
    // Held bottles count too: a hold is a promise, and every reservation is conditional on the limit.
    if (limit !== undefined && committed - forced > Math.max(limit, allowed ?? 0)) {
      fail(
        'no dispatch day sold over its limit',
        `week of ${week}: ${sold.get(week) ?? 0} bottles sold and ${held.get(week) ?? 0} held, limit ${limit}${allowed === undefined ? '' : ` (the merchant let it carry ${allowed})`}`,
      );
    }
    if (allowed !== undefined) m.allowance.set(week, Math.min(allowed, committed));
  }
}

/**
 * Bottles a week may carry over its limit because the money was already taken: an order paid after
 * its reserved day closed is sold on the first day with room within 8 weeks, or over the first
 * day's limit when none has room. Only when none of the 7 weeks after this one has room now.
 */
function forcedOver(
  week: IsoDate,
  movedBottles: number,
  committedIn: (week: IsoDate) => number,
  capacity: Parameters<typeof limitFor>[0],
): number {
  if (movedBottles === 0) return 0;
  for (let k = 1; k < 8; k += 1) {
    const later = addDays(week, 7 * k);
    const limit = limitFor(capacity, later);
    if (limit === undefined || committedIn(later) + movedBottles <= limit) return 0;
  }
  return movedBottles;
}

/** At rest (every event delivered, the reconciler run): every paid session is exactly one order. */
async function checkAtRest(m: Model, r: Real): Promise<void> {
  const { orders } = await observe(r);
  for (const session of m.sessions) {
    const stripe = r.shop.h.simulator.getSession(session.id);
    const count = orders.filter((order) => order.sessionId === session.id).length;
    if (stripe?.payment_status === 'paid' && count !== 1 && !session.madeWhileClosed) {
      fail(
        'every paid session exactly one order',
        `${orderReference(session.id)} is paid and has ${count} orders`,
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------

const index = fc.nat({ max: 7 });
const bottles = fc.constantFrom<Bottles>(0, 3, 6, 9, 12, 18, null);

const checkout = fc.constantFrom<3 | 6 | 9>(3, 6, 9).map((n) => new Checkout(n));
const pay = fc
  .tuple(index, fc.constantFrom<'card' | 'bacs'>('card', 'card', 'bacs'))
  .map(([i, method]) => new Pay(i, method));
const delivery = index.map((i) => new Deliver(i));

// Weighted by repetition: customers check out and pay, and Stripe delivers, far more often than
// the merchant acts; without that, few runs would have an order for the merchant to act on.
const commands: Array<fc.Arbitrary<OrderLifeCommand>> = [
  checkout,
  checkout,
  checkout,
  checkout,
  checkout,
  pay,
  pay,
  pay,
  pay,
  fc
    .tuple(index, fc.constantFrom<'succeeded' | 'failed'>('succeeded', 'failed'))
    .map(([i, o]) => new SettleDebit(i, o)),
  index.map((i) => new Expire(i)),
  index.map((i) => new DashboardRefund(i)),
  index.map((i) => new DashboardRefund(i)),
  index.map((i) => new OperatorRefund(i)),
  index.map((i) => new Dispatch(i)),
  index.map((i) => new RefundAndDispatchAtOnce(i)),
  fc.nat({ max: 2 }).map((day) => new Delay(day)),
  fc
    .tuple(fc.oneof(fc.nat({ max: 2 }), fc.constant<'default'>('default')), bottles)
    .map(([day, n]) => new SetCapacity(day, n)),
  fc.tuple(bottles, bottles).map(([a, b]) => new TwoCapacityChangesAtOnce(a, b)),
  fc.constantFrom<'paused' | 'requests'>('paused', 'requests').map((mode) => new Pause(mode)),
  fc.constant(new Resume()),
  delivery,
  delivery,
  delivery,
  delivery,
  delivery,
  index.map((i) => new Redeliver(i)),
  fc.constant(new Reconcile()),
  fc.constant(new Settle()),
];

describe("an order's life, under any order of events", () => {
  it(
    'keeps every invariant after every step',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          // A plain array of steps (asyncModelRun skips one whose check fails): it shrinks by
          // dropping steps, and a seed and path alone replay it.
          fc.array(fc.oneof(...commands), { minLength: 1, maxLength: MAX_COMMANDS, size: 'max' }),
          async (steps) => {
            const shop = await startOrderLifeShop();
            try {
              const now = new Date();
              const days = dispatchDaysFrom(nextDispatchDate(now, { cutoffHours: 36 }), 3);
              await writeCapacitySettings(
                { client: shop.h.standIns.inspector, tableName: shop.h.standIns.tableName },
                { weekly: WEEKLY_LIMIT },
                now,
              );
              const model: Model = {
                sessions: [],
                pending: [],
                delivered: [],
                mode: 'open',
                allowance: new Map(),
              };
              const real: Real = { shop, days };
              await fc.asyncModelRun(() => ({ model, real }), steps);
              // However the run ended, the shop at rest must hold too.
              await settle(model, real);
              if (process.env.ORDER_LIFE_DEBUG)
                console.log(`${[...steps].length} steps, ${model.sessions.length} sessions`);
            } finally {
              await shop.close();
            }
          },
        ),
        {
          numRuns: RUNS,
          // Cases a run once found, replayed every time besides the random ones.
          examples: [
            // A Bacs debit the reconciler recorded, paid by the bank before its order was written,
            // then its day's limit cut to 0 by the merchant (CI, Monday 7 December 2026, 01:47).
            [
              [
                new Checkout(6),
                new Checkout(9),
                new Checkout(3),
                new Pay(1, 'bacs'),
                new Reconcile(),
                new Checkout(3),
                new SettleDebit(5, 'succeeded'),
                new SetCapacity(1, 0),
                new Dispatch(0),
              ],
            ],
            // A Bacs debit paid after every week's limit was cut to 0: its order is sold on the
            // first day it can go, over the limit, as no week has room (the money is taken).
            [
              [
                new Checkout(3),
                new Pay(0, 'bacs'),
                new SetCapacity('default', 0),
                new SettleDebit(0, 'succeeded'),
              ],
            ],
          ],
          ...(SEED !== undefined && { seed: Number(SEED) }),
          ...(PATH !== undefined && { path: PATH }),
        },
      );
    },
    Math.max(180_000, RUNS * 20_000),
  );
});
