import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { markDispatched } from '../../../../lambdas/domain/operations/order-actions';
import { partRefundPence, refundPart } from '../../../../lambdas/domain/operations/part-refund';
import { capacityStoreFromTable } from '../../../../lambdas/domain/storage/capacity-table';
import { type OperationsHarness, seedSoldOrder, startOperationsHarness } from './operations-harness';

// Part refunds against dynalite, the SES stand-in and the Stripe simulator: the repeat rule, the
// intention's own Stripe key, and each refusal and capacity case with its exact words.
let h: OperationsHarness;
beforeAll(async () => {
  h = await startOperationsHarness();
});
afterEach(() => {
  h.setNow(undefined);
  h.shop.simulator.clearFaults();
});
afterAll(() => h?.close());

const JO = 'jo@example.co.uk';
const refundsAtStripe = (paymentIntent: string | undefined) =>
  h.shop.simulator.refunds.filter((refund) => refund.payment_intent === paymentIntent);
const oneBottle = { bottles: 1, delivery: false, reason: 'doa', actor: JO } as const;

describe('partRefundPence', () => {
  it('is the bottles at the price paid, plus the delivery when refunded', () => {
    const order = { unitPricePence: 325, shippingPence: 495 };
    expect(partRefundPence(order, { bottles: 2, delivery: false })).toBe(650);
    expect(partRefundPence(order, { bottles: 0, delivery: true })).toBe(495);
    expect(partRefundPence(order, { bottles: 1, delivery: true })).toBe(820);
  });
});

describe('a part refund like one just made', () => {
  it('is refused within 15 minutes with what was done and how to refund again; with again it is made', async () => {
    const order = await h.paidOrder({ quantity: 6 });
    h.setNow(new Date('2026-12-06T17:02:10Z'));
    const first = await refundPart(order.reference, oneBottle, h.deps);
    h.setNow(new Date('2026-12-06T17:06:40Z'));
    await expect(refundPart(order.reference, oneBottle, h.deps)).rejects.toThrow(
      `${order.reference}: 1 bottle (£3.25) was refunded 4 minutes ago (17:02, by jo@example.co.uk). To refund the same again on purpose, confirm it again (CLI: --again).`,
    );
    expect(refundsAtStripe(order.paymentIntentId).map((refund) => refund.amount)).toEqual([325]);
    const again = await refundPart(order.reference, { ...oneBottle, again: true }, h.deps);
    expect([first.pence, again.pence]).toEqual([325, 325]);
    expect(again.order.partlyRefundedPence).toBe(650);
    expect(refundsAtStripe(order.paymentIntentId).map((refund) => refund.amount)).toEqual([325, 325]);
    expect((await h.item(order.pk))?.partRefunds).toEqual([
      expect.objectContaining({
        pence: 325,
        bottles: 1,
        delivery: false,
        at: '2026-12-06T17:02:10.000Z',
        by: JO,
      }),
      expect.objectContaining({
        pence: 325,
        bottles: 1,
        delivery: false,
        at: '2026-12-06T17:06:40.000Z',
        by: JO,
      }),
    ]);
  });

  it('counts up to 15 minutes only, names less than a minute and one minute, and the last such refund', async () => {
    const order = await h.paidOrder({ quantity: 9 });
    h.setNow(new Date('2026-12-06T09:00:00Z'));
    await refundPart(order.reference, oneBottle, h.deps);
    h.setNow(new Date('2026-12-06T09:00:59Z'));
    await expect(refundPart(order.reference, oneBottle, h.deps)).rejects.toThrow(
      `${order.reference}: 1 bottle (£3.25) was refunded less than a minute ago (09:00, by jo@example.co.uk).`,
    );
    await refundPart(order.reference, { ...oneBottle, delivery: true }, h.deps);
    // Not the same part: 2 bottles.
    await refundPart(order.reference, { ...oneBottle, bottles: 2 }, h.deps);
    h.setNow(new Date('2026-12-06T09:02:00Z'));
    await expect(refundPart(order.reference, { ...oneBottle, bottles: 2 }, h.deps)).rejects.toThrow(
      `${order.reference}: 2 bottles (£6.50) was refunded 1 minute ago (09:00, by jo@example.co.uk).`,
    );
    h.setNow(new Date('2026-12-06T09:14:59.999Z'));
    await expect(refundPart(order.reference, { ...oneBottle, bottles: 2 }, h.deps)).rejects.toThrow(
      'was refunded 14 minutes ago',
    );
    h.setNow(new Date('2026-12-06T09:15:59Z'));
    await refundPart(order.reference, { ...oneBottle, bottles: 2 }, h.deps);
    h.setNow(new Date('2026-12-06T09:16:30Z'));
    await refundPart(order.reference, oneBottle, h.deps);
    h.setNow(new Date('2026-12-06T09:20:00Z'));
    await expect(refundPart(order.reference, { ...oneBottle, bottles: 2 }, h.deps)).rejects.toThrow(
      `${order.reference}: 2 bottles (£6.50) was refunded 4 minutes ago (09:15, by jo@example.co.uk).`,
    );
    expect(refundsAtStripe(order.paymentIntentId).map((refund) => refund.amount)).toEqual([
      325, 820, 650, 650, 325,
    ]);
  });

  it("reads London's clock, and a part refund kept before its maker was: no name", async () => {
    const order = await h.seedOrder({
      sessionId: 'cs_test_rep_REPEATBST001',
      paidAt: '2026-07-01T09:00:00Z',
      dispatchDate: '2026-07-06',
    });
    const earlier = { refundId: 're_old', pence: 325, bottles: 1, delivery: false, reason: 'doa' };
    await h.setAttributes(order.pk, {
      partRefunds: [{ ...earlier, at: '2026-07-02T10:05:00.000Z' }],
      partlyRefundedPence: 325,
    });
    h.setNow(new Date('2026-07-02T10:15:00Z'));
    await expect(refundPart(order.reference, oneBottle, h.deps)).rejects.toThrow(
      'REPEATBST001: 1 bottle (£3.25) was refunded 10 minutes ago (11:05). To refund the same again on purpose, confirm it again (CLI: --again).',
    );
  });
});

