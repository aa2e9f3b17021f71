import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookHandler, loadWebhookDeps } from '../../lambdas/handlers/stripe-webhook/handler';
import { sendApiGatewayResult, toApiGatewayEvent } from '../../local/api-gateway-adapter';
import { WEBHOOK_SECRET } from '../support/fulfilment-harness';
import { TEST_SHOP_ID } from '../support/shop';
import { standInEnvironment } from '../support/stand-ins';
import { eventPayload, stripeEvent } from '../support/stripe-events';
import { type OpsHarness, startOpsHarness } from './harness';

let h: OpsHarness;
let webhook: ReturnType<typeof createWebhookHandler>;
beforeAll(async () => {
  h = await startOpsHarness();
  // The webhook wired from its environment exactly as in Lambda, refunds recorder included.
  webhook = createWebhookHandler(() => loadWebhookDeps(webhookEnvironment()));
});
afterAll(async () => {
  await h?.close();
});

/** The webhook's environment as the stack sets it, on this harness's stand-ins and simulator. */
function webhookEnvironment(): Record<string, string> {
  return {
    STRIPE_LIVEMODE: 'false',
    SHOP_ID: TEST_SHOP_ID,
    STRIPE_SECRET_KEY: 'sk_test_refunds',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: h.shop.simulator.url,
    SITE_URL: 'http://shop.test',
    ...standInEnvironment(h.shop.standIns),
  };
}

const refundsOf = (paymentIntent: string | undefined) =>
  h.shop.simulator.refunds.filter((r) => r.payment_intent === paymentIntent);
const refundEmails = async (to: string) =>
  (await h.emailsTo(to)).filter((e) => e.subject.startsWith('Live Aquatics Ltd: refund for order'));

/** The `charge.refunded` event Stripe sends after a Dashboard refund, delivered to the webhook. */
async function deliverChargeRefunded(paymentIntentId: string) {
  const intent = await h.shop.stripe.paymentIntents.retrieve(paymentIntentId, { expand: ['latest_charge'] });
  const charge = intent.latest_charge;
  if (charge === null || typeof charge === 'string') throw new Error('no charge');
  const payload = eventPayload(
    stripeEvent('charge.refunded', charge, { created: h.shop.clock.nowSeconds() }),
  );
  return webhook(h.shop.delivery(payload));
}

