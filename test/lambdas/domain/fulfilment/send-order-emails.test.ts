import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type EmailSender,
  type OutgoingEmail,
  PermanentEmailRefusalError,
} from '../../../../lambdas/domain/emails/send-email';
import {
  type OrderEmailDeps,
  sendOrderEmails,
} from '../../../../lambdas/domain/fulfilment/send-order-emails';
import type { OrderItem } from '../../../../lambdas/domain/storage/order';
import {
  createOrdersRepository,
  type OrdersRepository,
} from '../../../../lambdas/domain/storage/orders-repository';
import { createDocumentClient } from '../../../../lambdas/lib/aws';
import { logger } from '../../../../lambdas/lib/logger';
import { orderFixture, SELLER } from '../../../support/order-fixtures';
import { STAND_IN_REGION, type StandIns, startStandIns } from '../../../support/stand-ins';

/**
 * A sender that records every message and answers as the test scripts it, per recipient: the SES
 * behaviour itself (real SDK, stand-in) is tested in send-email.test.ts and the webhook suites;
 * here each branch of the state machine is driven on purpose, against the real table.
 */
function scriptedSender(script: (email: OutgoingEmail) => Promise<string> | string) {
  const sent: OutgoingEmail[] = [];
  const sender: EmailSender = {
    async send(email) {
      sent.push(email);
      return script(email);
    },
  };
  return { sender, sent };
}

const MERCHANT = 'merchant@live-aquatics.test';