describe('a keyed intention', () => {
  it('refunds once at Stripe under a key of its own; its repeat answers the same refund and sends nothing', async () => {
    const order = await h.paidOrder({ quantity: 6 });
    const keyed = { ...oneBottle, intention: 'intent-one' };
    const first = await refundPart(order.reference, keyed, h.deps);
    const repeat = await refundPart(order.reference, keyed, h.deps);
    expect([repeat.refundId, repeat.pence, repeat.reference]).toEqual([first.refundId, 325, order.reference]);
    expect([first.email, repeat.email]).toEqual(['sent', 'not-sent']);
    const [refund, ...more] = refundsAtStripe(order.paymentIntentId);
    expect(more).toEqual([]);
    expect(refund?.metadata).toEqual({ reference: order.reference, reason: 'doa', intention: 'intent-one' });
    expect(repeat.order.partRefunds).toEqual([expect.objectContaining({ intention: 'intent-one', by: JO })]);
    // A part refund without a key has its sequence number instead, and no intention of its own.
    const unkeyed = await refundPart(order.reference, { ...oneBottle, bottles: 2 }, h.deps);
    expect(refundsAtStripe(order.paymentIntentId)[1]?.metadata).toEqual({
      reference: order.reference,
      reason: 'doa',
      part: '2',
    });
    expect(unkeyed.order.partRefunds?.[1]).not.toHaveProperty('intention');
    expect(await h.emailsTo(order.customerEmail)).toHaveLength(3);
  });

  it('retried after a crash that lost its record, and after another refund meanwhile, gets its own refund back from Stripe', async () => {
    const order = await h.paidOrder({ quantity: 6 });
    h.beforeCommand(
      'UpdateItemCommand',
      (input) => JSON.stringify(input).includes('list_append'),
      async () => {
        throw new Error('the Lambda stopped');
      },
    );
    await expect(
      refundPart(order.reference, { ...oneBottle, intention: 'intent-lost' }, h.deps),
    ).rejects.toThrow('the Lambda stopped');
    await refundPart(order.reference, { ...oneBottle, bottles: 2, intention: 'intent-other' }, h.deps);
    const retried = await refundPart(order.reference, { ...oneBottle, intention: 'intent-lost' }, h.deps);
    const refunds = refundsAtStripe(order.paymentIntentId);
    expect(refunds.map((refund) => refund.amount)).toEqual([325, 650]);
    expect(retried.refundId).toBe(refunds[0]?.id);
    expect(retried.order.partlyRefundedPence).toBe(975);
    expect(retried.order.partRefunds?.map((part) => part.intention)).toEqual(['intent-other', 'intent-lost']);
  });
});

