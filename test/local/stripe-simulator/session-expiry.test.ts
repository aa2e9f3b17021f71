import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type StripeSimulator, startStripeSimulator } from '../../../local/stripe-simulator/server';
import {
  rejectionOf,
  shopSessionParams,
  startWebhookReceiver,
  stripeFor,
  WEBHOOK_SECRET,
  type WebhookReceiver,
} from './support';

/** Monday 30 November 2026, 09:00 UTC: the simulator's clock stands here until a test moves it. */
const NOW = 1_796_029_200;
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

let simulator: StripeSimulator;
let stripe: Stripe;
let receiver: WebhookReceiver;

beforeEach(async () => {
  receiver = await startWebhookReceiver();
  simulator = await startStripeSimulator({
    port: 0,
    webhook: { url: receiver.url, secret: WEBHOOK_SECRET },
    // Frozen, so only advanceClock moves time and every timestamp below is exact.
    now: () => NOW * 1000,
  });
  stripe = stripeFor(simulator);
});
afterEach(async () => {
  await simulator.close();
  await receiver.close();
});

/** The shop's parameters with an explicit `expires_at`, since the simulator's clock is not the real one. */
function createExpiringAt(expiresAt: number): Promise<Stripe.Checkout.Session> {
  return stripe.checkout.sessions.create(shopSessionParams({ expires_at: expiresAt }));
}

/** Every event received so far, verified as the shop verifies them but against the simulator's clock. */
function receivedEvents(): Stripe.Event[] {
  return receiver.received.map(({ rawBody, signature }) =>
    stripe.webhooks.constructEvent(
      rawBody,
      signature,
      WEBHOOK_SECRET,
      stripe.webhooks.DEFAULT_TOLERANCE,
      undefined,
      simulator.nowSeconds(),
    ),
  );
}

function eventSummaries(): Array<[string, string, string | null]> {
  return receivedEvents().map((event) => {
    const object = event.data.object;
    const status = 'status' in object && typeof object.status === 'string' ? object.status : null;
    return [event.type, 'id' in object ? String(object.id) : '?', status];
  });
}

function payByCard(id: string): Promise<Response> {
  return fetch(`${simulator.url}/c/pay/${id}`, {
    method: 'POST',
    body: new URLSearchParams({ card_number: '4242 4242 4242 4242' }),
    redirect: 'manual',
  });
}

describe('expires_at on POST /v1/checkout/sessions', () => {
  it('accepts exactly 30 minutes and exactly 24 hours after creation, and defaults to 24 hours', async () => {
    const shortest = await createExpiringAt(NOW + 30 * 60);
    const longest = await createExpiringAt(NOW + 24 * 60 * 60);
    const unset = await stripe.checkout.sessions.create({ ...shopSessionParams(), expires_at: undefined });

    expect([shortest.created, shortest.expires_at]).toEqual([1_796_029_200, 1_796_031_000]);
    expect(longest.expires_at).toBe(1_796_115_600);
    expect(unset.expires_at).toBe(1_796_115_600);
    expect(unset.after_expiration).toBeNull();
  });

  it.each([
    [
      'one second under 30 minutes',
      NOW + 30 * 60 - 1,
      'The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.',
    ],
    [
      'in the past',
      NOW - 1,
      'The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.',
    ],
    [
      'one second over 24 hours',
      NOW + 24 * 60 * 60 + 1,
      'The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.',
    ],
  ])(
    'refuses expires_at %s with a typed invalid_request_error on expires_at',
    async (_name, expiresAt, message) => {
      const error = await rejectionOf(createExpiringAt(expiresAt));

      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect(error).toMatchObject({
        statusCode: 400,
        rawType: 'invalid_request_error',
        param: 'expires_at',
        message,
      });
    },
  );

  it('measures the window from the moved clock, not the host clock', async () => {
    await simulator.advanceClock(2 * HOUR_MS);

    const tooSoon = await rejectionOf(createExpiringAt(NOW + HOUR_MS / 1000));
    const session = await createExpiringAt(NOW + 3 * 60 * 60);

    expect(tooSoon).toMatchObject({ param: 'expires_at' });
    expect([session.created, session.expires_at]).toEqual([1_796_036_400, 1_796_040_000]);
  });

  it('refuses after_expiration, which the shop must never send (its recovery would make a session the shop did not price)', async () => {
    const body = { ...shopSessionParams(), after_expiration: { recovery: { enabled: true } } };

    const error = await rejectionOf(stripe.rawRequest('POST', '/v1/checkout/sessions', body));

    expect(error).toMatchObject({
      statusCode: 400,
      param: 'after_expiration',
      message: 'Received unknown parameter: after_expiration',
    });
    expect(shopSessionParams()).not.toHaveProperty('after_expiration');
  });
});

