import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileOrders } from '../../../../lambdas/domain/reconcile/reconcile-orders';
import { comingDeliveries } from '../../../../lambdas/domain/standing-deliveries/coming-deliveries';
import { capacityStoreFromTable } from '../../../../lambdas/domain/storage/capacity-table';
import { changeStandingOrder, readStandingOrder } from '../../../../lambdas/domain/storage/standing-orders';
import { createAdminApiHandler, loadAdminDeps } from '../../../../lambdas/handlers/admin-api/handler';
import type { HttpLambda } from '../../../../local/api-gateway-adapter';
import { withJwtAuthorizer } from '../../../../local/jwt-authorizer';
import { addDays, dispatchDayOfWeekOf, londonDate, packingDay } from '../../../../shared/dispatch';
import { apiGatewayEvent, jsonBody } from '../../../support/api-gateway-event';
import { type FulfilmentHarness, startFulfilmentHarness } from '../../../support/fulfilment-harness';
import { signingKey, signToken, TEST_CLIENT_ID, TEST_ISSUER } from '../../../support/jwt-tokens';
import {
  advanceAWeek,
  deliverLatestPaid,
  invoicesOf,
  type MadeStandingOrder,
  makeStandingOrder,
  ordersOfStandingOrder,
} from '../../../support/standing-orders';
import { adminApiEnv } from './admin-env';

// The merchant's standing orders (issue 50, ADR 0061) through the admin Lambda behind the local JWT
// authorizer: the list, the shop's pause holding renewals, the cancel. Against the Stripe
// simulator's subscriptions and test clock, dynalite and the SES stand-in; the code's clock and the
// simulator's move together, so this passes on any day and hour.

let h: FulfilmentHarness;
let admin: HttpLambda;
const key = signingKey();
const token = signToken(key, { email: 'packer@live-aquatics.test' });

beforeAll(async () => {
  h = await startFulfilmentHarness();
  const handler = createAdminApiHandler(async () => ({
    ...(await loadAdminDeps(adminApiEnv(h))),
    now: h.deps.now,
  }));
  admin = withJwtAuthorizer(handler, { issuer: TEST_ISSUER, clientId: TEST_CLIENT_ID, jwks: key.jwks });
});
afterAll(() => h?.close());

function call(
  method: 'GET' | 'POST',
  path: string,
  options: { body?: unknown; query?: Record<string, string> } = {},
) {
  return admin(
    apiGatewayEvent({
      method,
      path,
      lowerCaseHeaders: true,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(options.body !== undefined && { body: options.body }),
      ...(options.query && { queryStringParameters: options.query }),
    }),
  );
}

/** The order of the standing order's last paid invoice (the one its record names), by its key. */
async function lastPaidOrderOf(subscriptionId: string) {
  const record = await readStandingOrder(h.deps.table, subscriptionId);
  const orders = await ordersOfStandingOrder(h, subscriptionId);
  return orders.find((order) => order.pk === `ORDER#${record?.lastInvoiceId}`);
}