describe('refusals', () => {
  it('refuses a refunded order, a part that is not whole bottles, nothing, and more than is left', async () => {
    const order = await h.seedOrder({
      sessionId: 'cs_test_ref_REFUSALS0001',
      paidAt: '2026-11-20T09:00:00Z',
      dispatchDate: '2026-11-23',
    });
    const refuse = (part: { bottles: number; delivery: boolean }) =>
      refundPart(order.reference, { ...oneBottle, ...part }, h.deps);
    await expect(refuse({ bottles: -1, delivery: true })).rejects.toThrow('Bottles is a whole number.');
    await expect(refuse({ bottles: 1.5, delivery: false })).rejects.toThrow('Bottles is a whole number.');
    await expect(refuse({ bottles: 0, delivery: false })).rejects.toThrow(
      'Refund at least one bottle, or the delivery.',
    );
    await expect(refuse({ bottles: 4, delivery: false })).rejects.toThrow(
      'REFUSALS0001 has 3 of its 3 bottles not refunded yet: 4 cannot be refunded.',
    );
    // Refunded in part in the Dashboard: £12.00 of £14.70 gone, so £2.70 is left.
    await h.setAttributes(order.pk, { partlyRefundedPence: 1200 });
    await expect(refuse({ bottles: 1, delivery: false })).rejects.toThrow(
      '£3.25 is more than the £2.70 of REFUSALS0001 not refunded yet.',
    );
    await h.setAttributes(order.pk, { partlyRefundedPence: 1145 });
    await h.setAttributes(order.pk, { status: 'refunded' });
    await expect(refuse({ bottles: 1, delivery: false })).rejects.toThrow(
      'REFUSALS0001 was refunded in full already.',
    );
    expect(await h.item(order.pk)).not.toHaveProperty('partRefundPending');
  });

  it('refunds exactly what is left, to the penny', async () => {
    const order = await h.paidOrder({ quantity: 3 });
    await h.setAttributes(order.pk, { partlyRefundedPence: 1145 });
    const last = await refundPart(order.reference, oneBottle, h.deps);
    expect([last.pence, last.order.partlyRefundedPence]).toEqual([325, 1470]);
  });

  it('refuses when another refund changed the order between its read and its claim', async () => {
    const order = await h.paidOrder({ quantity: 6 });
    const other = { refundId: 're_meanwhile', pence: 325, bottles: 1, delivery: false, reason: 'doa' };
    h.beforeCommand(
      'UpdateItemCommand',
      (input) => JSON.stringify(input).includes('partRefundPending = :seq'),
      () => h.setAttributes(order.pk, { partRefunds: [{ ...other, at: '2026-12-01T10:00:00.000Z' }] }),
    );
    await expect(refundPart(order.reference, { ...oneBottle, bottles: 2 }, h.deps)).rejects.toThrow(
      `${order.reference} changed meanwhile (another refund?): look at it again.`,
    );
    expect(refundsAtStripe(order.paymentIntentId)).toEqual([]);
  });

  it('refuses a second part refund while the first one is being made', async () => {
    const order = await h.paidOrder({ quantity: 6 });
    const first = { refundId: 're_first', pence: 325, bottles: 1, delivery: false, reason: 'doa' };
    await h.setAttributes(order.pk, { partRefunds: [{ ...first, at: '2026-12-01T10:00:00.000Z' }] });
    h.beforeCommand(
      'UpdateItemCommand',
      (input) => JSON.stringify(input).includes('partRefundPending = :seq'),
      () =>
        h.setAttributes(order.pk, {
          partRefunds: [
            { ...first, at: '2026-12-01T10:00:00.000Z' },
            { ...first, refundId: 're_second', at: '2026-12-01T10:01:00.000Z' },
          ],
        }),
    );
    await expect(refundPart(order.reference, { ...oneBottle, bottles: 2 }, h.deps)).rejects.toThrow(
      'changed meanwhile',
    );
  });

  it("says Stripe's refusal and leaves the order as it was; a Stripe outage leaves its claim for the retry", async () => {
    // Its PaymentIntent is not one Stripe knows.
    const order = await h.seedOrder({
      sessionId: 'cs_test_ref_STRIPESAYSNO',
      paidAt: '2026-11-20T09:00:00Z',
      dispatchDate: '2026-11-23',
      paymentIntentId: null,
    });
    await expect(refundPart(order.reference, oneBottle, h.deps)).rejects.toThrow(
      /^Stripe refused the refund of STRIPESAYSNO: No such payment_intent: 'pi_test_ref_STRIPESAYSNO'\. Nothing was refunded\.$/,
    );
    expect(await h.item(order.pk)).not.toHaveProperty('partRefundPending');
    const paid = await h.paidOrder({ quantity: 3 });
    h.shop.simulator.injectFault({ status: 500, times: 5, pathPrefix: '/v1/refunds' });
    const outage = await refundPart(paid.reference, oneBottle, h.deps).catch((error: unknown) => error);
    expect(outage).toMatchObject({ type: 'StripeAPIError' });
    expect(await h.item(paid.pk)).toMatchObject({ partRefundPending: 1 });
    expect(await h.item(paid.pk)).not.toHaveProperty('partRefunds');
  });

  it("finds the payment through the session when the order has none, and writes the history's line", async () => {
    const order = await h.paidOrder({ quantity: 3 });
    await h.shop.standIns.inspector.send(
      new UpdateCommand({
        TableName: h.shop.standIns.tableName,
        Key: { pk: order.pk },
        UpdateExpression: 'REMOVE paymentIntentId',
      }),
    );
    const part = await refundPart(order.reference, oneBottle, h.deps);
    expect(refundsAtStripe(order.paymentIntentId).map((refund) => refund.id)).toEqual([part.refundId]);
    expect(part.order.history?.at(-1)).toEqual({
      at: expect.any(String),
      actor: JO,
      action: 'partly-refunded',
      detail: `£3.25 for 1 bottle, doa (${part.refundId}); £3.25 of £14.70 in all`,
    });
  });
});

