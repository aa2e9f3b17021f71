import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileOrders } from '../../../../lambdas/domain/reconcile/reconcile-orders';
import { settleStandingOrder } from '../../../../lambdas/domain/standing-deliveries/follow-record';
import {
  changeStandingOrder,
  claimStandingEmail,
  markStandingOrderCancelled,
  readStandingEmails,
  readStandingOrder,
  type StandingOrderItem,
} from '../../../../lambdas/domain/storage/standing-orders';
import { orderReference } from '../../../../shared/checkout-status';
import { type FulfilmentHarness, startFulfilmentHarness } from '../../../support/fulfilment-harness';
import { makeStandingOrder } from '../../../support/standing-orders';

// The reconciler heals a standing order a writer left half changed (issue 50, ADR 0062): the
// record and its email written, then the writer stopped before Stripe, or before the email.
// Against dynalite, the SES stand-in and the Stripe simulator; the writes are the real ones,
// the writer's "crash" is not calling what comes after them.

let h: FulfilmentHarness;
const subscriptionCalls: string[] = [];

beforeAll(async () => {
  h = await startFulfilmentHarness();
  h.deps.stripe.on('request', (request: Stripe.RequestEvent) => {
    if (request.path.startsWith('/v1/subscriptions'))
      subscriptionCalls.push(`${request.method} ${request.path}`);
  });
});
afterAll(() => h?.close());

async function recordOf(subscriptionId: string): Promise<StandingOrderItem> {
  const record = await readStandingOrder(h.deps.table, subscriptionId);
  if (record === undefined) throw new Error(`no record of ${subscriptionId}`);
  return record;
}

async function emailsTo(address: string, about: string) {
  return (await h.standIns.emails()).filter(
    (email) => email.destination.to.includes(address) && email.subject.includes(about),
  );
}

const reconcile = () => reconcileOrders(h.deps);

