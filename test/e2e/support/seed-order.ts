import { randomUUID } from 'node:crypto';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { toOrderItem } from '../../../lambdas/domain/checkout/paid-checkout';
import { newPageKey, orderPageKeys, orderPageToken } from '../../../lambdas/domain/order-page-token';
import type { ManagedOrder } from '../../../lambdas/domain/storage/managed-order';
import { dispatchDayKey, dispatchSortKey } from '../../../lambdas/domain/storage/orders-table';
import { addDays, firstComingDispatchDay, type IsoDate } from '../../../shared/dispatch';
import { quoteOrder } from '../../../shared/pricing';
import type { Stack } from './fixtures';

/**
 * A paid order of 3 bottles written as fulfilment writes it (no Stripe payment behind it), for the
 * next dispatch day; returns its reference and that day.
 */
export async function seedOrder(
  stack: Stack,
  customer: { name: string; email: string },
  address = { address: '4 Track Row\nYork', postcode: 'YO1 7HH' },
): Promise<{ reference: string; dispatchDate: string }> {
  const sessionId = `cs_test_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
  // Paid in time for the week's next dispatch day: after Saturday's cut-off an order paid now would
  // go to the Monday after, while the merchant's week still shows the coming Monday.
  const day = firstComingDispatchDay(new Date());
  const now = new Date(Math.min(Date.now(), Date.parse(`${addDays(day, -3)}T10:00:00Z`)));
  const item = toOrderItem(
    {
      sessionId,
      paymentIntentId: undefined,
      livemode: false,
      quote: quoteOrder(3),
      currency: 'gbp',
      customer: { ...customer, phone: '07700 900123', ...address },
      promisedDispatchDate: undefined,
      checkoutCreatedAt: now,
    },
    { now, paidAt: now, cutoffHours: 36 },
  );
  const stored = Object.fromEntries(Object.entries(item).filter(([, value]) => value !== undefined));
  await DynamoDBDocumentClient.from(stack.dynamo).send(
    new PutCommand({ TableName: stack.tableName, Item: stored }),
  );
  return { reference: sessionId.slice(-12), dispatchDate: item.dispatchDate };
}

/**
 * A paid order of 3 bottles for `day`, paid three days before it at 10:00, with its page key and
 * `changes` (a delay, a dispatch) written over it; returns its reference and its page's token,
 * sealed with the stack's own secret (the local shop's, or the one the rehearsal generated), so the page opens without an email.
 */
export async function seedOrderWithPage(
  stack: Stack,
  day: IsoDate,
  customer: { name: string; email: string; address: string; postcode: string },
  changes: Partial<ManagedOrder> = {},
): Promise<{ reference: string; token: string }> {
  const sessionId = `cs_test_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
  const paidAt = new Date(`${addDays(day, -3)}T10:00:00Z`);
  const { address, postcode, ...names } = customer;
  const mapped = toOrderItem(
    {
      sessionId,
      paymentIntentId: undefined,
      livemode: false,
      quote: quoteOrder(3),
      currency: 'gbp',
      customer: { ...names, phone: '07700 900123', address, postcode },
      promisedDispatchDate: day,
      checkoutCreatedAt: paidAt,
    },
    { now: paidAt, paidAt, cutoffHours: 36 },
  );
  const pageKey = newPageKey();
  const order = { ...mapped, pageKey, dispatchDate: day, ...changes };
  const item = {
    ...order,
    gsi1pk: dispatchDayKey(order.dispatchDate),
    gsi1sk: dispatchSortKey(order.status, order.paidAt, order.reference),
  };
  const stored = Object.fromEntries(Object.entries(item).filter(([, value]) => value !== undefined));
  await DynamoDBDocumentClient.from(stack.dynamo).send(
    new PutCommand({ TableName: stack.tableName, Item: stored }),
  );
  const token = orderPageToken(sessionId, pageKey, orderPageKeys(stack.orderPageSecret));
  return { reference: mapped.reference, token };
}