describe('POST /v1/checkout/sessions/:id/expire', () => {
  it('expires an open session, answers it expired, and sends one signed checkout.session.expired', async () => {
    const { id } = await createExpiringAt(NOW + HOUR_MS / 1000);

    const expired = await stripe.checkout.sessions.expire(id);
    await simulator.idle();

    expect(expired).toMatchObject({
      id,
      object: 'checkout.session',
      status: 'expired',
      payment_status: 'unpaid',
      url: null,
      expires_at: 1_796_032_800,
    });
    expect(eventSummaries()).toEqual([['checkout.session.expired', id, 'expired']]);
    expect(receivedEvents()[0]?.created).toBe(1_796_029_200);
  });

  it.each([
    ['expired', (id: string) => stripe.checkout.sessions.expire(id).then(() => undefined)],
    ['complete', (id: string) => simulator.completeSession(id).then(() => undefined)],
  ])('refuses a session that is %s, as Stripe words it, and sends nothing more', async (status, makeIt) => {
    const { id } = await createExpiringAt(NOW + HOUR_MS / 1000);
    await makeIt(id);
    await simulator.idle();
    const eventsBefore = receiver.received.length;

    const error = await rejectionOf(stripe.checkout.sessions.expire(id));
    await simulator.idle();

    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({
      statusCode: 400,
      rawType: 'invalid_request_error',
      message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of \`${status}\`.`,
    });
    expect((await stripe.checkout.sessions.retrieve(id)).status).toBe(status);
    expect(receiver.received).toHaveLength(eventsBefore);
  });

  it('answers an unknown session with a 404 resource_missing', async () => {
    const error = await rejectionOf(stripe.checkout.sessions.expire('cs_test_unknown'));

    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      message: "No such checkout.session: 'cs_test_unknown'",
    });
  });
});

describe('sessions expiring by themselves on the simulator clock', () => {
  it('expires a session when the clock reaches its expires_at, sending checkout.session.expired once', async () => {
    const { id } = await createExpiringAt(NOW + 30 * 60);
    const { id: later } = await createExpiringAt(NOW + 2 * 60 * 60);

    const beforeDue = await simulator.advanceClock(30 * MINUTE_MS - 1000);
    const openBefore = (await stripe.checkout.sessions.retrieve(id)).status;
    const atDue = await simulator.advanceClock(1000);
    const afterwards = await simulator.advanceClock(HOUR_MS);
    const session = await stripe.checkout.sessions.retrieve(id);
    await stripe.checkout.sessions.list({ status: 'expired' });
    await simulator.idle();

    expect(beforeDue).toEqual([]);
    expect(openBefore).toBe('open');
    expect(atDue).toEqual([id]);
    expect(afterwards).toEqual([]);
    expect(session).toMatchObject({ status: 'expired', url: null });
    expect((await stripe.checkout.sessions.retrieve(later)).status).toBe('open');
    expect(eventSummaries()).toEqual([['checkout.session.expired', id, 'expired']]);
    // Signed and dated on the simulator's clock, which the shop would have to share to accept it.
    expect(receivedEvents()[0]?.created).toBe(1_796_031_000);
    const [webhook] = receiver.received;
    expect(webhook?.signature).toMatch(/^t=1796031000,v1=[0-9a-f]{64}$/);
  });

  it('refuses payment on the hosted page once the clock has passed expires_at', async () => {
    const { id } = await createExpiringAt(NOW + 30 * 60);
    await simulator.advanceClock(31 * MINUTE_MS);

    const payment = await payByCard(id);
    const hook = rejectionOf(simulator.completeSession(id));
    await simulator.idle();

    expect(payment.status).toBe(410);
    expect(await payment.text()).toContain('This checkout session has expired');
    expect(await hook).toMatchObject({ message: `Checkout Session ${id} is expired, not open.` });
    expect(await stripe.checkout.sessions.retrieve(id)).toMatchObject({
      status: 'expired',
      payment_status: 'unpaid',
      payment_intent: null,
    });
    expect(eventSummaries()).toEqual([['checkout.session.expired', id, 'expired']]);
  });

  it('still takes payment one second before expires_at', async () => {
    const { id } = await createExpiringAt(NOW + 30 * 60);
    await simulator.advanceClock(30 * MINUTE_MS - 1000);

    const payment = await payByCard(id);

    expect(payment.status).toBe(303);
    expect(eventSummaries()).toEqual([['checkout.session.completed', id, 'complete']]);
  });

  it('settles a "collected later" Direct Debit when the clock reaches the settle delay', async () => {
    const { id } = await createExpiringAt(NOW + 30 * 60);
    await fetch(`${simulator.url}/c/pay/${id}`, {
      method: 'POST',
      body: new URLSearchParams({ method: 'bacs_debit', outcome: 'collected_later' }),
      redirect: 'manual',
    });

    await simulator.advanceClock(180_000 - 1000);
    const pending = (await stripe.checkout.sessions.retrieve(id)).payment_status;
    await simulator.advanceClock(1000);
    const settled = (await stripe.checkout.sessions.retrieve(id)).payment_status;

    expect([pending, settled]).toEqual(['unpaid', 'paid']);
    expect(receivedEvents().map((event) => event.type)).toEqual([
      'checkout.session.completed',
      'checkout.session.async_payment_succeeded',
    ]);
  });

  it('forgets an idempotency key 24 hours later on the moved clock', async () => {
    const key = 'order-request-1';
    const first = await stripe.checkout.sessions.create(
      shopSessionParams({ expires_at: NOW + HOUR_MS / 1000 }),
      { idempotencyKey: key },
    );
    const reused = await rejectionOf(
      stripe.checkout.sessions.create(shopSessionParams({ expires_at: NOW + (2 * HOUR_MS) / 1000 }), {
        idempotencyKey: key,
      }),
    );

    await simulator.advanceClock(24 * HOUR_MS + 1000);
    const later = await stripe.checkout.sessions.create(
      shopSessionParams({ expires_at: NOW + (25 * HOUR_MS) / 1000 }),
      { idempotencyKey: key },
    );

    expect(reused).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(later.id).not.toBe(first.id);
    expect(later.created).toBe(1_796_115_601);
  });
});

