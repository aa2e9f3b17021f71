import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkoutReservationId, holdId, sellHold } from '../../../../lambdas/domain/capacity/holds';
import {
  markDispatched,
  recordStripeRefund,
  refundOrder,
  updateTrackingNumber,
} from '../../../../lambdas/domain/operations/order-actions';
import { refundPart } from '../../../../lambdas/domain/operations/part-refund';
import { importClickAndDropTracking } from '../../../../lambdas/domain/operations/tracking-import';
import { capacityStoreFromTable } from '../../../../lambdas/domain/storage/capacity-table';
import { type OperationsHarness, startOperationsHarness } from './operations-harness';

let h: OperationsHarness;
beforeAll(async () => {
  h = await startOperationsHarness();
});
afterEach(() => h.setNow(undefined));
afterAll(() => h?.close());

const OPERATOR = 'merchant@live-aquatics.test';

describe('tracking numbers', () => {
  it('marks several orders dispatched, each with its own number, the dispatch email linking it to Royal Mail', async () => {
    const a = await h.seedOrder({
      sessionId: 'cs_test_trk_TRKBULKAAA01',
      paidAt: '2026-11-20T09:00:00Z',
      dispatchDate: '2026-11-23',
      email: 'trk.a@example.com',
    });
    const b = await h.seedOrder({
      sessionId: 'cs_test_trk_TRKBULKBBB02',
      paidAt: '2026-11-20T09:00:00Z',
      dispatchDate: '2026-11-23',
      email: 'trk.b@example.com',
    });
    await markDispatched(a.reference, { trackingNumber: 'ab 123 456 789 gb', actor: OPERATOR }, h.deps);
    await markDispatched(b.reference, { trackingNumber: 'CD987654321GB', actor: OPERATOR }, h.deps);
    expect(await h.item(a.pk)).toMatchObject({ status: 'dispatched', trackingNumber: 'AB123456789GB' });
    expect(await h.item(b.pk)).toMatchObject({ status: 'dispatched', trackingNumber: 'CD987654321GB' });
    const [email] = await h.emailsTo('trk.a@example.com');
    expect(email?.body.html).toContain(
      'href="https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB"',
    );
    expect(email?.body.text).toContain(
      'Track AB123456789GB with Royal Mail: https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB',
    );
  });

  it('corrects a number after the dispatch email with one short update email; the same number again sends nothing', async () => {
    const order = await h.seedOrder({
      sessionId: 'cs_test_trk_TRKCORRECT01',
      paidAt: '2026-11-20T09:00:00Z',
      dispatchDate: '2026-11-23',
      email: 'trk.fix@example.com',
    });
    await markDispatched(order.reference, { trackingNumber: 'AB123456789GB', actor: OPERATOR }, h.deps);
    const first = await updateTrackingNumber(
      order.reference,
      { trackingNumber: 'AB123456780GB', actor: OPERATOR },
      h.deps,
    );
    const again = await updateTrackingNumber(
      order.reference,
      { trackingNumber: 'ab 123456780 gb', actor: OPERATOR },
      h.deps,
    );
    expect([first.changed, first.email, again.changed, again.email]).toEqual([
      true,
      'sent',
      false,
      'not-sent',
    ]);
    const emails = await h.emailsTo('trk.fix@example.com');
    expect(emails.map((e) => e.subject)).toEqual([
      expect.stringContaining('is on its way'),
      expect.stringContaining('tracking number for order TRKCORRECT01'),
    ]);
    expect(emails[1]?.body.text).toContain(
      'The tracking number of your order TRKCORRECT01 is AB123456780GB.',
    );
    const item = await h.item(order.pk);
    expect(item).toMatchObject({ trackingNumber: 'AB123456780GB', trackingUpdateEmailState: 'sent' });
    expect(Array.isArray(item?.history) && item.history.at(-1)).toMatchObject({
      actor: OPERATOR,
      action: 'tracking-updated',
      detail: 'AB123456780GB (was AB123456789GB)',
    });
    // A second correction is a new change: one more email.
    await updateTrackingNumber(order.reference, { trackingNumber: 'EF111222333GB', actor: OPERATOR }, h.deps);
    expect(await h.emailsTo('trk.fix@example.com')).toHaveLength(3);
  });

  it('refuses a number for an order not yet dispatched, and garbage with a clear message', async () => {
    const order = await h.seedOrder({
      sessionId: 'cs_test_trk_TRKNOTSENT01',
      paidAt: '2026-11-20T09:00:00Z',
      dispatchDate: '2026-11-23',
      email: 'trk.no@example.com',
    });
    await expect(
      updateTrackingNumber(order.reference, { trackingNumber: 'AB123456789GB', actor: OPERATOR }, h.deps),
    ).rejects.toThrow('TRKNOTSENT01 is not dispatched yet: mark it dispatched with its tracking number.');
    await expect(
      updateTrackingNumber(order.reference, { trackingNumber: '   ', actor: OPERATOR }, h.deps),
    ).rejects.toThrow(
      'A tracking number is the one on the label: like AB123456789GB (2 letters, 9 digits, 2 letters), or 8 to 30 letters and digits.',
    );
    expect(await h.emailsTo('trk.no@example.com')).toEqual([]);
  });

  it('imports a Click & Drop export: matched orders dispatched with their numbers, once; the unmatched row listed', async () => {
    const a = await h.seedOrder({
      sessionId: 'cs_test_cnd_CNDIMPORTA01',
      paidAt: '2026-11-20T09:00:00Z',
      dispatchDate: '2026-11-23',
      email: 'cnd.a@example.com',
    });
    const b = await h.seedOrder({
      sessionId: 'cs_test_cnd_CNDIMPORTB02',
      paidAt: '2026-11-20T09:00:00Z',
      dispatchDate: '2026-11-23',
      email: 'cnd.b@example.com',
    });
    const csv = [
      '\uFEFF"Order number","Order reference","Recipient name","Address line 1","Tracking number"',
      `"1","${a.reference.toLowerCase()}","Pat Pond","1 Reed Row, ""Mill""","AB 1234 5678 9GB"`,
      `"2","${b.reference}","Pat Pond","1 Reed Row","TT123456785GB"`,
      '"3","NOSUCHORDER9","Someone","Elsewhere","JX111222333GB"',
      '',
    ].join('\r\n');
    const first = await importClickAndDropTracking(csv, { actor: OPERATOR }, h.deps);
    expect(first.dispatched.map((r) => [r.reference, r.order.trackingNumber, r.email])).toEqual([
      ['CNDIMPORTA01', 'AB123456789GB', 'sent'],
      ['CNDIMPORTB02', 'TT123456785GB', 'sent'],
    ]);
    expect(first.unmatched).toEqual([
      {
        line: 4,
        reference: 'NOSUCHORDER9',
        trackingNumber: 'JX111222333GB',
        reason: 'No order or request with reference NOSUCHORDER9.',
      },
    ]);
    const again = await importClickAndDropTracking(csv, { actor: OPERATOR }, h.deps);
    expect(again.dispatched.map((r) => [r.changed, r.email])).toEqual([
      [false, 'not-sent'],
      [false, 'not-sent'],
    ]);
    expect(await h.emailsTo('cnd.a@example.com')).toHaveLength(1);
    expect(await h.emailsTo('cnd.b@example.com')).toHaveLength(1);
  });
});

