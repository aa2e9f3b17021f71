import { randomUUID } from 'node:crypto';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { toOrderItem } from '../../../lambdas/domain/checkout/paid-checkout';
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
  const now = new Date();
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