describe('sessions expiring in real time', () => {
  it('sends checkout.session.expired within about a second, though nothing reads the session', async () => {
    const live = await startStripeSimulator({
      port: 0,
      webhook: { url: receiver.url, secret: WEBHOOK_SECRET },
    });
    try {
      const liveStripe = stripeFor(live);
      const { id } = await liveStripe.checkout.sessions.create(shopSessionParams());
      live.patchSession(id, { expires_at: live.nowSeconds() - 1 });

      await vi.waitFor(() => expect(receiver.received).toHaveLength(1), { timeout: 3000, interval: 50 });

      const [webhook] = receiver.received;
      const event = liveStripe.webhooks.constructEvent(
        webhook?.rawBody ?? '',
        webhook?.signature ?? '',
        WEBHOOK_SECRET,
      );
      expect(event.type).toBe('checkout.session.expired');
      expect(live.getSession(id)?.status).toBe('expired');
    } finally {
      await live.close();
    }
  });
});

describe('listing sessions by status', () => {
  it('filters open, complete and expired, newest first, through limit, starting_after and auto-pagination', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      // The first one expires after 30 minutes, the rest after 2 hours.
      const session = await createExpiringAt(NOW + (index === 0 ? 30 * 60 : 2 * 60 * 60));
      ids.push(session.id);
    }
    const [byClock, open1, paid, byApi, open2, open3] = ids;
    if (!byClock || !open1 || !paid || !byApi || !open2 || !open3)
      throw new Error('sessions were not created');
    await simulator.completeSession(paid);
    await stripe.checkout.sessions.expire(byApi);
    await simulator.advanceClock(31 * MINUTE_MS);

    const openPage = await stripe.checkout.sessions.list({ status: 'open', limit: 2 });
    const open = await stripe.checkout.sessions
      .list({ status: 'open', limit: 1 })
      .autoPagingToArray({ limit: 100 });
    const complete = await stripe.checkout.sessions.list({ status: 'complete' });
    const expired = await stripe.checkout.sessions
      .list({ status: 'expired', limit: 1 })
      .autoPagingToArray({ limit: 100 });
    const everything = await stripe.checkout.sessions.list({ limit: 4 }).autoPagingToArray({ limit: 100 });

    expect(openPage).toMatchObject({ object: 'list', has_more: true, url: '/v1/checkout/sessions' });
    expect(openPage.data.map((session) => session.id)).toEqual([open3, open2]);
    expect(open.map((session) => session.id)).toEqual([open3, open2, open1]);
    expect(complete.data.map((session) => session.id)).toEqual([paid]);
    expect(complete.has_more).toBe(false);
    expect(expired.map((session) => session.id)).toEqual([byApi, byClock]);
    expect(everything.map((session) => session.id)).toEqual([open3, open2, byApi, paid, open1, byClock]);
  });

  it('lists a session whose expires_at passed as expired, not open, even before any sweep', async () => {
    const { id } = await createExpiringAt(NOW + 30 * 60);
    simulator.patchSession(id, { expires_at: NOW });

    const open = await stripe.checkout.sessions.list({ status: 'open' });
    const expired = await stripe.checkout.sessions.list({ status: 'expired' });
    await simulator.idle();

    expect(open.data).toEqual([]);
    expect(expired.data.map((session) => session.id)).toEqual([id]);
    expect(eventSummaries()).toEqual([['checkout.session.expired', id, 'expired']]);
  });

  it('refuses a status Stripe does not list by', async () => {
    const error = await rejectionOf(stripe.rawRequest('GET', '/v1/checkout/sessions?status=paid'));

    expect(error).toMatchObject({
      statusCode: 400,
      param: 'status',
      message: 'Invalid status: must be one of open, complete, expired',
    });
  });
});
