import type Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildSessionParams } from '../../lambdas/domain/checkout/create-checkout-session';
import { checkoutRequestSchema } from '../../shared/checkout-request';
import { debitDispatchDate, nextDispatchDate } from '../../shared/dispatch';
import { quoteOrder } from '../../shared/pricing';
import { createCheckoutSession } from '../support/checkout-sessions';
import { OTHER_SHOP_ID, TEST_SHOP_ID } from '../support/shop';
import { type OpsHarness, startOpsHarness } from './harness';

let h: OpsHarness;
beforeAll(async () => {
  h = await startOpsHarness();
});
afterEach(async () => {
  h.shop.simulator.clearFaults();
  await h.orders(['resume', '--local']);
});
afterAll(async () => {
  await h?.close();
});

/** An open checkout of this shop, made as create-checkout makes one. */
const openCheckout = (options: Parameters<typeof createCheckoutSession>[1] = {}) =>
  createCheckoutSession(h.shop.stripe, options);

/** An order request's payment link, made as request-payment makes one (`req_` and the request's reference). */
async function openPaymentLink(reference: string): Promise<Stripe.Checkout.Session> {
  const quote = quoteOrder(6);
  const now = Date.now();
  const params = buildSessionParams({
    input: checkoutRequestSchema.parse({
      name: 'Ruth Request',
      email: 'ruth.request@example.com',
      phone: '07700 900456',
      address: '3 Reed Row\nBath',
      postcode: 'BA1 1AA',
      quantity: 6,
      subtotal: 19.5,
      shipping: 4.95,
      total: 24.45,
    }),
    quote,
    siteUrl: 'http://shop.test',
    shopId: TEST_SHOP_ID,
    clientReferenceId: `req_${reference}`,
    dispatchDate: nextDispatchDate(new Date(now)),
    debitDispatchDate: debitDispatchDate(new Date(now)),
    expiresAt: Math.floor(now / 1000) + 23 * 3600,
  });
  return h.shop.stripe.checkout.sessions.create(params);
}

const statusOf = async (id: string) => (await h.shop.stripe.checkout.sessions.retrieve(id)).status;

/** Pays on the hosted page with a card, as the customer would. */
const payByCard = (id: string) =>
  fetch(`${h.shop.simulator.url}/c/pay/${id}`, {
    method: 'POST',
    body: new URLSearchParams({ card_number: '4242 4242 4242 4242' }),
    redirect: 'manual',
  });