describe('the reconciler heals a standing order a stopped writer left', () => {
  it('a quantity change written, Stripe never told and its email never sent: Stripe follows, one email, then nothing more', async () => {
    const ann = await makeStandingOrder(h, 'Ann', 3);
    const record = await recordOf(ann.subscriptionId);
    const at = h.deps.now().toISOString();
    const facts = {
      ...{ subscriptionId: ann.subscriptionId, pageKey: record.pageKey, customerName: 'Ann' },
      ...{ customerEmail: ann.email, customerPhone: '07700 900123', repeat: 'weekly' as const },
      ...{ bottles: 6, totalPence: 2445, previousBottles: 3 },
    };
    await changeStandingOrder(h.deps.table, record, {
      at,
      set: { bottles: 6, totalPence: 2445 },
      emails: [{ kind: 'quantity', at, facts }],
    });
    expect(h.simulator.getSubscription(ann.subscriptionId)?.items.data[0]?.quantity).toBe(3);

    await reconcile();

    const subscription = h.simulator.getSubscription(ann.subscriptionId);
    expect(subscription?.items.data[0]?.quantity).toBe(6);
    expect(subscription?.metadata.quantity).toBe('6');
    expect(await emailsTo(ann.email, 'now 6 bottles a delivery')).toHaveLength(1);
    expect((await recordOf(ann.subscriptionId)).outboxDueAt).toBeUndefined();

    subscriptionCalls.length = 0;
    await reconcile();

    expect(await emailsTo(ann.email, 'now 6 bottles a delivery')).toHaveLength(1);
    // Healthy now: out of the due index, so no Stripe call of its subscription.
    expect(subscriptionCalls).toEqual([]);
  });

  it('an email claimed by a writer that crashed mid-send: sent once by the reconciler', async () => {
    const bob = await makeStandingOrder(h, 'Bob', 3);
    const record = await recordOf(bob.subscriptionId);
    const at = h.deps.now().toISOString();
    const written = await changeStandingOrder(h.deps.table, record, {
      at,
      set: { pausedByCustomerAt: at },
      emails: [
        {
          kind: 'pause',
          at,
          facts: {
            ...{ subscriptionId: bob.subscriptionId, pageKey: record.pageKey, customerName: 'Bob' },
            ...{ customerEmail: bob.email, customerPhone: '07700 900123', repeat: 'weekly' as const },
            ...{ bottles: 3, totalPence: 1470 },
          },
        },
      ],
    });
    const [entry] = await readStandingEmails(h.deps.table, bob.subscriptionId);
    // Claimed an hour ago by a sender that never came back.
    const claimedAt = new Date(h.deps.now().getTime() - 3_600_000);
    expect(
      await claimStandingEmail(h.deps.table, bob.subscriptionId, {
        ...{ name: entry?.name ?? '', token: 'crashed', now: claimedAt },
        staleBefore: new Date(claimedAt.getTime() - 60_000),
      }),
    ).toBe(true);
    expect(written?.outboxDueAt).toBe(at);

    await reconcile();
    await reconcile();

    expect(await emailsTo(bob.email, `${orderReference(bob.subscriptionId)} is paused`)).toHaveLength(1);
    expect(h.simulator.getSubscription(bob.subscriptionId)?.pause_collection).toMatchObject({
      behavior: 'void',
    });
  });

  it('a cancel written with its email, then nothing: Stripe cancelled and the email sent once', async () => {
    const cy = await makeStandingOrder(h, 'Cy', 9);
    const record = await recordOf(cy.subscriptionId);
    const at = h.deps.now();
    const facts = {
      ...{ subscriptionId: cy.subscriptionId, pageKey: record.pageKey, customerName: 'Cy' },
      ...{ customerEmail: cy.email, customerPhone: '07700 900123', repeat: 'weekly' as const },
      ...{ bottles: 9, totalPence: 3420, by: 'customer' },
    };
    await markStandingOrderCancelled(
      h.deps.table,
      record,
      {
        by: 'customer',
        emails: [
          { kind: 'cancel', at: at.toISOString(), facts },
          { kind: 'cancelNotice', at: at.toISOString(), facts },
        ],
      },
      at,
    );
    expect(h.simulator.getSubscription(cy.subscriptionId)?.status).toBe('active');

    await reconcile();
    await reconcile();

    expect(h.simulator.getSubscription(cy.subscriptionId)?.status).toBe('canceled');
    const reference = orderReference(cy.subscriptionId);
    expect(await emailsTo(cy.email, `${reference} is cancelled`)).toHaveLength(1);
    expect(
      await emailsTo('merchant@live-aquatics.test', `cancelled by the customer: ${reference}`),
    ).toHaveLength(1);
    expect(await readStandingOrder(h.deps.table, cy.subscriptionId)).toMatchObject({ status: 'cancelled' });
    expect((await recordOf(cy.subscriptionId)).outboxDueAt).toBeUndefined();
  });
});

describe('settling races a newer change', () => {
  it('follows a change written while Stripe answered the older one: Stripe ends at the newer, the marker goes once', async () => {
    const dee = await makeStandingOrder(h, 'Dee', 3);
    const v1 = await changeStandingOrder(h.deps.table, await recordOf(dee.subscriptionId), {
      ...{ at: h.deps.now().toISOString(), set: { bottles: 6, totalPence: 2445 } },
      emails: [],
    });
    if (v1 === undefined) throw new Error('not written');
    // Stripe's subscriptions, but the first update is followed by another writer's change (9 bottles).
    const subscriptions: Stripe['subscriptions'] = Object.create(h.deps.stripe.subscriptions);
    let raced = false;
    subscriptions.update = async (id, params) => {
      const updated = await h.deps.stripe.subscriptions.update(id, params);
      if (!raced) {
        raced = true;
        await changeStandingOrder(h.deps.table, v1, {
          ...{ at: h.deps.now().toISOString(), set: { bottles: 9, totalPence: 3420 } },
          emails: [],
        });
      }
      return updated;
    };
    const stripe: Stripe = Object.create(h.deps.stripe);
    Object.defineProperty(stripe, 'subscriptions', { value: subscriptions });

    await settleStandingOrder(dee.subscriptionId, { ...h.deps, stripe });

    expect(raced).toBe(true);
    expect(h.simulator.getSubscription(dee.subscriptionId)?.items.data[0]?.quantity).toBe(9);
    expect(await recordOf(dee.subscriptionId)).toMatchObject({ bottles: 9, version: 2 });
    expect((await recordOf(dee.subscriptionId)).outboxDueAt).toBeUndefined();
  });
});