describe('refundPart', () => {
  it('refunds 2 of 6 bottles, then a bottle and the delivery; Stripe refunded exactly their sum', async () => {
    const order = await h.paidOrder({ quantity: 6 });
    const store = capacityStoreFromTable(h.deps.table);
    // Its 6 bottles sold on its day, as checkout's reservation leaves them.
    const hold = holdId(checkoutReservationId(order.reference, 1_970_000_000), 6);
    await sellHold(store, order.dispatchDate, hold);
    await h.setAttributes(order.pk, { capacityHold: hold, capacityDate: order.dispatchDate });
    const soldBefore = (await store.read(order.dispatchDate)).sold;
    const first = await refundPart(
      order.reference,
      { bottles: 2, delivery: false, reason: 'doa', actor: OPERATOR },
      h.deps,
    );
    const second = await refundPart(
      order.reference,
      { bottles: 1, delivery: true, reason: 'other', actor: OPERATOR },
      h.deps,
    );
    expect([first.pence, second.pence]).toEqual([650, 820]);
    expect(second.order).toMatchObject({ status: 'paid', partlyRefundedPence: 1470 });
    const intent = await h.deps.stripe.paymentIntents.retrieve(order.paymentIntentId ?? '', {
      expand: ['latest_charge'],
    });
    const charge = intent.latest_charge;
    expect(typeof charge === 'object' && charge?.amount_refunded).toBe(1470);
    // The 3 bottles not dispatched went back to their day.
    const day = await store.read(order.dispatchDate);
    expect(day.sold).toBe(soldBefore - 3);
    expect([...day.sales].filter((sale) => sale.startsWith(hold.split(':')[0] ?? ''))).toEqual([
      `${hold.split(':')[0]}:3`,
    ]);
    expect(await h.item(order.pk)).toMatchObject({ capacityHold: `${hold.split(':')[0]}:3` });
    const emails = (await h.emailsTo(order.customerEmail)).filter((e) => e.subject.includes('refunded'));
    expect(emails.map((e) => e.subject)).toEqual([
      expect.stringContaining(`£6.50 refunded for order ${order.reference}`),
      expect.stringContaining(`£8.20 refunded for order ${order.reference}`),
    ]);
    expect(emails[0]?.body.text).toContain(
      `We have refunded £6.50 for 2 bottles of your order ${order.reference} for animals that did not arrive in good condition.`,
    );
    expect(emails[1]?.body.text).toContain(
      `We have refunded £8.20 for 1 bottle and the delivery of your order ${order.reference}.`,
    );
    const item = await h.item(order.pk);
    expect(Array.isArray(item?.history) && item.history.slice(-2)).toEqual([
      expect.objectContaining({
        action: 'partly-refunded',
        actor: OPERATOR,
        detail: expect.stringContaining('£6.50 for 2 bottles, doa'),
      }),
      expect.objectContaining({
        action: 'partly-refunded',
        actor: OPERATOR,
        detail: expect.stringContaining('£14.70 of £24.45 in all'),
      }),
    ]);
  });

  it("leaves the shop's own part refund to its command when Stripe's charge.refunded comes: no Dashboard line", async () => {
    const order = await h.paidOrder({ quantity: 6 });
    await refundPart(
      order.reference,
      { bottles: 2, delivery: false, reason: 'doa', actor: OPERATOR },
      h.deps,
    );
    const charge = {
      paymentIntentId: order.paymentIntentId ?? '',
      fullyRefunded: false,
      refundId: undefined,
    };
    // Delivered after the command recorded it, and (another refund on its way) while one is pending.
    await recordStripeRefund({ ...charge, amountRefundedPence: 650 }, h.deps);
    await h.setAttributes(order.pk, { partRefundPending: 2 });
    await recordStripeRefund({ ...charge, amountRefundedPence: 1300 }, h.deps);
    const item = await h.item(order.pk);
    expect(item).toMatchObject({ partlyRefundedPence: 650 });
    expect(Array.isArray(item?.history) && item.history.map((entry) => entry.actor)).toEqual([
      'Stripe',
      OPERATOR,
    ]);
  });

  it('refunds the rest in full after a part refund: the email states what is left, the charge is refunded in all', async () => {
    const order = await h.paidOrder({ quantity: 6 });
    await refundPart(
      order.reference,
      { bottles: 2, delivery: false, reason: 'doa', actor: OPERATOR },
      h.deps,
    );
    await refundOrder(order.reference, { reason: 'supply', actor: OPERATOR }, h.deps);
    const intent = await h.deps.stripe.paymentIntents.retrieve(order.paymentIntentId ?? '', {
      expand: ['latest_charge'],
    });
    const charge = intent.latest_charge;
    expect(typeof charge === 'object' && charge?.amount_refunded).toBe(2445);
    const [email] = (await h.emailsTo(order.customerEmail)).filter((e) =>
      e.subject.includes('refund for order'),
    );
    expect(email?.body.text).toContain(
      `We have refunded the remaining £17.95 of your order ${order.reference} because we could not supply live Daphnia of the quality we sell this week, so all of the £24.45 you paid has now been refunded.`,
    );
  });

  it('refuses more bottles than remain, and the delivery twice, asking nothing of Stripe', async () => {
    const order = await h.paidOrder({ quantity: 3 });
    await refundPart(
      order.reference,
      { bottles: 2, delivery: true, reason: 'supply', actor: OPERATOR },
      h.deps,
    );
    await expect(
      refundPart(order.reference, { bottles: 2, delivery: false, reason: 'supply', actor: OPERATOR }, h.deps),
    ).rejects.toThrow(`${order.reference} has 1 of its 3 bottles not refunded yet: 2 cannot be refunded.`);
    await expect(
      refundPart(order.reference, { bottles: 0, delivery: true, reason: 'supply', actor: OPERATOR }, h.deps),
    ).rejects.toThrow(`The delivery of ${order.reference} was refunded already.`);
    const intent = await h.deps.stripe.paymentIntents.retrieve(order.paymentIntentId ?? '', {
      expand: ['latest_charge'],
    });
    const charge = intent.latest_charge;
    expect(typeof charge === 'object' && charge?.amount_refunded).toBe(1145);
  });
});
