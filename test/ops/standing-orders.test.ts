import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeStandingOrder } from '../support/standing-orders';
import { type OpsHarness, startOpsHarness } from './harness';

// The CLI's standing orders (issue 50, ADR 0061): listed through the admin API, and one cancelled
// there (Stripe DELETE, the record, one email), against the stand-ins and the simulator.

let h: OpsHarness;
beforeAll(async () => {
  h = await startOpsHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('orders CLI: standing-orders and cancel-standing-order', () => {
  it('lists a standing order with its bottles, repeat and next delivery, as a table and as JSON', async () => {
    const { subscriptionId, email } = await makeStandingOrder(h.shop, 'Cara', 6);

    const table = await h.orders(['standing-orders', '--local']);
    const json = await h.orders(['standing-orders', '--local', '--json']);

    expect(table.code, table.err).toBe(0);
    const lines = table.out.split('\n');
    expect(lines[0]).toMatch(
      /^SUBSCRIPTION\s+STATUS\s+NAME\s+EMAIL\s+BOTTLES\s+REPEAT\s+NEXT DELIVERY\s+NEXT PAYMENT$/,
    );
    expect(lines[1]).toContain(subscriptionId);
    expect(lines[1]).toMatch(/active\s+Cara\s+cara\.\S+@example\.com\s+6\s+every week\s+\w+day \d+ \w+/);
    expect(lines.at(-1)).toBe('1 standing order.');
    expect(JSON.parse(json.out)).toEqual([
      expect.objectContaining({
        subscriptionId,
        customerEmail: email,
        bottles: 6,
        totalPence: 2445,
        status: 'active',
      }),
    ]);
  });

  it('cancels one with its email once; a second run says it was already cancelled', async () => {
    const { subscriptionId, email } = await makeStandingOrder(h.shop, 'Dev', 3);

    const plan = await h.orders(['cancel-standing-order', subscriptionId, '--local', '--dry-run']);
    const run = await h.orders(['cancel-standing-order', subscriptionId, '--local']);
    const again = await h.orders(['cancel-standing-order', subscriptionId, '--local']);

    expect(plan.out).toContain(
      `Cancel the standing order of Dev <${email}> (3 bottles every week, £14.70 a delivery): no more payments or orders; the customer gets one email saying so.`,
    );
    expect(run.code, run.err).toBe(0);
    expect(run.out).toBe(
      `${subscriptionId} cancelled: no more payments or orders for Dev. Email sent to ${email}.`,
    );
    expect(again.out).toBe(`${subscriptionId} (Dev) was already cancelled; nothing changed.`);
    expect(h.shop.simulator.getSubscription(subscriptionId)?.status).toBe('canceled');
    expect((await h.emailsTo(email)).filter((mail) => mail.subject.includes('is cancelled'))).toHaveLength(1);
    const cancelled = await h.orders(['standing-orders', '--local', '--status', 'cancelled', '--json']);
    expect(JSON.parse(cancelled.out)).toEqual([
      expect.objectContaining({ subscriptionId, status: 'cancelled' }),
    ]);
  });

  it('refuses an id that is not a sub_ id', async () => {
    const run = await h.orders(['cancel-standing-order', 'abc123', '--local']);
    expect(run.code).not.toBe(0);
    expect(run.err).toContain('Give the standing order by its sub_… id (see standing-orders).');
  });
});