describe('sendOrderEmails', () => {
  let standIns: StandIns;
  let orders: OrdersRepository;
  let counter = 0;
  const metricLines: string[] = [];

  beforeAll(async () => {
    logger.setLogLevel('SILENT');
    standIns = await startStandIns();
    orders = createOrdersRepository(
      createDocumentClient({ region: STAND_IN_REGION, endpoint: standIns.dynamoEndpoint }),
      standIns.tableName,
    );
  });
  afterAll(() => standIns.close());

  async function storedOrder(overrides: Partial<OrderItem> = {}): Promise<OrderItem> {
    counter += 1;
    const sessionId = `cs_test_emails${String(counter).padStart(20, '0')}`;
    const order = { ...orderFixture(), pk: `ORDER#${sessionId}`, sessionId, ...overrides };
    await orders.createIfAbsent(order);
    return order;
  }

  const deps = (sender: EmailSender): OrderEmailDeps => ({
    orders,
    sender,
    seller: SELLER,
    merchantEmail: MERCHANT,
    siteUrl: 'https://daphnia.example',
    now: () => new Date(),
    metrics: (line) => metricLines.push(line),
  });

  it('sends both, the notice saying a paid order, and reports each as sent', async () => {
    // Prepare
    const order = await storedOrder();
    const { sender, sent } = scriptedSender((email) => `msg-${email.to}`);

    // Act
    const outcomes = await sendOrderEmails(order, deps(sender));

    // Assess
    expect(outcomes).toEqual({ confirmation: 'sent', merchantNotice: 'sent' });
    expect(sent.map((email) => email.to)).toEqual(['zoe@example.com', MERCHANT]);
    expect(sent[1]?.content.text).toMatch(/^Live Aquatics\n=+\n\nA new order has been paid/);
    expect(sent[1]?.replyTo).toBe('zoe@example.com');
    expect(await orders.get(order.sessionId)).toMatchObject({
      confirmationEmailState: 'sent',
      confirmationEmailMessageId: 'msg-zoe@example.com',
      merchantNoticeEmailState: 'sent',
    });
  });

  it('sends nothing for emails already sent or refused, and says which', async () => {
    // Prepare
    const done = await storedOrder({ confirmationEmailState: 'sent', merchantNoticeEmailState: 'sent' });
    const refused = await storedOrder({ confirmationEmailState: 'failed', merchantNoticeEmailState: 'sent' });
    const { sender, sent } = scriptedSender(() => 'unexpected');

    // Act
    const outcomes = [
      await sendOrderEmails(done, deps(sender)),
      await sendOrderEmails(refused, deps(sender)),
    ];

    // Assess
    expect(outcomes).toEqual([
      { confirmation: 'already-sent', merchantNotice: 'already-sent' },
      { confirmation: 'refused', merchantNotice: 'already-sent' },
    ]);
    expect(sent).toEqual([]);
  });

  it('leaves an email another attempt holds a fresh claim on: claimed-elsewhere, nothing sent', async () => {
    // Prepare
    const order = await storedOrder();
    await orders.claimEmail(order.sessionId, 'confirmation', 'other', new Date(), new Date(0));
    const { sender, sent } = scriptedSender(() => 'msg');

    // Act
    const outcomes = await sendOrderEmails(order, deps(sender));

    // Assess
    expect(outcomes).toEqual({ confirmation: 'claimed-elsewhere', merchantNotice: 'sent' });
    expect(sent.map((email) => email.to)).toEqual([MERCHANT]);
  });

  it('records a permanent refusal of the customer, tells the merchant in the notice, and counts it once', async () => {
    // Prepare
    const order = await storedOrder();
    const before = metricLines.length;
    const { sender, sent } = scriptedSender((email) => {
      if (email.to === 'zoe@example.com') throw new PermanentEmailRefusalError('MessageRejected');
      return 'msg';
    });

    // Act
    const outcomes = await sendOrderEmails(order, deps(sender));

    // Assess
    expect(outcomes).toEqual({ confirmation: 'refused', merchantNotice: 'sent' });
    expect(sent[1]?.content.text).toMatch(
      /^Live Aquatics\n=+\n\nAction needed: the customer has NOT received/,
    );
    expect(metricLines.slice(before).map((line) => JSON.parse(line).CustomerEmailRefused)).toEqual([1]);
    expect(await orders.get(order.sessionId)).toMatchObject({
      confirmationEmailState: 'failed',
      confirmationEmailFailureReason: 'MessageRejected',
    });
  });

  it('does not record a refusal when its claim was taken over meanwhile: claimed-elsewhere, no metric', async () => {
    // Prepare: while this attempt sends, another takes its claim over as stale.
    const order = await storedOrder();
    const before = metricLines.length;
    const { sender } = scriptedSender(async (email) => {
      if (email.to !== 'zoe@example.com') return 'msg';
      const later = new Date(Date.now() + 10 * 60_000);
      await orders.claimEmail(
        order.sessionId,
        'confirmation',
        'other',
        later,
        new Date(later.getTime() - 60_000),
      );
      throw new PermanentEmailRefusalError('InvalidParameterValue');
    });

    // Act
    const outcomes = await sendOrderEmails(order, deps(sender));

    // Assess
    expect(outcomes.confirmation).toBe('claimed-elsewhere');
    expect(metricLines.slice(before)).toEqual([]);
    expect(await orders.get(order.sessionId)).toMatchObject({
      confirmationEmailState: 'sending',
      confirmationEmailClaimToken: 'other',
    });
  });

  it('keeps a refusal of the merchant’s own address an error to retry, never "refused"', async () => {
    // Prepare
    const order = await storedOrder();
    const refusal = new PermanentEmailRefusalError('address-not-ascii');
    const { sender } = scriptedSender((email) => {
      if (email.to === MERCHANT) throw refusal;
      return 'msg';
    });

    // Act
    const sending = sendOrderEmails(order, deps(sender));

    // Assess
    await expect(sending).rejects.toBe(refusal);
    expect(await orders.get(order.sessionId)).toMatchObject({
      confirmationEmailState: 'sent',
      merchantNoticeEmailState: 'pending',
    });
  });

  it('throws the confirmation’s own transient error once the notice went out, with the claim released', async () => {
    // Prepare
    const order = await storedOrder();
    const throttled = new Error('Throttling');
    const { sender, sent } = scriptedSender((email) => {
      if (email.to === 'zoe@example.com') throw throttled;
      return 'msg';
    });

    // Act
    const sending = sendOrderEmails(order, deps(sender));

    // Assess
    await expect(sending).rejects.toBe(throttled);
    expect(sent.map((email) => email.to)).toEqual(['zoe@example.com', MERCHANT]);
    expect(await orders.get(order.sessionId)).toMatchObject({
      confirmationEmailState: 'pending',
      merchantNoticeEmailState: 'sent',
    });
  });

  it('throws the notice’s transient error too, after the confirmation was sent', async () => {
    // Prepare
    const order = await storedOrder();
    const { sender } = scriptedSender((email) => {
      if (email.to === MERCHANT) throw new Error('SES unavailable');
      return 'msg';
    });

    // Act
    const sending = sendOrderEmails(order, deps(sender));

    // Assess
    await expect(sending).rejects.toThrow('SES unavailable');
    expect(await orders.get(order.sessionId)).toMatchObject({
      confirmationEmailState: 'sent',
      merchantNoticeEmailState: 'pending',
    });
  });
});