describe('pause closes the open checkouts', () => {
  it("pause --message closes this shop's open checkout, which can then no longer be paid; another shop's stays open", async () => {
    // Prepare
    const ours = await openCheckout();
    const otherShop = await openCheckout({ shopId: OTHER_SHOP_ID });
    const unmarked = await openCheckout({ notOurs: true });

    // Act
    const run = await h.orders(['pause', '--message', 'Back on Monday 4 January.', '--local']);
    const payment = await payByCard(ours.id);

    // Assess
    expect(run.code).toBe(0);
    expect(run.out).toBe(
      [
        'Shop paused: checkout is refused with "Back on Monday 4 January.".',
        'Closed 1 open checkout (customers can no longer pay it).',
      ].join('\n'),
    );
    expect(await statusOf(ours.id)).toBe('expired');
    expect(payment.status).toBe(410);
    expect(await payment.text()).toContain('This checkout session has expired');
    expect(await h.shop.ordersFor(ours.id)).toHaveLength(0);
    expect(await statusOf(otherShop.id)).toBe('open');
    expect(await statusOf(unmarked.id)).toBe('open');
  });

  it('counts every page of open checkouts (more than one page of 100)', async () => {
    // Prepare
    const sessions = [];
    for (let i = 0; i < 101; i++) sessions.push(await openCheckout());

    // Act
    const run = await h.orders(['pause', '--message', 'Closed for stocktaking.', '--local']);

    // Assess
    expect(run.out.split('\n')[1]).toBe('Closed 101 open checkouts (customers can no longer pay them).');
    const statuses = await Promise.all(sessions.map((s) => statusOf(s.id)));
    expect(new Set(statuses)).toEqual(new Set(['expired']));
  });

  it('says so when there is nothing to close', async () => {
    // Act
    const run = await h.orders(['pause', '--message', 'Back soon.', '--local']);

    // Assess
    expect(run.out.split('\n')[1]).toBe('No open checkouts to close.');
  });

  it('pause --message closes a payment link too; pause --requests closes ordinary checkouts and keeps payment links', async () => {
    // Prepare
    const ordinary = await openCheckout();
    const link = await openPaymentLink('R0A1B2C3D4E5');

    // Act
    const requests = await h.orders(['pause', '--requests', '--local']);
    const statusesAfterRequests = [await statusOf(ordinary.id), await statusOf(link.id)];
    const paused = await h.orders(['pause', '--message', 'Back on Monday.', '--local']);

    // Assess
    expect(requests.out).toBe(
      [
        'Shop taking order requests without payment.',
        'Closed 1 open checkout (customers can no longer pay it).',
        'Left 1 payment link of order requests open (sent with request-payment).',
      ].join('\n'),
    );
    expect(statusesAfterRequests).toEqual(['expired', 'open']);
    expect(paused.out.split('\n')[1]).toBe('Closed 1 open checkout (customers can no longer pay it).');
    expect(await statusOf(link.id)).toBe('expired');
  });

  it('a pause refused for its message closes nothing', async () => {
    // Prepare
    const session = await openCheckout();

    // Act
    const run = await h.orders(['pause', '--local']);

    // Assess
    expect(run.code).toBe(2);
    expect(run.err).toContain('pause: Write the message customers will see while the shop is paused.');
    expect(await statusOf(session.id)).toBe('open');
    await h.shop.stripe.checkout.sessions.expire(session.id);
  });

  it('a checkout Stripe will not close is named on stderr, still payable, and the shop is paused all the same', async () => {
    // Prepare: both attempts (the client retries once) fail.
    const session = await openCheckout();
    h.shop.simulator.injectFault({
      status: 500,
      times: 2,
      pathPrefix: `/v1/checkout/sessions/${session.id}/expire`,
    });

    // Act
    const run = await h.orders(['pause', '--message', 'Back soon.', '--local']);

    // Assess
    expect(run.code).toBe(0);
    expect(run.out.split('\n')[1]).toBe('No open checkouts to close.');
    expect(run.err).toMatch(
      new RegExp(
        `^Could not close ${session.id} \\(Stripe: .+\\): it can still be paid\\. Run the same pause again\\.$`,
        'm',
      ),
    );
    expect(await statusOf(session.id)).toBe('open');
    expect((await h.orders(['status', '--local'])).out).toMatch(/^Shop: paused \(checkout refused\)/);
    expect((await h.orders(['pause', '--message', 'Back soon.', '--local'])).out.split('\n')[1]).toBe(
      'Closed 1 open checkout (customers can no longer pay it).',
    );
  });

  it('when the open checkouts cannot be listed, says so and leaves the shop paused', async () => {
    // Prepare
    const session = await openCheckout();
    h.shop.simulator.injectFault({ status: 500, times: 2, pathPrefix: '/v1/checkout/sessions' });

    // Act
    const run = await h.orders(['pause', '--message', 'Back soon.', '--local']);

    // Assess
    expect(run.code).toBe(0);
    expect(run.err).toMatch(
      /^Could not list the open checkouts \(Stripe: .+\): customers may still pay those opened before the pause\. Run the same pause again\.$/m,
    );
    expect(await statusOf(session.id)).toBe('open');
    expect((await h.orders(['status', '--local'])).out).toMatch(/^Shop: paused \(checkout refused\)/);
    await h.shop.stripe.checkout.sessions.expire(session.id);
  });
});