describe('orders CLI: refund', () => {
  it('after a part refund of 2 of 6 bottles, refunds the remaining £17.95 only; Stripe refunded £24.45 in all', async () => {
    const order = await h.paidOrder({ quantity: 6, customer: { email: 'refund.rest@example.com' } });
    const part = await h.orders(['refund', order.reference, '--bottles', '2', '--reason', 'doa', '--local']);
    const rest = await h.orders(['refund', order.reference, '--reason', 'supply', '--local']);

    expect(part.code, part.err).toBe(0);
    expect(rest.code, rest.err).toBe(0);
    expect(rest.out).toMatch(
      new RegExp(
        `^${order.reference}: refunded the remaining £17\\.95 \\(all £24\\.45 now refunded\\) \\(Stripe refund re_\\w+, reason supply\\); refund email sent\\.$`,
      ),
    );
    expect(refundsOf(order.paymentIntentId).map((refund) => refund.amount)).toEqual([650, 1795]);
    const intent = await h.shop.stripe.paymentIntents.retrieve(order.paymentIntentId ?? '', {
      expand: ['latest_charge'],
    });
    const charge = intent.latest_charge;
    expect(typeof charge === 'object' && charge?.amount_refunded).toBe(2445);
  });

  it('run twice, the same part refund refunds once at Stripe: the second is refused with what was done; --again refunds it on purpose', async () => {
    const order = await h.paidOrder({ quantity: 6, customer: { email: 'refund.twice@example.com' } });
    const command = ['refund', order.reference, '--bottles', '1', '--reason', 'doa', '--local'];
    h.setNow(new Date('2026-12-06T17:02:00Z'));
    const first = await h.orders(command);
    h.setNow(new Date('2026-12-06T17:06:30Z'));
    const second = await h.orders(command);

    expect(first.code, first.err).toBe(0);
    expect(second.code).toBe(1);
    expect(second.err.split('\n').at(-1)).toBe(
      `Refused: ${order.reference}: 1 bottle (£3.25) was refunded 4 minutes ago (17:02, by merchant@live-aquatics.test). To refund the same again on purpose, confirm it again (CLI: --again).`,
    );
    expect(refundsOf(order.paymentIntentId).map((refund) => refund.amount)).toEqual([325]);
    const again = await h.orders([...command, '--again']);
    h.setNow(undefined);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain('£6.50 of £24.45 refunded in all');
    expect(refundsOf(order.paymentIntentId).map((refund) => refund.amount)).toEqual([325, 325]);
    const partEmails = (await h.emailsTo('refund.twice@example.com')).filter((email) =>
      email.subject.includes(`£3.25 refunded for order ${order.reference}`),
    );
    expect(partEmails).toHaveLength(2);
  });

  it('refunds in full once through the Refunds API: one refund, one email; a second refund is refused and sends nothing', async () => {
    const order = await h.paidOrder({ quantity: 9, customer: { email: 'refund.once@example.com' } });
    const run = await h.orders(['refund', order.reference, '--reason', 'supply', '--local']);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(
      new RegExp(
        `^${order.reference}: refunded £34.20 in full \\(Stripe refund re_\\w+, reason supply\\); refund email sent\\.$`,
      ),
    );
    const again = await h.orders(['refund', order.reference, '--reason', 'other', '--local']);
    expect(again.code).toBe(1);
    expect(again.err).toContain(`Refused: ${order.reference} was already refunded on`);

    const refunds = refundsOf(order.paymentIntentId);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({
      amount: 3420,
      status: 'succeeded',
      metadata: { reference: order.reference, reason: 'supply' },
    });
    const emails = await refundEmails('refund.once@example.com');
    expect(emails).toHaveLength(1);
    expect(emails[0]?.body.text).toContain(
      `We have refunded £34.20 in full for your order ${order.reference} because we could not supply live Daphnia`,
    );
    const [item] = await h.shop.ordersFor(order.sessionId);
    expect(item).toMatchObject({ status: 'refunded', refundReason: 'supply', refundEmailState: 'sent' });
    expect(item?.gsi1sk).toMatch(/^refunded#/);
  });

  it('refunds a dispatched order (dispatched → refunded), and refuses to dispatch a refunded one', async () => {
    const order = await h.paidOrder({ customer: { email: 'doa@example.com' } });
    expect((await h.orders(['mark-dispatched', order.reference, '--local'])).code).toBe(0);
    expect((await h.orders(['refund', order.reference, '--reason', 'doa', '--local'])).code).toBe(0);
    const dispatchAgain = await h.orders(['mark-dispatched', order.reference, '--local']);
    expect(dispatchAgain.code).toBe(1);
    expect(dispatchAgain.err).toContain('was refunded');
    expect(await refundEmails('doa@example.com')).toHaveLength(1);
  });

  it('a refund Stripe refuses leaves the order unchanged and says why', async () => {
    const order = await h.paidOrder({ customer: { email: 'refused@example.com' } });
    // Refunded in the Dashboard, its webhook not (yet) delivered: Stripe refuses a second refund.
    await h.shop.simulator.refundFromDashboard(order.sessionId);
    const run = await h.orders(['refund', order.reference, '--reason', 'other', '--local']);
    expect(run.code).toBe(1);
    expect(run.err).toContain(`Refused: Stripe refused the refund of ${order.reference}:`);
    expect(run.err).toContain('The order is unchanged.');
    const [item] = await h.shop.ordersFor(order.sessionId);
    expect(item?.status).toBe('paid');
    expect(item?.refundEmailState).toBeUndefined();
    // The reason stored before asking Stripe is taken back: the Dashboard refund's webhook, when
    // it arrives, must not tell the customer the command's reason.
    expect(item?.refundReason).toBeUndefined();
    expect(item?.refundRequestedAt).toBeUndefined();
    expect(item?.refundRequestedBy).toBeUndefined();
    expect(await refundEmails('refused@example.com')).toHaveLength(0);
    expect(refundsOf(order.paymentIntentId)).toHaveLength(1);
  });

  it('with Stripe unreachable, says in one line that nothing was refunded and the order is still paid (no stack trace), exit 1', async () => {
    const order = await h.paidOrder({ customer: { email: 'stripe.down@example.com' } });

    const run = await h.orders(['refund', order.reference, '--reason', 'other', '--local'], {
      stripeDown: true,
    });

    expect(run.code).toBe(1);
    expect(run.out).toBe('');
    const lines = run.err.split('\n');
    // The target line, then the one line of the answer.
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(
      new RegExp(
        `^The refund did not go through \\(HTTP 502\\): ${order.reference} was not refunded and is still paid\\. Run refund ${order.reference} again once Stripe answers: it cannot refund twice\\.$`,
      ),
    );
    expect((await h.shop.ordersFor(order.sessionId))[0]).toMatchObject({ status: 'paid' });
    expect(refundsOf(order.paymentIntentId)).toHaveLength(0);
    expect(await refundEmails('stripe.down@example.com')).toHaveLength(0);
  });

  it('with email down, says the refund was made and its email not sent; a rerun sends it and refunds nothing again', async () => {
    const order = await h.paidOrder({ customer: { email: 'refund.ses.down@example.com' } });

    const run = await h.orders(['refund', order.reference, '--reason', 'other', '--local'], {
      emailDown: true,
    });

    expect(run.code).toBe(1);
    expect(run.err).toMatch(
      new RegExp(
        `${order.reference}: refunded £14\\.70 in full \\(Stripe refund re_\\w+\\), but the refund email could not be sent \\(HTTP 500\\)\\. Run refund ${order.reference} again once email works: it refunds nothing twice and sends the email\\.$`,
      ),
    );
    expect(run.err).not.toContain('local stack is not running');
    const rerun = await h.orders(['refund', order.reference, '--reason', 'other', '--local']);
    expect(rerun.err).toContain('its refund email, not sent before, was sent now');
    expect(refundsOf(order.paymentIntentId)).toHaveLength(1);
    expect(await refundEmails('refund.ses.down@example.com')).toHaveLength(1);
  });

  it('a Dashboard refund (charge.refunded) ends in the same state as the command: refunded, one email; the command then refuses', async () => {
    const order = await h.paidOrder({ customer: { email: 'dashboard@example.com' } });
    await h.shop.simulator.refundFromDashboard(order.sessionId);
    const first = await deliverChargeRefunded(String(order.paymentIntentId));
    const second = await deliverChargeRefunded(String(order.paymentIntentId));
    expect(first.statusCode).toBe(200);
    expect(JSON.parse(first.body ?? '')).toMatchObject({ outcome: 'refund-recorded' });
    expect(JSON.parse(second.body ?? '')).toMatchObject({ outcome: 'refund-already-refunded' });

    const [item] = await h.shop.ordersFor(order.sessionId);
    expect(item).toMatchObject({ status: 'refunded', refundReason: 'stripe', refundEmailState: 'sent' });
    expect(await refundEmails('dashboard@example.com')).toHaveLength(1);

    const run = await h.orders(['refund', order.reference, '--reason', 'other', '--local']);
    expect(run.code).toBe(1);
    expect(run.err).toContain('was already refunded');
    expect(await refundEmails('dashboard@example.com')).toHaveLength(1);
    expect(refundsOf(order.paymentIntentId)).toHaveLength(1);
  });
});

/** Starts an HTTP server on a free port of 127.0.0.1; resolves with its base URL. */
async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks);
}

