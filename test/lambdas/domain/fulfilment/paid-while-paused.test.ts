import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fulfilCheckout, pauseMarkFor } from '../../../../lambdas/domain/fulfilment/fulfil-checkout';
import { writeShopSettings } from '../../../../lambdas/domain/storage/settings-store';
import { nextDispatchDate } from '../../../../shared/dispatch';
import { type FulfilmentHarness, startFulfilmentHarness } from '../../../support/fulfilment-harness';

// A session `pause` could not close in time (paid between its listing and its expire) is recorded
// like any other paid session, never dropped, and flagged for the merchant.
describe('fulfilCheckout while the shop is paused', () => {
  let h: FulfilmentHarness;
  const table = () => ({ client: h.clients.documentClient, tableName: h.standIns.tableName });

  beforeAll(async () => {
    h = await startFulfilmentHarness();
  });
  afterEach(async () => {
    await writeShopSettings(table(), { mode: 'open' }, new Date());
  });
  afterAll(() => h.close());

  async function fulfilledOrder(options: { paymentLink?: boolean } = {}) {
    const session = await h.paidSession();
    if (options.paymentLink) {
      // As request-payment makes it: the request's reference behind `req_`.
      h.simulator.patchSession(session.id, { client_reference_id: 'req_R0A1B2C3D4E5' });
    }
    const result = await fulfilCheckout(session.id, h.deps);
    const [order] = await h.ordersFor(session.id);
    return { session, result, order };
  }

  it('paused: records the order, flagged with the mode and when the pause began, and emails both once', async () => {
    // Prepare
    await writeShopSettings(
      table(),
      { mode: 'paused', message: 'Back on Monday.' },
      new Date('2026-11-25T13:15:00.000Z'),
    );

    // Act
    const { session, result, order } = await fulfilledOrder();

    // Assess
    expect(result).toMatchObject({ outcome: 'fulfilled', orderCreated: true });
    expect(order).toMatchObject({
      status: 'paid',
      placedWhilePaused: true,
      pausedMode: 'paused',
      pausedSince: '2026-11-25T13:15:00.000Z',
    });
    expect(await h.counts(session.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
    const [notice] = (await h.emailsFor(session.id)).merchantNotice;
    expect(notice?.subject).toMatch(/ \(paid while paused\)$/);
    expect(notice?.body.text).toContain('Paid while the shop was paused since Wed 25 Nov, 13:15:');
  });

  it('keeps the dispatch date computed as for any order (the merchant refunds or delays it)', async () => {
    // Prepare
    await writeShopSettings(table(), { mode: 'paused', message: 'Back soon.' }, new Date());

    // Act
    const { order } = await fulfilledOrder();

    // Assess
    expect(order?.dispatchDate).toBe(nextDispatchDate(new Date(String(order?.createdAt))));
  });

  it.each([
    ['open', async () => writeShopSettings(table(), { mode: 'open' }, new Date())],
    [
      'no settings item at all (a shop never paused)',
      async () => {
        await h.standIns.inspector.send(
          new DeleteCommand({ TableName: h.standIns.tableName, Key: { pk: 'SETTINGS#shop' } }),
        );
        expect((await h.standIns.orderItems()).map((item) => item.pk)).not.toContain('SETTINGS#shop');
      },
    ],
  ])('%s: the order is recorded with no flag', async (_case, prepare) => {
    // Prepare
    await prepare();

    // Act
    const { result, order } = await fulfilledOrder();

    // Assess
    expect(result).toMatchObject({ outcome: 'fulfilled', orderCreated: true });
    expect(order).toMatchObject({ status: 'paid' });
    expect(order).not.toHaveProperty('placedWhilePaused');
    expect(order).not.toHaveProperty('pausedMode');
    expect(order).not.toHaveProperty('pausedSince');
  });

  it('a malformed settings item reads as paused: flagged, with no time', async () => {
    // Prepare: a hand edit that lost the time.
    await h.standIns.inspector.send(
      new PutCommand({ TableName: h.standIns.tableName, Item: { pk: 'SETTINGS#shop', mode: 'open' } }),
    );

    // Act
    const { order } = await fulfilledOrder();

    // Assess
    expect(order).toMatchObject({ placedWhilePaused: true, pausedMode: 'paused' });
    expect(order).not.toHaveProperty('pausedSince');
  });

  it('requests mode: an ordinary checkout is flagged, a payment link the merchant sent is not', async () => {
    // Prepare
    await writeShopSettings(table(), { mode: 'requests' }, new Date('2026-11-25T09:00:00.000Z'));

    // Act
    const ordinary = await fulfilledOrder();
    const paymentLink = await fulfilledOrder({ paymentLink: true });

    // Assess
    expect(ordinary.order).toMatchObject({
      placedWhilePaused: true,
      pausedMode: 'requests',
      pausedSince: '2026-11-25T09:00:00.000Z',
    });
    expect(paymentLink.order).toMatchObject({ status: 'paid' });
    expect(paymentLink.order).not.toHaveProperty('placedWhilePaused');
    const [notice] = (await h.emailsFor(ordinary.session.id)).merchantNotice;
    expect(notice?.body.text).toContain(
      'Paid while the shop was taking order requests only since Wed 25 Nov, 09:00:',
    );
  });

  it('a redelivery after the shop reopened keeps the flag and sends nothing again', async () => {
    // Prepare
    await writeShopSettings(table(), { mode: 'paused', message: 'Back soon.' }, new Date());
    const { session, order } = await fulfilledOrder();
    await writeShopSettings(table(), { mode: 'open' }, new Date());

    // Act
    const again = await fulfilCheckout(session.id, h.deps);

    // Assess
    expect(again).toMatchObject({ outcome: 'fulfilled', orderCreated: false });
    expect(await h.ordersFor(session.id)).toEqual([order]);
    expect(order).toMatchObject({ placedWhilePaused: true });
    expect(await h.counts(session.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
  });
});

describe('pauseMarkFor', () => {
  const ordinary = { client_reference_id: 'ord_0123456789abcdef01234567' };
  const paymentLink = { client_reference_id: 'req_R0A1B2C3D4E5' };

  it.each([
    ['open', { mode: 'open' as const }, ordinary, undefined],
    ['open, a payment link', { mode: 'open' as const }, paymentLink, undefined],
    [
      'paused (since its pause, not its latest message)',
      {
        mode: 'paused' as const,
        updatedAt: '2026-11-25T13:15:00.000Z',
        modeSince: '2026-11-25T12:00:00.000Z',
      },
      ordinary,
      { mode: 'paused', since: '2026-11-25T12:00:00.000Z' },
    ],
    [
      'paused, a payment link',
      {
        mode: 'paused' as const,
        updatedAt: '2026-11-25T13:15:00.000Z',
        modeSince: '2026-11-25T12:00:00.000Z',
      },
      paymentLink,
      { mode: 'paused', since: '2026-11-25T12:00:00.000Z' },
    ],
    [
      'paused, no time (a malformed item)',
      { mode: 'paused' as const },
      ordinary,
      { mode: 'paused', since: undefined },
    ],
    [
      'requests',
      {
        mode: 'requests' as const,
        updatedAt: '2026-11-25T09:00:00.000Z',
        modeSince: '2026-11-25T09:00:00.000Z',
      },
      ordinary,
      { mode: 'requests', since: '2026-11-25T09:00:00.000Z' },
    ],
    ['requests, a payment link', { mode: 'requests' as const }, paymentLink, undefined],
    [
      'requests, no client reference',
      { mode: 'requests' as const },
      { client_reference_id: null },
      { mode: 'requests', since: undefined },
    ],
  ])('%s', (_case, settings, session, expected) => {
    expect(pauseMarkFor(settings, session)).toEqual(expected);
  });
});
