import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  advanceNextDelivery,
  changeStandingOrder,
  clearStandingOrderDue,
  createStandingOrder,
  moveNextDelivery,
  readStandingOrder,
  type StandingOrderItem,
  standingOrderKey,
} from '../../../../lambdas/domain/storage/standing-orders';
import { type OperationsHarness, startOperationsHarness } from '../operations/operations-harness';

// The standing order's record in dynalite (ADR 0062): the due marker every change writes and
// its conditional removal, a delay moving the next delivery, a renewal advancing by its index.
let h: OperationsHarness;
beforeAll(async () => {
  h = await startOperationsHarness();
});
afterAll(() => h?.close());

async function newRecord(): Promise<StandingOrderItem> {
  const subscriptionId = `sub_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
  const item: StandingOrderItem = {
    pk: standingOrderKey(subscriptionId),
    subscriptionId,
    livemode: false,
    status: 'active',
    repeat: 'weekly',
    bottles: 3,
    totalPence: 1470,
    customerName: 'Ann',
    customerEmail: 'ann@example.com',
    customerPhone: '',
    deliveryAddress: '1 Fry Street\nLeeds',
    postcode: 'LS1 1AA',
    nextDelivery: '2026-12-14',
    lastInvoiceId: 'in_first',
    firstDelivery: '2026-12-14',
    lastDeliveryIndex: 0,
    pageKey: 'key',
    createdAt: '2026-12-07T09:00:00.000Z',
  };
  expect(await createStandingOrder(h.deps.table, item)).toBe(true);
  return item;
}

describe("a standing order's record", () => {
  it('is due from its first change until settled at that version; a later change keeps the first time', async () => {
    const record = await newRecord();
    const first = await changeStandingOrder(h.deps.table, record, {
      at: '2026-12-07T10:00:00.000Z',
      emails: [],
    });
    if (first === undefined) throw new Error('not written');
    const second = await changeStandingOrder(h.deps.table, first, {
      at: '2026-12-07T11:00:00.000Z',
      emails: [],
    });

    expect(second).toMatchObject({ version: 2, outboxDueAt: '2026-12-07T10:00:00.000Z' });
    // Settled at version 1 only: version 2 is still owed.
    expect(await clearStandingOrderDue(h.deps.table, first)).toBe(false);
    expect((await readStandingOrder(h.deps.table, record.subscriptionId))?.outboxDueAt).toBe(
      '2026-12-07T10:00:00.000Z',
    );
    expect(await clearStandingOrderDue(h.deps.table, { ...record, version: 2 })).toBe(true);
    expect((await readStandingOrder(h.deps.table, record.subscriptionId))?.outboxDueAt).toBeUndefined();
  });

  it("follows its paid delivery's delay while it names that invoice, once", async () => {
    const record = await newRecord();
    const moved = { invoiceId: 'in_first', to: '2026-12-16' };

    expect(await moveNextDelivery(h.deps.table, record.subscriptionId, moved)).toBe(true);
    expect(await moveNextDelivery(h.deps.table, record.subscriptionId, moved)).toBe(false);
    expect(
      await moveNextDelivery(h.deps.table, record.subscriptionId, {
        invoiceId: 'in_other',
        to: '2026-12-17',
      }),
    ).toBe(false);
    expect((await readStandingOrder(h.deps.table, record.subscriptionId))?.nextDelivery).toBe('2026-12-16');
  });

  it('advances by the later delivery, even to a day before a delayed one; never back to an earlier delivery', async () => {
    const record = await newRecord();
    await moveNextDelivery(h.deps.table, record.subscriptionId, { invoiceId: 'in_first', to: '2026-12-23' });

    const renewal = { nextDelivery: '2026-12-21', invoiceId: 'in_second', deliveryIndex: 1 };
    expect(await advanceNextDelivery(h.deps.table, record.subscriptionId, renewal)).toBe(true);
    const late = { nextDelivery: '2026-12-23', invoiceId: 'in_first', deliveryIndex: 0 };
    expect(await advanceNextDelivery(h.deps.table, record.subscriptionId, late)).toBe(false);

    expect(await readStandingOrder(h.deps.table, record.subscriptionId)).toMatchObject({
      nextDelivery: '2026-12-21',
      lastInvoiceId: 'in_second',
      lastDeliveryIndex: 1,
    });
  });
});