describe('a checkout paid in the gap is recorded, never lost', () => {
  /** The webhook's delivery of `checkout.session.completed`, as Stripe sends it once the customer paid. */
  async function deliverCompleted(sessionId: string) {
    const payload = await h.shop.eventFor('checkout.session.completed', sessionId);
    return h.shop.webhook(h.shop.delivery(payload));
  }

  it('paid before fulfilment ran, with the shop paused: recorded, flagged in list --json, the table and the notice', async () => {
    // Prepare: paid; its webhook has not arrived yet when the merchant pauses.
    const session = await openCheckout();
    await h.shop.simulator.completeSession(session.id);
    const pause = await h.orders(['pause', '--message', 'Back on Monday.', '--local']);

    // Act
    const delivered = await deliverCompleted(session.id);

    // Assess
    expect(pause.out.split('\n')[1]).toBe('No open checkouts to close.');
    expect(delivered.statusCode).toBe(200);
    const reference = session.id.slice(-12);
    const listed = await h.orders(['list', '--json', '--local']);
    const rows: Array<Record<string, unknown>> = JSON.parse(listed.out);
    expect(rows.find((row) => row.reference === reference)).toMatchObject({
      status: 'paid',
      placedWhilePaused: true,
    });
    const table = await h.orders(['list', '--local']);
    expect(table.out.split('\n').find((line) => line.startsWith(reference))).toContain('paid (while paused)');
    const notices = (await h.shop.emailsFor(session.id)).merchantNotice;
    expect(notices).toHaveLength(1);
    expect(notices[0]?.subject).toMatch(/ \(paid while paused\)$/);
    expect(notices[0]?.body.text).toContain('Paid while the shop was paused since ');
    expect(await h.shop.counts(session.id)).toEqual({ orders: 1, confirmation: 1, merchantNotice: 1 });
  });

  /** Runs `pause --message` with `during` done as its expire of `sessionId` goes out (held a moment, so it lands first). */
  function pauseWhileExpiring(sessionId: string, during: () => void) {
    h.shop.simulator.injectFault({ delayMs: 200, pathPrefix: `/v1/checkout/sessions/${sessionId}/expire` });
    return h.orders(['pause', '--message', 'Back on Monday.', '--local'], {
      onStripeRequest: (request: Stripe.RequestEvent) => {
        if (request.path.endsWith(`/${sessionId}/expire`)) during();
      },
    });
  }

  it('paid between the listing and the expire: reported as completed, not closed, and its order recorded with the flag', async () => {
    // Prepare
    const session = await openCheckout();

    // Act: the customer pays just as the expire goes out.
    const run = await pauseWhileExpiring(session.id, () => void h.shop.simulator.completeSession(session.id));
    const delivered = await deliverCompleted(session.id);

    // Assess
    expect(run.code).toBe(0);
    expect(run.out.split('\n').slice(1)).toEqual([
      'No open checkouts to close.',
      '1 checkout was completed before it could be closed: its order is kept, marked "while paused" in list (refund or delay it).',
    ]);
    expect(run.err).not.toContain('Could not');
    expect(delivered.statusCode).toBe(200);
    const settings = await h.shop.standIns.orderItems();
    const pausedSince = settings.find((item) => item.pk === 'SETTINGS#shop')?.modeSince;
    expect(pausedSince).toEqual(expect.any(String));
    expect((await h.shop.ordersFor(session.id))[0]).toMatchObject({
      status: 'paid',
      placedWhilePaused: true,
      pausedMode: 'paused',
      pausedSince,
    });
  });

  it('expired by itself between the listing and the expire: neither closed nor reported', async () => {
    // Prepare
    const session = await openCheckout();

    // Act
    const run = await pauseWhileExpiring(session.id, () =>
      h.shop.simulator.patchSession(session.id, { status: 'expired', url: null }),
    );

    // Assess
    expect(run.out.split('\n').slice(1)).toEqual(['No open checkouts to close.']);
    expect(run.err).not.toContain('Could not');
  });
});