describe('orders CLI: refund and its charge.refunded webhook, in either order', () => {
  /**
   * The webhook as Stripe reaches it: the simulator posts its signed `charge.refunded` to this
   * endpoint, which runs the handler; while `held`, a delivery waits for `release()`.
   */
  let endpoint: Server;
  let held: Promise<void> = Promise.resolve();
  let release = () => {};
  /**
   * Stripe as the command reaches it: the simulator behind a pass-through that, while
   * `webhookFirst`, answers `POST /v1/refunds` only after the simulator's webhook delivery of
   * that refund has finished, so the webhook records the refund before the command does.
   */
  let stripeProxy: Server;
  let stripeProxyUrl = '';
  let webhookFirst = false;

  beforeAll(async () => {
    endpoint = createServer((req, res) => {
      void held
        .then(() => toApiGatewayEvent(req))
        .then((event) => webhook(event))
        .then((result) => sendApiGatewayResult(res, result));
    });
    h.shop.simulator.setWebhook({
      url: `${await listen(endpoint)}/functions/v1/stripe-webhook`,
      secret: WEBHOOK_SECRET,
    });
    stripeProxy = createServer((req, res) => {
      void (async () => {
        const body = await readAll(req);
        const headers = new Headers();
        for (const [name, value] of Object.entries(req.headers)) {
          if (typeof value === 'string' && name !== 'host' && name !== 'content-length')
            headers.set(name, value);
        }
        const answer = await fetch(`${h.shop.simulator.url}${req.url ?? '/'}`, {
          method: req.method,
          headers,
          ...(body.length > 0 && { body: body.toString('utf8') }),
        });
        const text = await answer.text();
        if (webhookFirst && req.method === 'POST' && req.url === '/v1/refunds') await h.shop.simulator.idle();
        res.writeHead(answer.status, {
          'content-type': answer.headers.get('content-type') ?? 'application/json',
        });
        res.end(text);
      })();
    });
    stripeProxyUrl = await listen(stripeProxy);
  });
  afterAll(() => {
    h.shop.simulator.setWebhook(undefined);
    for (const server of [endpoint, stripeProxy]) {
      server.closeAllConnections();
      server.close();
    }
  });

  const refundCommand = (reference: string) =>
    h.orders(['refund', reference, '--reason', 'doa', '--local'], {
      stripeApiBase: stripeProxyUrl,
    });
  const DOA_TEXT = 'for animals that did not arrive in good condition';

  it('webhook first: it records the refund and mails the reason the command stored; the command says the webhook sent it', async () => {
    // Prepare
    const order = await h.paidOrder({ customer: { email: 'webhook.first@example.com' } });
    webhookFirst = true;

    // Act
    const run = await refundCommand(order.reference).finally(() => {
      webhookFirst = false;
    });

    // Assess
    const refunds = refundsOf(order.paymentIntentId);
    expect(refunds).toHaveLength(1);
    const refundId = refunds[0]?.id ?? '';
    expect(run.code).toBe(0);
    expect(run.out).toBe(
      `${order.reference}: refunded £14.70 in full (Stripe refund ${refundId}, reason doa); refund email sent (by the Stripe webhook).`,
    );
    const delivered = h.shop.simulator.deliveries.filter((d) => d.eventType === 'charge.refunded');
    expect(delivered.at(-1)?.statusCode).toBe(200);
    const emails = await refundEmails('webhook.first@example.com');
    expect(emails).toHaveLength(1);
    expect(emails[0]?.body.text).toContain(
      `We have refunded £14.70 in full for your order ${order.reference} ${DOA_TEXT}.`,
    );
    const [item] = await h.shop.ordersFor(order.sessionId);
    // The event's charge does not list its refunds: the command fills in the refund id.
    expect(item).toMatchObject({
      status: 'refunded',
      refundReason: 'doa',
      refundRecordedBy: 'webhook',
      refundId,
      refundEmailState: 'sent',
    });
    // The webhook recorded it, and names who asked for it: the operator, stored before Stripe was asked.
    expect(item?.history).toEqual([
      { at: order.paidAt, actor: 'Stripe', action: 'paid' },
      { at: expect.any(String), actor: 'merchant@live-aquatics.test', action: 'refunded', detail: 'doa' },
    ]);
  });

  it('command first: it records the refund and mails the reason; the webhook arriving after sends nothing more', async () => {
    // Prepare
    const order = await h.paidOrder({ customer: { email: 'command.first@example.com' } });
    held = new Promise((resolve) => {
      release = resolve;
    });

    // Act
    const run = await refundCommand(order.reference);
    release();
    held = Promise.resolve();
    await h.shop.simulator.idle();

    // Assess
    const refunds = refundsOf(order.paymentIntentId);
    expect(refunds).toHaveLength(1);
    expect(run.code).toBe(0);
    expect(run.out).toBe(
      `${order.reference}: refunded £14.70 in full (Stripe refund ${refunds[0]?.id}, reason doa); refund email sent.`,
    );
    const delivered = h.shop.simulator.deliveries.filter((d) => d.eventType === 'charge.refunded');
    expect(delivered.at(-1)?.statusCode).toBe(200);
    const emails = await refundEmails('command.first@example.com');
    expect(emails).toHaveLength(1);
    expect(emails[0]?.body.text).toContain(
      `We have refunded £14.70 in full for your order ${order.reference} ${DOA_TEXT}.`,
    );
    const [item] = await h.shop.ordersFor(order.sessionId);
    expect(item).toMatchObject({ status: 'refunded', refundReason: 'doa', refundRecordedBy: 'command' });
    expect(item?.history).toEqual([
      { at: order.paidAt, actor: 'Stripe', action: 'paid' },
      {
        at: expect.any(String),
        actor: 'merchant@live-aquatics.test',
        action: 'refunded',
        detail: `doa, ${refunds[0]?.id}`,
      },
    ]);
  });
});

