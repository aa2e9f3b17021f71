import { MessageRejected } from '@aws-sdk/client-ses';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STALE_CLAIM_MS } from '../../../../lambdas/domain/storage/send-once';
import { type AwsFault, injectAwsFault, inputContaining } from '../../../support/aws-faults';
import { type FulfilmentHarness, startFulfilmentHarness } from '../../../support/fulfilment-harness';
import { captureLogs } from '../../../support/logs';

// Exactly once through failures: a failure after each step, then the event replayed; DynamoDB,
// SES or Stripe failing, then Stripe's retry finishing the work.
describe('payments and reliability: exactly once through failures and replays', () => {
  let h: FulfilmentHarness;

  beforeAll(async () => {
    h = await startFulfilmentHarness();
  });
  afterEach(() => h.clock.reset());
  afterAll(() => h.close());

  /** The confirmation is sent first, so its claim and mark are the first matching updates. */
  const claimOfConfirmation = inputContaining('confirmationEmailClaimToken', ':staleBefore');
  const markOfConfirmation = inputContaining('confirmationEmailMessageId');

  /** The release of a claim after a failure: hands the email back to `pending`. */
  const releaseOfClaim = inputContaining('REMOVE #token, #claimedAt');

  /**
   * `new order`: the fault hits the first delivery. `emails left pending`: a first delivery during
   * an SES outage wrote the order and released both claims, and the fault hits the next delivery,
   * which claims each email with an update (a new order's put carries its claims itself).
   */
  type Setup = 'new order' | 'emails left pending';

  async function deliverWithFault(target: 'dynamo' | 'ses', fault: AwsFault, setup: Setup = 'new order') {
    const session = await h.paidSession();
    const payload = await h.eventFor('checkout.session.completed', session.id);
    if (setup === 'emails left pending') {
      const sesDown = injectAwsFault(h.clients.ses, {
        command: 'SendEmailCommand',
        when: 'before',
        times: 2,
      });
      expect((await h.webhook(h.delivery(payload))).statusCode).toBe(500);
      sesDown.remove();
      expect(await h.counts(session.id)).toEqual({ orders: 1, confirmation: 0, merchantNotice: 0 });
    }
    const client = target === 'dynamo' ? h.clients.documentClient : h.clients.ses;
    const injected = injectAwsFault(client, fault);
    const first = await h.webhook(h.delivery(payload));
    injected.remove();
    expect(injected.fired).toBe(1);
    return { sessionId: session.id, payload, first };
  }

  it.each<[string, 'dynamo' | 'ses', AwsFault]>([
    ['the order is written', 'dynamo', { command: 'PutItemCommand', when: 'after' }],
    [
      'the email is marked sent',
      'dynamo',
      { command: 'UpdateItemCommand', when: 'after', matches: markOfConfirmation },
    ],
  ])(
    'failure injected after %s, then the event replayed: one order, each email sent once',
    async (_step, target, fault) => {
      // Prepare
      const { sessionId, payload, first } = await deliverWithFault(target, fault);

      // Act
      const replay = await h.webhook(h.delivery(payload));

      // Assess
      expect(first.statusCode).toBe(500);
      expect(replay.statusCode).toBe(200);
      expect(await h.counts(sessionId)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
    },
  );

  it('failure injected after the email is claimed, then the event replayed: one order, each email sent once (the claim is honoured until stale)', async () => {
    // Prepare
    const { sessionId, payload, first } = await deliverWithFault(
      'dynamo',
      { command: 'UpdateItemCommand', when: 'after', matches: claimOfConfirmation },
      'emails left pending',
    );

    // Act
    const replayAtOnce = await h.webhook(h.delivery(payload));
    const whileClaimed = await h.counts(sessionId);
    h.clock.advance(STALE_CLAIM_MS + 1_000);
    const replayLater = await h.webhook(h.delivery(payload));

    // Assess
    expect(first.statusCode).toBe(500);
    expect(replayAtOnce.statusCode).toBe(200);
    expect(whileClaimed).toEqual({ orders: 1, confirmation: 0, merchantNotice: 1 });
    expect(replayLater.statusCode).toBe(200);
    expect(await h.counts(sessionId)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
  });

  it('hands the claims back when the order put’s answer is lost, so the replay sends at once', async () => {
    // Act: the put lands (with both claims), then its answer is lost.
    const { sessionId, first } = await deliverWithFault('dynamo', {
      command: 'PutItemCommand',
      when: 'after',
    });

    // Assess
    const [order] = await h.ordersFor(sessionId);
    expect(first.statusCode).toBe(500);
    expect(order).toMatchObject({ confirmationEmailState: 'pending', merchantNoticeEmailState: 'pending' });
    expect(order).not.toHaveProperty('confirmationEmailClaimToken');
    expect(order).not.toHaveProperty('merchantNoticeEmailClaimToken');
  });

  it('failure injected after the order is written with its claims, the claims not handed back: one order, each email sent once (the claims are honoured until stale)', async () => {
    // Prepare: the put landed, its answer was lost, and the claims could not be handed back (as
    // when the process dies right after the put).
    const session = await h.paidSession();
    const payload = await h.eventFor('checkout.session.completed', session.id);
    const putLost = injectAwsFault(h.clients.documentClient, { command: 'PutItemCommand', when: 'after' });
    const releaseFails = injectAwsFault(h.clients.documentClient, {
      command: 'UpdateItemCommand',
      when: 'before',
      matches: releaseOfClaim,
      times: 2,
    });
    let first: Awaited<ReturnType<typeof h.webhook>> | undefined;
    const logs = await captureLogs(async () => {
      first = await h.webhook(h.delivery(payload));
    });
    putLost.remove();
    releaseFails.remove();

    // Act
    const replayAtOnce = await h.webhook(h.delivery(payload));
    const whileClaimed = await h.counts(session.id);
    h.clock.advance(STALE_CLAIM_MS + 1_000);
    const replayLater = await h.webhook(h.delivery(payload));

    // Assess
    expect([putLost.fired, releaseFails.fired]).toEqual([1, 2]);
    expect(first?.statusCode).toBe(500);
    // Each failed release is logged and left to go stale; the put's own error is the one answered.
    const releaseWarnings = logs.filter(
      (line) => line.message === 'Could not release an email claim; it will be retried once stale',
    );
    expect(releaseWarnings.map((line) => String(line.kind)).sort()).toEqual([
      'confirmation',
      'merchantNotice',
    ]);
    expect(replayAtOnce.statusCode).toBe(200);
    expect(whileClaimed).toEqual({ orders: 1, confirmation: 0, merchantNotice: 0 });
    expect(replayLater.statusCode).toBe(200);
    expect(await h.counts(session.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
  });

  it('failure injected after the email is sent, before it is marked sent, then replayed: sent twice, the one accepted duplicate window', async () => {
    // Prepare: SES accepts the confirmation, then its answer is lost.
    const { sessionId, payload, first } = await deliverWithFault('ses', {
      command: 'SendEmailCommand',
      when: 'after',
    });

    // Act
    const replay = await h.webhook(h.delivery(payload));

    // Assess: documented in lambdas/domain/fulfilment/send-order-emails.ts.
    expect(first.statusCode).toBe(500);
    expect(replay.statusCode).toBe(200);
    expect(await h.counts(sessionId)).toEqual({ orders: 1, confirmation: 2, merchantNotice: 1 });
  });

  it('resends only once the claim is stale when the mark itself fails after SES accepted', async () => {
    // Prepare: the crash happens in DynamoDB, just before `sent` is recorded.
    const { sessionId, payload, first } = await deliverWithFault('dynamo', {
      command: 'UpdateItemCommand',
      when: 'before',
      matches: markOfConfirmation,
    });

    // Act
    const replayAtOnce = await h.webhook(h.delivery(payload));
    const whileClaimed = await h.counts(sessionId);
    h.clock.advance(STALE_CLAIM_MS + 1_000);
    const replayLater = await h.webhook(h.delivery(payload));

    // Assess
    expect(first.statusCode).toBe(500);
    expect([replayAtOnce.statusCode, replayLater.statusCode]).toEqual([200, 200]);
    expect(whileClaimed).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
    expect(await h.counts(sessionId)).toEqual({ orders: 1, confirmation: 2, merchantNotice: 1 });
  });

  it.each<[string, 'dynamo' | 'ses', AwsFault, Setup?]>([
    ['DynamoDB refuses the read', 'dynamo', { command: 'GetItemCommand', when: 'before' }],
    ['DynamoDB refuses the order write', 'dynamo', { command: 'PutItemCommand', when: 'before' }],
    [
      'DynamoDB refuses the email claim',
      'dynamo',
      { command: 'UpdateItemCommand', when: 'before', matches: claimOfConfirmation },
      'emails left pending',
    ],
    ['SES refuses the confirmation', 'ses', { command: 'SendEmailCommand', when: 'before' }],
  ])(
    'DynamoDB or SES failing (%s): 5xx so Stripe retries, and the retry completes the work once',
    async (_case, target, fault, setup) => {
      // Prepare
      const { sessionId, payload, first } = await deliverWithFault(target, fault, setup);

      // Act
      const retry = await h.webhook(h.delivery(payload));

      // Assess
      expect(first.statusCode).toBe(500);
      expect(retry.statusCode).toBe(200);
      expect(await h.counts(sessionId)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
    },
  );

  it('answers 5xx when Stripe fails, and the retry completes the work', async () => {
    // Prepare: two failures, as the client retries once by itself.
    const session = await h.paidSession();
    const payload = await h.eventFor('checkout.session.completed', session.id);
    h.simulator.injectFault({ status: 500, times: 2, pathPrefix: `/v1/checkout/sessions/${session.id}` });

    // Act
    const first = await h.webhook(h.delivery(payload));
    const ordersAfterFailure = await h.ordersFor(session.id);
    const retry = await h.webhook(h.delivery(payload));

    // Assess
    expect(first.statusCode).toBe(502);
    expect(ordersAfterFailure).toHaveLength(0);
    expect(retry.statusCode).toBe(200);
    expect(await h.counts(session.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
  });

  it("no full PII in the logs: the customer's address is kept out when SES refuses a message naming it", async () => {
    // Prepare: SES in its sandbox refuses an unverified recipient, and says which one.
    const session = await h.paidSession();
    const address = session.customer_email ?? '';
    const payload = await h.eventFor('checkout.session.completed', session.id);
    const sesRefuses = injectAwsFault(h.clients.ses, {
      command: 'SendEmailCommand',
      when: 'before',
      error: () =>
        new MessageRejected({
          message: `Email address is not verified. The following identities failed the check in region EU-WEST-2: ${address}`,
          $metadata: { httpStatusCode: 400 },
        }),
    });

    // Act
    let first: Awaited<ReturnType<typeof h.webhook>> | undefined;
    const logs = await captureLogs(async () => {
      first = await h.webhook(h.delivery(payload));
    });
    sesRefuses.remove();

    // Assess: a refusal of this recipient for good, recorded and logged by name, no address.
    expect(address).toContain('@');
    expect(first?.statusCode).toBe(200);
    expect(logs).toContainEqual(expect.objectContaining({ level: 'WARN', reason: 'MessageRejected' }));
    expect(JSON.stringify(logs)).not.toContain(address);
    expect(await h.counts(session.id)).toEqual({ orders: 1, confirmation: 0, merchantNotice: 1 });
  });

  it('exactly one recipient per message, replying to the seller or to the customer', async () => {
    // Prepare
    const session = await h.paidSession();

    // Act
    await h.webhook(h.delivery(await h.eventFor('checkout.session.completed', session.id)));

    // Assess
    const { confirmation, merchantNotice } = await h.emailsFor(session.id);
    for (const email of [...confirmation, ...merchantNotice]) {
      expect(email.destination.to).toHaveLength(1);
      expect(email.destination.cc).toEqual([]);
      expect(email.destination.bcc).toEqual([]);
      expect(email.from).toBe('"Live Aquatics Ltd" <orders@live-aquatics.test>');
    }
    expect(confirmation[0]?.destination.to).toEqual([session.customer_email]);
    expect(confirmation[0]?.replyTo).toEqual(['hello@live-aquatics.test']);
    expect(merchantNotice[0]?.replyTo).toEqual([session.customer_email]);
  });
});