describe("the merchant's standing orders", () => {
  let ann: MadeStandingOrder;
  let bob: MadeStandingOrder;

  it('lists them newest first with customer, bottles, repeat, next delivery and next payment', async () => {
    ann = await makeStandingOrder(h, 'Ann', 3);
    h.clock.advance(1_000);
    bob = await makeStandingOrder(h, 'Bob', 6);

    const response = await call('GET', '/functions/v1/admin/standing-orders');

    expect(response.statusCode).toBe(200);
    const { standingOrders } = jsonBody(response) as { standingOrders: Array<Record<string, unknown>> };
    expect(standingOrders.map((order) => order.customerName)).toEqual(['Bob', 'Ann']);
    const [firstOrder] = await ordersOfStandingOrder(h, ann.subscriptionId);
    expect(standingOrders[1]).toMatchObject({
      subscriptionId: ann.subscriptionId,
      reference: ann.subscriptionId.slice(-12),
      status: 'active',
      customerEmail: ann.email,
      bottles: 3,
      repeat: 'weekly',
      totalPence: 1470,
      nextDelivery: firstOrder?.dispatchDate,
      nextPaymentAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(standingOrders[0]).toMatchObject({ bottles: 6, totalPence: 2445 });
    const cancelled = await call('GET', '/functions/v1/admin/standing-orders', {
      query: { status: 'cancelled' },
    });
    expect(jsonBody(cancelled)).toEqual({ standingOrders: [] });
  });

  it('refuses a status it does not know', async () => {
    const response = await call('GET', '/functions/v1/admin/standing-orders', {
      query: { status: 'skipped' },
    });
    expect(response.statusCode).toBe(400);
    expect(jsonBody(response)).toMatchObject({ error: 'Status is one of active, paused, cancelled.' });
  });

  it('pausing the shop pauses renewals: a week later no charge and no order', async () => {
    const paused = await call('POST', '/functions/v1/admin/shop/pause', {
      body: { mode: 'paused', message: 'Back on Monday' },
    });
    expect(paused.statusCode).toBe(200);
    expect(jsonBody(paused)).toMatchObject({ renewals: { changed: 2, failed: [] } });
    expect(h.simulator.getSubscription(ann.subscriptionId)?.pause_collection).toMatchObject({
      behavior: 'void',
    });
    expect(await readStandingOrder(h.deps.table, ann.subscriptionId)).toMatchObject({
      pausedByShopAt: expect.any(String),
    });
    const listed = jsonBody(
      await call('GET', '/functions/v1/admin/standing-orders', { query: { status: 'paused' } }),
    );
    expect(listed).toMatchObject({
      standingOrders: [
        { customerName: 'Bob', status: 'paused', pausedBy: ['shop'] },
        { customerName: 'Ann', status: 'paused', pausedBy: ['shop'] },
      ],
    });

    await advanceAWeek(h);

    for (const { subscriptionId } of [ann, bob]) {
      const invoices = invoicesOf(h, subscriptionId);
      expect(invoices.map((invoice) => invoice.status)).toEqual(['paid', 'void']);
      expect(invoices[1]?.amount_paid).toBe(0);
      expect(await deliverLatestPaid(h, subscriptionId)).toBeUndefined();
      expect(await ordersOfStandingOrder(h, subscriptionId)).toHaveLength(1);
    }
    // A second pause (its message changed) changes no standing order again.
    const again = await call('POST', '/functions/v1/admin/shop/pause', {
      body: { mode: 'paused', message: 'Back soon' },
    });
    expect(jsonBody(again)).toMatchObject({ renewals: { changed: 0, failed: [] } });
  });

  it('resuming the shop lets the next renewal be charged, and makes its order', async () => {
    const resumed = await call('POST', '/functions/v1/admin/shop/resume');
    expect(resumed.statusCode).toBe(200);
    expect(jsonBody(resumed)).toMatchObject({ renewals: { changed: 2, failed: [] } });
    expect(h.simulator.getSubscription(ann.subscriptionId)?.pause_collection).toBeNull();
    expect((await readStandingOrder(h.deps.table, ann.subscriptionId))?.pausedByShopAt).toBeUndefined();

    await advanceAWeek(h);

    const renewal = invoicesOf(h, ann.subscriptionId)[2];
    expect(renewal).toMatchObject({ status: 'paid', amount_paid: 1470 });
    expect(await deliverLatestPaid(h, ann.subscriptionId)).toMatchObject({ id: renewal?.id });
    expect(await ordersOfStandingOrder(h, ann.subscriptionId)).toHaveLength(2);
  });

  it("a weather delay moves a standing order's paid delivery like any order's (it is an ORDER# item)", async () => {
    const renewal = await lastPaidOrderOf(ann.subscriptionId);
    const from = String(renewal?.dispatchDate);
    // A dispatch day at least two days after the later of its day and today (the clocks moved on).
    const today = londonDate(h.deps.now());
    const later = [from, today].sort()[1] ?? today;
    const to = packingDay(addDays(later, 2));

    const delayed = await call('POST', '/functions/v1/admin/orders/delay', {
      body: { from, to, reason: 'weather' },
    });

    expect(delayed.statusCode, String(delayed.body)).toBe(200);
    const after = await lastPaidOrderOf(ann.subscriptionId);
    expect(after).toMatchObject({ pk: renewal?.pk, dispatchDate: to });
  });

  it("the delayed delivery is the standing order's next one in the merchant's list; the ones after keep their weekly days", async () => {
    const renewal = await lastPaidOrderOf(ann.subscriptionId);
    const record = await readStandingOrder(h.deps.table, ann.subscriptionId);
    if (record === undefined) throw new Error('no record');

    expect(record.nextDelivery).toBe(renewal?.dispatchDate);
    const listed = jsonBody(await call('GET', '/functions/v1/admin/standing-orders')) as {
      standingOrders: Array<{ subscriptionId: string; nextDelivery?: string }>;
    };
    const annListed = listed.standingOrders.find((o) => o.subscriptionId === ann.subscriptionId);
    expect(annListed?.nextDelivery).toBe(renewal?.dispatchDate);
    // The next unpaid delivery stays on its weekly day, its 3 bottles held there, not on the delayed one's.
    const [next] = comingDeliveries(record, h.deps.now(), { cutoffHours: h.deps.cutoffHours, weeks: 8 });
    expect(dispatchDayOfWeekOf(next?.day ?? '')).toBe(next?.day);
    expect(next?.day).not.toBe(renewal?.dispatchDate);
    const capacity = capacityStoreFromTable(h.deps.table);
    expect([...(await capacity.read(next?.day ?? '')).standing]).toContain(`${ann.subscriptionId}:3`);
    expect([...(await capacity.read(String(renewal?.dispatchDate))).standing]).not.toContain(
      `${ann.subscriptionId}:3`,
    );
  });

  it('the reconciler heals a pause whose record was written and Stripe not told (a crash between)', async () => {
    const record = await readStandingOrder(h.deps.table, bob.subscriptionId);
    if (record === undefined) throw new Error('no record');
    await changeStandingOrder(h.deps.table, record, {
      at: h.deps.now().toISOString(),
      set: { pausedByShopAt: h.deps.now().toISOString() },
      emails: [],
    });
    expect(h.simulator.getSubscription(bob.subscriptionId)?.pause_collection).toBeNull();

    // The shop is open: the reconciler takes the shop's mode as the truth and clears the mark.
    await reconcileOrders(h.deps).catch(() => undefined);

    expect((await readStandingOrder(h.deps.table, bob.subscriptionId))?.pausedByShopAt).toBeUndefined();
    expect(h.simulator.getSubscription(bob.subscriptionId)?.pause_collection).toBeNull();
  });

  it('the reconciler pauses at Stripe a standing order the pause left unpaused', async () => {
    await call('POST', '/functions/v1/admin/shop/pause', { body: { mode: 'paused', message: 'Frost' } });
    // The pause's write stood and its Stripe call was lost (a crash between): the record is due again.
    await h.stripe.subscriptions.update(bob.subscriptionId, { pause_collection: '' });
    const record = await readStandingOrder(h.deps.table, bob.subscriptionId);
    if (record === undefined) throw new Error('no record');
    await changeStandingOrder(h.deps.table, record, { at: h.deps.now().toISOString(), emails: [] });

    await reconcileOrders(h.deps).catch(() => undefined);

    expect(h.simulator.getSubscription(bob.subscriptionId)?.pause_collection).toMatchObject({
      behavior: 'void',
    });
    await call('POST', '/functions/v1/admin/shop/resume');
    expect(h.simulator.getSubscription(bob.subscriptionId)?.pause_collection).toBeNull();
  });

  it('cancels one: Stripe subscription canceled, record cancelled, one email; a second cancel changes nothing', async () => {
    const first = await call('POST', '/functions/v1/admin/standing-orders/cancel', {
      body: { subscriptionId: bob.subscriptionId },
    });
    const second = await call('POST', '/functions/v1/admin/standing-orders/cancel', {
      body: { subscriptionId: bob.subscriptionId },
    });

    expect(first.statusCode).toBe(200);
    expect(jsonBody(first)).toMatchObject({
      changed: true,
      standingOrder: {
        subscriptionId: bob.subscriptionId,
        status: 'cancelled',
        cancelledAt: expect.any(String),
      },
    });
    expect(jsonBody(first)).toMatchObject({ email: 'sent' });
    expect(jsonBody(second)).toMatchObject({ changed: false, standingOrder: { status: 'cancelled' } });
    // One email, however often cancelled; the merchant's own cancel sends the merchant no notice.
    const emails = (await h.standIns.emails()).filter((email) => email.subject.includes('is cancelled'));
    expect(emails.map((email) => email.destination.to)).toEqual([[bob.email]]);
    expect(h.simulator.getSubscription(bob.subscriptionId)?.status).toBe('canceled');
    expect(await readStandingOrder(h.deps.table, bob.subscriptionId)).toMatchObject({ status: 'cancelled' });
    const listed = jsonBody(
      await call('GET', '/functions/v1/admin/standing-orders', { query: { status: 'cancelled' } }),
    );
    expect(listed).toMatchObject({ standingOrders: [{ customerName: 'Bob' }] });
  });

  it('refuses to cancel a standing order that does not exist', async () => {
    const response = await call('POST', '/functions/v1/admin/standing-orders/cancel', {
      body: { subscriptionId: 'sub_nothere' },
    });
    expect(response.statusCode).toBe(409);
  });
});