describe('stripe-webhook: charge.refunded events it cannot act on', () => {
  /** A charge.refunded delivery for `charge`, to a webhook built in the test from its environment. */
  async function deliver(charge: Record<string, unknown>, handler = webhookFromEnvironment()) {
    const payload = eventPayload(
      stripeEvent('charge.refunded', charge, { created: h.shop.clock.nowSeconds() }),
    );
    const answer = await handler(h.shop.delivery(payload));
    return { statusCode: answer.statusCode, body: JSON.parse(answer.body ?? '') as Record<string, unknown> };
  }
  function webhookFromEnvironment() {
    return createWebhookHandler(() => loadWebhookDeps(webhookEnvironment()));
  }

  it('a charge without a PaymentIntent (not a Checkout payment) is acknowledged and ignored: no order changes, no email', async () => {
    const order = await h.paidOrder({ customer: { email: 'no.intent@example.com' } });

    const answer = await deliver({
      id: 'ch_test_no_intent',
      object: 'charge',
      payment_intent: null,
      refunded: true,
    });

    expect(answer).toEqual({ statusCode: 200, body: { received: true, outcome: 'ignored' } });
    const [item] = await h.shop.ordersFor(order.sessionId);
    expect(item).toMatchObject({ status: 'paid' });
    expect(await refundEmails('no.intent@example.com')).toHaveLength(0);
  });

  it('a refund whose charge lists no refund objects is still recorded, without a refund id', async () => {
    const order = await h.paidOrder({ customer: { email: 'no.refund.list@example.com' } });
    await h.shop.simulator.refundFromDashboard(order.sessionId);

    const answer = await deliver({
      id: 'ch_test_no_list',
      object: 'charge',
      payment_intent: order.paymentIntentId,
      refunded: true,
      refunds: { object: 'list', data: [] },
    });

    expect(answer.body).toEqual({ received: true, outcome: 'refund-recorded' });
    const [item] = await h.shop.ordersFor(order.sessionId);
    expect(item).toMatchObject({ status: 'refunded', refundReason: 'stripe' });
    expect(item?.refundId).toBeUndefined();
    expect(await refundEmails('no.refund.list@example.com')).toHaveLength(1);
  });

  it("a refund whose charge lists it with the command's reason in its metadata mails that reason", async () => {
    const order = await h.paidOrder({ customer: { email: 'metadata.reason@example.com' } });
    const refund = await h.shop.simulator.refundFromDashboard(order.sessionId);

    const answer = await deliver({
      id: 'ch_test_listed',
      object: 'charge',
      payment_intent: order.paymentIntentId,
      refunded: true,
      refunds: {
        object: 'list',
        data: [{ id: refund.id, metadata: { reference: order.reference, reason: 'supply' } }],
      },
    });

    expect(answer.body).toEqual({ received: true, outcome: 'refund-recorded' });
    const [item] = await h.shop.ordersFor(order.sessionId);
    expect(item).toMatchObject({ status: 'refunded', refundReason: 'supply', refundId: refund.id });
    const emails = await refundEmails('metadata.reason@example.com');
    expect(emails).toHaveLength(1);
    expect(emails[0]?.body.text).toContain('because we could not supply live Daphnia');
  });

  it('a webhook deployed without the refund recorder acknowledges a refund and changes nothing', async () => {
    const order = await h.paidOrder({ customer: { email: 'no.recorder@example.com' } });
    await h.shop.simulator.refundFromDashboard(order.sessionId);
    const intent = await h.shop.stripe.paymentIntents.retrieve(String(order.paymentIntentId), {
      expand: ['latest_charge'],
    });

    const answer = await deliver(
      intent.latest_charge as unknown as Record<string, unknown>,
      createWebhookHandler(async () => {
        const { refunds: _none, ...withoutRefunds } = await loadWebhookDeps(webhookEnvironment());
        return withoutRefunds;
      }),
    );

    expect(answer.body).toEqual({ received: true, outcome: 'ignored' });
    const [item] = await h.shop.ordersFor(order.sessionId);
    expect(item).toMatchObject({ status: 'paid' });
    expect(await refundEmails('no.recorder@example.com')).toHaveLength(0);
  });
});