describe("the bottles' capacity", () => {
  const sold = async (day: string) => (await capacityStoreFromTable(h.deps.table).read(day)).sold;

  it('gives all of an order’s bottles back when all are refunded, and none for the delivery alone', async () => {
    const order = await seedSoldOrder(h, {
      sessionId: 'cs_test_cap_CAPALLBACK01',
      paidAt: '2026-12-01T09:00:00Z',
      dispatchDate: '2026-12-14',
      paymentIntentId: undefined,
      bottles: 3,
    });
    // Its payment through a real session: seeded orders have none at Stripe.
    const paid = await h.paidOrder({ quantity: 3 });
    await h.setAttributes(order.pk, { paymentIntentId: paid.paymentIntentId });
    const before = await sold('2026-12-14');
    await refundPart(order.reference, { ...oneBottle, bottles: 0, delivery: true }, h.deps);
    expect(await sold('2026-12-14')).toBe(before);
    await refundPart(order.reference, { ...oneBottle, bottles: 3 }, h.deps);
    expect(await sold('2026-12-14')).toBe(before - 3);
    expect(await h.item(order.pk)).not.toHaveProperty('capacityHold');
  });

  it('gives nothing back for a dispatched order, nor while a delay is moving its bottles', async () => {
    const seed = { paidAt: '2026-12-01T09:00:00Z', dispatchDate: '2026-12-15', bottles: 6 } as const;
    const dispatched = await seedSoldOrder(h, { ...seed, sessionId: 'cs_test_cap_CAPDISPATCH1' });
    const moving = await seedSoldOrder(h, { ...seed, sessionId: 'cs_test_cap_CAPMOVING001' });
    const paid = await h.paidOrder({ quantity: 6 });
    const paid2 = await h.paidOrder({ quantity: 6 });
    await h.setAttributes(dispatched.pk, { paymentIntentId: paid.paymentIntentId });
    await h.setAttributes(moving.pk, {
      paymentIntentId: paid2.paymentIntentId,
      capacityMovingFrom: '2026-12-14',
    });
    await markDispatched(dispatched.reference, { actor: JO, early: true }, h.deps);
    const before = await sold('2026-12-15');
    await refundPart(dispatched.reference, { ...oneBottle, bottles: 2 }, h.deps);
    await refundPart(moving.reference, { ...oneBottle, bottles: 2 }, h.deps);
    expect(await sold('2026-12-15')).toBe(before);
    expect(await h.item(dispatched.pk)).toMatchObject({ capacityHold: dispatched.capacityHold });
    expect(await h.item(moving.pk)).toMatchObject({ capacityHold: moving.capacityHold });
  });
});
