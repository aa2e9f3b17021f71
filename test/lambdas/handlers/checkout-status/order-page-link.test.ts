import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fulfilCheckout } from '../../../../lambdas/domain/fulfilment/fulfil-checkout';
import { orderPageKeys, readOrderPageToken } from '../../../../lambdas/domain/order-page-token';
import { createStatusHandler } from '../../../../lambdas/handlers/checkout-status/handler';
import { createCheckoutSession } from '../../../support/checkout-sessions';
import {
  type FulfilmentHarness,
  ORDER_PAGE_SECRET,
  startFulfilmentHarness,
} from '../../../support/fulfilment-harness';
import { TEST_SHOP_ID } from '../../../support/shop';
import { statusAnswer, statusEvent } from './harness';

// The success page links to the order's own page for whoever holds the session id, and only them:
// the status lookup answers the link of the session's order (or of its debit waiting for the bank),
// reading the page key by the session id alone (ADR 0047).
describe('checkout-status: the order page link', () => {
  let h: FulfilmentHarness;
  const keys = orderPageKeys(ORDER_PAGE_SECRET);
  const status = (sessionId: string) =>
    createStatusHandler({
      stripe: h.stripe,
      shopId: TEST_SHOP_ID,
      orderPages: { table: h.deps.table, keys },
    })(statusEvent(sessionId));

  beforeAll(async () => {
    h = await startFulfilmentHarness();
  });
  afterAll(() => h.close());

  /** The link in the text part of the session's last email to the customer. */
  async function emailedLink(sessionId: string): Promise<string | undefined> {
    const emails = (await h.emailsFor(sessionId)).confirmation;
    const text = emails.at(-1)?.body.text ?? '';
    return /View your order: https:\/\/shop\.test(\/order\/[A-Za-z0-9_-]+)/.exec(text)?.[1];
  }

  it('a paid order: the link its confirmation carries', async () => {
    // Prepare
    const session = await h.paidSession();
    await fulfilCheckout(session.id, h.deps);

    // Act
    const answer = statusAnswer(await status(session.id));

    // Assess
    expect(answer.status).toBe('paid');
    expect(answer.orderPage).toMatch(/^\/order\/[A-Za-z0-9_-]{40,400}$/);
    expect(answer.orderPage).toBe(await emailedLink(session.id));
    const claim = readOrderPageToken(String(answer.orderPage).slice('/order/'.length), keys);
    expect(claim?.sessionId).toBe(session.id);
  });

  it('a debit with the bank: the link its waiting email carries, and the same link once the order is recorded', async () => {
    // Prepare
    const session = await createCheckoutSession(h.stripe);
    await h.simulator.completeSession(session.id, { paymentStatus: 'unpaid' });
    await h.webhook(h.delivery(await h.eventFor('checkout.session.completed', session.id)));

    // Act
    const waiting = statusAnswer(await status(session.id));
    await h.simulator.settleAsyncPayment(session.id, 'succeeded');
    await h.webhook(h.delivery(await h.eventFor('checkout.session.async_payment_succeeded', session.id)));
    const paid = statusAnswer(await status(session.id));

    // Assess
    expect(waiting.status).toBe('unpaid');
    expect(waiting.orderPage).toMatch(/^\/order\//);
    expect(paid.status).toBe('paid');
    expect(paid.orderPage).toBe(waiting.orderPage);
    expect(await emailedLink(session.id)).toBe(waiting.orderPage);
  });

  it('no link before the webhook has recorded anything, nor for a failed debit', async () => {
    // Prepare
    const early = await h.paidSession();
    const failed = await createCheckoutSession(h.stripe);
    await h.simulator.completeSession(failed.id, { paymentStatus: 'unpaid' });
    await h.simulator.settleAsyncPayment(failed.id, 'failed');

    // Act
    const answers = [statusAnswer(await status(early.id)), statusAnswer(await status(failed.id))];

    // Assess
    expect(answers.map((answer) => [answer.status, answer.orderPage])).toEqual([
      ['paid', undefined],
      ['failed', undefined],
    ]);
  });

  it('no link once the merchant has revoked it: the new one goes by email only', async () => {
    // Prepare: a revoke leaves its pageLink email state on the order.
    const session = await h.paidSession();
    await fulfilCheckout(session.id, h.deps);
    await h.deps.table.client.send(
      new UpdateCommand({
        TableName: h.deps.table.tableName,
        Key: { pk: `ORDER#${session.id}` },
        UpdateExpression: 'SET pageLinkEmailState = :sent',
        ExpressionAttributeValues: { ':sent': 'sent' },
      }),
    );

    // Act
    const answer = statusAnswer(await status(session.id));

    // Assess
    expect(answer.status).toBe('paid');
    expect(answer.orderPage).toBeUndefined();
  });
});
