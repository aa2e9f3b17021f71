import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createWebhookHandler } from '../../../../lambdas/handlers/stripe-webhook/handler';
import { jsonBody } from '../../../support/api-gateway-event';
import { countCommands } from '../../../support/aws-faults';
import {
  type FulfilmentHarness,
  startFulfilmentHarness,
  WEBHOOK_SECRET,
} from '../../../support/fulfilment-harness';
import { captureLogs } from '../../../support/logs';
import { eventPayload, signPayload, stripeEvent } from '../../../support/stripe-events';

// A delivery whose signature or timestamp fails verification causes no side effect at all.
describe('payments and reliability: webhook authenticity', () => {
  let h: FulfilmentHarness;
  let dynamoCommands: () => number;
  let sesCommands: () => number;

  beforeAll(async () => {
    h = await startFulfilmentHarness();
    dynamoCommands = countCommands(h.clients.documentClient);
    sesCommands = countCommands(h.clients.ses);
  });
  afterAll(() => h.close());

  /** Everything the code under test could have touched, to prove a refusal touched nothing. */
  async function sideEffects() {
    return {
      dynamoCommands: dynamoCommands(),
      sesCommands: sesCommands(),
      stripeCalls: h.stripeCalls(),
      orders: (await h.standIns.orderItems()).length,
      emails: (await h.standIns.emails()).length,
    };
  }

  it('same signed event pretty-printed with Zoë and £, plain and base64 body: verifies and fulfils once', async () => {
    // Prepare
    const session = await h.paidSession({
      customer: { name: 'Zoë Brontë', address: 'Flat 2, Pound (£) Court\nLondon' },
    });
    // Pretty-printed and non-ASCII on purpose: a handler that parsed and re-serialised the body
    // before verifying would lose the whitespace, answer 400 here and fail this test.
    const payload = await h.eventFor('checkout.session.completed', session.id);
    expect(payload).toContain('Zoë');
    expect(payload).toContain('£');
    expect(payload).toContain('\n  ');

    // Act
    const plain = await h.webhook(h.delivery(payload));
    const base64 = await h.webhook(h.delivery(payload, { base64: true }));

    // Assess
    expect(plain.statusCode).toBe(200);
    expect(base64.statusCode).toBe(200);
    const orders = await h.ordersFor(session.id);
    expect(orders).toHaveLength(1);
    expect(orders[0]?.customerName).toBe('Zoë Brontë');
    const emails = await h.emailsFor(session.id);
    expect(emails.confirmation).toHaveLength(1);
    expect(emails.merchantNotice).toHaveLength(1);
  });

  it('body re-serialised before verifying (parsed and stringified again): 400, only the raw bytes verify', async () => {
    // Prepare: what a handler that parsed and re-stringified the body would hand to the SDK.
    const session = await h.paidSession({ customer: { name: 'Zoë Brontë' } });
    const payload = await h.eventFor('checkout.session.completed', session.id);
    const header = signPayload(payload, WEBHOOK_SECRET, h.clock.nowSeconds());
    const reserialised = JSON.stringify(JSON.parse(payload));

    // Act
    const result = await h.webhook(h.delivery(reserialised, { header }));

    // Assess
    expect(result.statusCode).toBe(400);
    expect(await h.ordersFor(session.id)).toHaveLength(0);
  });

  it.each(['stripe-signature', 'Stripe-Signature'])('header named %s: verifies', async (headerName) => {
    // Prepare
    const session = await h.paidSession();
    const payload = await h.eventFor('checkout.session.completed', session.id);

    // Act
    const result = await h.webhook(h.delivery(payload, { headerName }));

    // Assess
    expect(result.statusCode).toBe(200);
    expect(await h.ordersFor(session.id)).toHaveLength(1);
  });

  describe('refused with 400 and no side effect at all', () => {
    let payload: string;
    let sessionId: string;

    beforeAll(async () => {
      const session = await h.paidSession();
      sessionId = session.id;
      payload = await h.eventFor('checkout.session.completed', session.id);
    });
    // The boundary cases (301 s old, 301 s ahead) sign against the clock the code reads.
    beforeEach(() => h.clock.freeze());
    afterEach(() => h.clock.reset());

    const now = () => h.clock.nowSeconds();
    const v1 = (body: string, secret: string, t: number) =>
      createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest('hex');
    const cases: Array<[string, () => { body: string; header: string | null; base64?: boolean }]> = [
      ['a missing header', () => ({ body: payload, header: null })],
      ['a garbage header', () => ({ body: payload, header: 'definitely-not-a-signature' })],
      [
        'only a v0 signature',
        () => ({ body: payload, header: `t=${now()},v0=${v1(payload, WEBHOOK_SECRET, now())}` }),
      ],
      [
        'the wrong secret',
        () => ({ body: payload, header: signPayload(payload, 'whsec_someone_else', now()) }),
      ],
      [
        'one byte changed',
        () => ({
          body: payload.replace('"amount_total": 1470', '"amount_total": 1471'),
          header: signPayload(payload, WEBHOOK_SECRET, now()),
        }),
      ],
      [
        'one byte changed in a base64 body',
        () => ({
          body: payload.replace('Zo', 'Zp'),
          header: signPayload(payload, WEBHOOK_SECRET, now()),
          base64: true,
        }),
      ],
      ['an empty body', () => ({ body: '', header: signPayload('', WEBHOOK_SECRET, now()) })],
    ];
    const timestamps: Array<[string, () => { body: string; header: string }]> = [
      ['301 s old', () => ({ body: payload, header: signPayload(payload, WEBHOOK_SECRET, now() - 301) })],
      [
        'far in the future (an hour ahead)',
        () => ({ body: payload, header: signPayload(payload, WEBHOOK_SECRET, now() + 3_600) }),
      ],
      [
        '301 s in the future',
        () => ({ body: payload, header: signPayload(payload, WEBHOOK_SECRET, now() + 301) }),
      ],
    ];

    async function expectRefusedWithoutSideEffect(delivery: {
      body: string;
      header: string | null;
      base64?: boolean;
    }): Promise<void> {
      // Prepare
      const { body, header, base64 } = delivery;
      const before = await sideEffects();

      // Act
      const result = await h.webhook(h.delivery(body, { header, base64 }));

      // Assess
      expect(result.statusCode).toBe(400);
      expect(jsonBody(result)).toEqual({ error: 'Webhook signature verification failed.' });
      expect(await sideEffects()).toEqual(before);
      expect(await h.ordersFor(sessionId)).toHaveLength(0);
    }

    it.each(cases)('%s: 400, no DynamoDB write, no SES call, no Stripe call', async (_name, build) => {
      await expectRefusedWithoutSideEffect(build());
    });

    it.each(timestamps)('timestamp %s: 400, no side effect', async (_name, build) => {
      await expectRefusedWithoutSideEffect(build());
    });

    it('livemode true on a test deployment: rejected, no side effect', async () => {
      // Prepare
      const live = await h.eventFor('checkout.session.completed', sessionId, { livemode: true });
      const before = await sideEffects();

      // Act
      const result = await h.webhook(h.delivery(live));

      // Assess
      expect(result.statusCode).toBe(400);
      expect(await sideEffects()).toEqual(before);
    });

    it('livemode false on a live deployment: rejected, no side effect', async () => {
      // Prepare: the same clients and secret, configured as a live deployment.
      const liveWebhook = createWebhookHandler({
        fulfilment: h.deps,
        webhookSecret: WEBHOOK_SECRET,
        livemode: true,
      });
      const testEvent = await h.eventFor('checkout.session.completed', sessionId, { livemode: false });
      const before = await sideEffects();

      // Act
      const result = await liveWebhook(h.delivery(testEvent));

      // Assess
      expect(result.statusCode).toBe(400);
      expect(jsonBody(result)).toEqual({ error: 'Webhook signature verification failed.' });
      expect(await sideEffects()).toEqual(before);
    });
  });

  it.each([
    ['299 s old', -299],
    ['299 s in the future (our clock behind Stripe’s)', 299],
  ])('timestamp %s: accepted', async (_label, offsetSeconds) => {
    // Prepare: signed against the clock the code reads, frozen so the age is exact.
    const session = await h.paidSession();
    const payload = await h.eventFor('checkout.session.completed', session.id);
    h.clock.freeze();
    try {
      // Act
      const result = await h.webhook(
        h.delivery(payload, { timestamp: h.clock.nowSeconds() + offsetSeconds }),
      );

      // Assess
      expect(result.statusCode).toBe(200);
      expect(await h.ordersFor(session.id)).toHaveLength(1);
    } finally {
      h.clock.reset();
    }
  });

  it('unknown event type (customer.created): 2xx, no work', async () => {
    // Prepare
    const payload = eventPayload(
      stripeEvent(
        'customer.created',
        { id: 'cus_123', object: 'customer', metadata: { shop: 'live-aquatics' } },
        { created: h.clock.nowSeconds() },
      ),
    );
    const before = await sideEffects();

    // Act
    const result = await h.webhook(h.delivery(payload));

    // Assess
    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toEqual({ received: true, outcome: 'ignored' });
    expect(await sideEffects()).toEqual(before);
  });

  it('paid session that is not ours (no marker in metadata): 2xx, no work', async () => {
    // Prepare
    const session = await h.paidSession({ notOurs: true });
    const payload = await h.eventFor('checkout.session.completed', session.id);
    const before = await sideEffects();

    // Act
    const result = await h.webhook(h.delivery(payload));

    // Assess
    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toEqual({ received: true, outcome: 'not-ours' });
    expect(await sideEffects()).toEqual(before);
  });

  it('no secret or full PII in the webhook logs: a refused and a fulfilled delivery log ids and reasons only', async () => {
    // Prepare
    const session = await h.paidSession();
    const email = session.customer_email ?? '';
    const payload = await h.eventFor('checkout.session.completed', session.id);
    const header = signPayload(payload, WEBHOOK_SECRET, h.clock.nowSeconds());

    // Act
    const logs = await captureLogs(async () => {
      await h.webhook(
        h.delivery(payload, { header: signPayload(payload, 'whsec_someone_else', h.clock.nowSeconds()) }),
      );
      await h.webhook(h.delivery(payload, { header }));
    });

    // Assess: what the operator needs is there; the secret, the signature and the customer are not.
    const text = JSON.stringify(logs);
    expect(logs).toContainEqual(
      expect.objectContaining({ route: 'stripe-webhook', statusCode: 400, reason: 'bad-signature' }),
    );
    expect(logs).toContainEqual(
      expect.objectContaining({ route: 'stripe-webhook', statusCode: 200, outcome: 'fulfilled' }),
    );
    expect(email).toContain('@');
    for (const value of [WEBHOOK_SECRET, header, email, 'Zoë Brontë', 'Downing Street', '07700 900123']) {
      expect(text).not.toContain(value);
    }
  });
});
