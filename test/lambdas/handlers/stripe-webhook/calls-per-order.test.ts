import { randomUUID } from 'node:crypto';
import type { MetadataBearer, MiddlewareStack } from '@smithy/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FulfilmentHarness, startFulfilmentHarness } from '../../../support/fulfilment-harness';

/** The name of every command a real client sends, in order, whatever its outcome. */
function recordCommandNames<Input extends object, Output extends MetadataBearer>(client: {
  middlewareStack: MiddlewareStack<Input, Output>;
}): string[] {
  const names: string[] = [];
  client.middlewareStack.add(
    (next, context) => (args) => {
      names.push(String(context.commandName));
      return next(args);
    },
    { step: 'initialize', name: `command-names-${randomUUID()}` },
  );
  return names;
}

// Round trips per paid order, counted on the real clients against dynalite, the SES stand-in and
// the Stripe simulator: a new order's emails are claimed in the order's own conditional put, and
// the shop's settings are read once, so an order paid while the shop is paused is flagged.
describe('stripe-webhook: calls per order', () => {
  let h: FulfilmentHarness;
  let dynamo: string[];
  let ses: string[];

  beforeAll(async () => {
    h = await startFulfilmentHarness();
    dynamo = recordCommandNames(h.clients.documentClient);
    ses = recordCommandNames(h.clients.ses);
  });
  afterAll(() => h.close());

  it('fulfils a new order with 5 DynamoDB calls (read, settings read, put, one mark per email), 2 SES calls and 1 Stripe call', async () => {
    // Prepare
    const session = await h.paidSession();
    const payload = await h.eventFor('checkout.session.completed', session.id);
    dynamo.length = 0;
    ses.length = 0;
    const stripeBefore = h.stripeCalls();

    // Act
    const result = await h.webhook(h.delivery(payload));

    // Assess
    expect(result.statusCode).toBe(200);
    expect(dynamo).toEqual([
      'GetItemCommand',
      'GetItemCommand',
      'PutItemCommand',
      'UpdateItemCommand',
      'UpdateItemCommand',
    ]);
    expect(ses).toEqual(['SendEmailCommand', 'SendEmailCommand']);
    expect(h.stripeCalls() - stripeBefore).toBe(1);
    expect(await h.counts(session.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
    expect((await h.ordersFor(session.id))[0]).toMatchObject({
      confirmationEmailState: 'sent',
      merchantNoticeEmailState: 'sent',
    });
  });

  it('answers a redelivery of a fulfilled order with 1 DynamoDB read and nothing else', async () => {
    // Prepare
    const session = await h.paidSession();
    const payload = await h.eventFor('checkout.session.completed', session.id);
    expect((await h.webhook(h.delivery(payload))).statusCode).toBe(200);
    dynamo.length = 0;
    ses.length = 0;
    const stripeBefore = h.stripeCalls();

    // Act
    const redelivery = await h.webhook(h.delivery(payload));

    // Assess
    expect(redelivery.statusCode).toBe(200);
    expect(dynamo).toEqual(['GetItemCommand']);
    expect(ses).toEqual([]);
    expect(h.stripeCalls() - stripeBefore).toBe(0);
  });
});
