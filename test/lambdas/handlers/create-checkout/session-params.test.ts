import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SESSION_EXPIRY_AFTER_WINDOW_START_MS,
  SESSION_WINDOW_MS,
} from '../../../../lambdas/domain/checkout/create-checkout-session';
import { debitDispatchDate, formatDispatchDate, nextDispatchDate } from '../../../../shared/dispatch';
import { bundledInputs } from '../../../support/bundle';
import {
  checkoutEvent,
  createdSession,
  type Harness,
  ORDERS,
  PERSONAL_DATA,
  recordingWebhookEndpoint,
  SITE_URL,
  startHarness,
  validOrder,
  withLogs,
} from './harness';

// The Checkout Session exactly as the simulator stored it, created through the real handler and
// the real stripe SDK over HTTP: the server's price, our metadata, our URLs, nothing else.

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

const windowStart = (ms: number) => Math.floor(ms / SESSION_WINDOW_MS) * SESSION_WINDOW_MS;

describe('create-checkout: the session Stripe stores', () => {
  it.each(ORDERS)(
    'session created from the server price only: $quantity bottles at $pence pence',
    async (order) => {
      const body = { ...validOrder, quantity: order.quantity, subtotal: order.subtotal, total: order.total };

      const { sessionId, url } = createdSession(await harness.handle(checkoutEvent({ body })));
      const session = await harness.stripe.checkout.sessions.retrieve(sessionId, {
        expand: ['line_items', 'line_items.data.price.product'],
      });

      expect(url).toBe(session.url);
      expect(session).toMatchObject({
        mode: 'payment',
        currency: 'gbp',
        status: 'open',
        payment_status: 'unpaid',
        amount_subtotal: order.quantity * 325,
        amount_total: order.pence,
        total_details: { amount_shipping: 495, amount_discount: 0, amount_tax: 0 },
        shipping_cost: { amount_total: 495 },
        shipping_options: [{ shipping_amount: 495 }],
      });
      expect(session.line_items?.data).toHaveLength(1);
      expect(session.line_items?.data[0]).toMatchObject({
        description: 'Daphnia Magna (250ml bottle)',
        quantity: order.quantity,
        currency: 'gbp',
        amount_total: order.quantity * 325,
        price: {
          unit_amount: 325,
          currency: 'gbp',
          product: {
            name: 'Daphnia Magna (250ml bottle)',
            description: 'About 100-300 live daphnia per bottle.',
          },
        },
      });
    },
  );

  it('fills in the customer, locale, URLs from configuration, expiry and the dispatch date', async () => {
    const before = Date.now();

    const { sessionId } = createdSession(await harness.handle(checkoutEvent()));
    const after = Date.now();
    const session = harness.sim.getSession(sessionId);

    const dispatchDate = nextDispatchDate(new Date(windowStart(before)), { cutoffHours: 36 });
    const debitDate = debitDispatchDate(new Date(windowStart(before)), { cutoffHours: 36 });
    expect(session).toMatchObject({
      customer_email: validOrder.email,
      locale: 'en-GB',
      success_url: `${SITE_URL}/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${SITE_URL}/`,
      client_reference_id: expect.stringMatching(/^ord_[0-9a-f]{24}$/),
      metadata: {
        shop: 'LiveAquatics-test',
        order_version: '1',
        name: validOrder.name,
        phone: validOrder.phone,
        address: validOrder.address,
        postcode: 'SW1A 1AA',
        quantity: '3',
        dispatch_date: dispatchDate,
        debit_dispatch_date: debitDate,
      },
      custom_text: {
        submit: {
          message: expect.stringContaining(
            `Dispatch on ${formatDispatchDate(dispatchDate)} by Royal Mail 1st Class; most orders arrive the next day. Paying by Bacs Direct Debit? We dispatch once your bank confirms the payment (up to 7 working days): expect dispatch on ${formatDispatchDate(debitDate)}.`,
          ),
        },
      },
    });
    // 31 to 41 minutes ahead (Stripe's minimum is 30), computed from the 10-minute window so a
    // retry sends the same value.
    const expiresAtMs = (session?.expires_at ?? 0) * 1000;
    expect(expiresAtMs).toBeGreaterThanOrEqual(windowStart(before) + SESSION_EXPIRY_AFTER_WINDOW_START_MS);
    expect(expiresAtMs).toBeLessThanOrEqual(windowStart(after) + SESSION_EXPIRY_AFTER_WINDOW_START_MS);
    expect(expiresAtMs - after).toBeGreaterThan(30 * 60_000);
    expect(expiresAtMs - before).toBeLessThanOrEqual(41 * 60_000);
    expect(dispatchDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('success_url and cancel_url come from configuration only: the request’s Host, Origin, Referer and forwarded headers are ignored', async () => {
    const event = checkoutEvent({
      headers: {
        Host: 'evil.example',
        Origin: 'https://evil.example',
        Referer: 'https://evil.example/phish',
        'X-Forwarded-Host': 'evil.example',
        'X-Forwarded-Proto': 'http',
      },
    });
    event.requestContext = { ...event.requestContext, domainName: 'evil.example' };

    const { sessionId } = createdSession(await harness.handle(event));

    expect(harness.sim.getSession(sessionId)).toMatchObject({
      success_url: 'https://shop.test/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://shop.test/',
    });
  });

  it('copies the metadata to the PaymentIntent, with a description and no personal data in it', async () => {
    const { sessionId } = createdSession(await harness.handle(checkoutEvent()));
    await harness.sim.completeSession(sessionId);

    const session = await harness.stripe.checkout.sessions.retrieve(sessionId, {
      expand: ['payment_intent'],
    });

    const paymentIntent = session.payment_intent;
    if (typeof paymentIntent !== 'object' || paymentIntent === null)
      throw new Error('payment_intent not expanded');
    expect(paymentIntent.metadata).toEqual(session.metadata);
    expect(paymentIntent.description).toMatch(/^3 x Daphnia Magna \(250ml\), dispatch \d{4}-\d{2}-\d{2}$/);
  });

  it('leaves an empty phone out of the metadata (Stripe reads "" as unset)', async () => {
    const { sessionId } = createdSession(
      await harness.handle(checkoutEvent({ body: { ...validOrder, phone: '' } })),
    );

    expect(harness.sim.getSession(sessionId)?.metadata).not.toHaveProperty('phone');
  });

  it('every field at its length limit fits Stripe metadata (50 keys, keys of 40, values of 500 characters)', async () => {
    const longest = {
      ...validOrder,
      name: 'N'.repeat(100),
      email: `${'e'.repeat(64)}@example.com`,
      phone: `+44 ${'7'.repeat(26)}`,
      address: `${'A'.repeat(395)}\nEnd.`,
      postcode: 'EC1A 1BB',
    };

    const { sessionId } = createdSession(await harness.handle(checkoutEvent({ body: longest })));

    const metadata = harness.sim.getSession(sessionId)?.metadata ?? {};
    expect(metadata.name).toBe(longest.name);
    expect(metadata.address).toBe(longest.address);
    expect(Object.keys(metadata).length).toBeLessThanOrEqual(50);
    for (const [key, value] of Object.entries(metadata)) {
      expect(key.length).toBeLessThanOrEqual(40);
      expect(value.length).toBeLessThanOrEqual(500);
    }
  });

  it('stores trimmed text and the normalised postcode, never the raw input', async () => {
    const body = {
      ...validOrder,
      name: '  Zoë Testperson  ',
      postcode: ' sw1a 1aa ',
      address: '1 Pond\n\n\nLane',
    };

    const { sessionId } = createdSession(await harness.handle(checkoutEvent({ body })));

    expect(harness.sim.getSession(sessionId)?.metadata).toMatchObject({
      name: 'Zoë Testperson',
      postcode: 'SW1A 1AA',
      address: '1 Pond\nLane',
    });
  });
});

describe('create-checkout: side effects', () => {
  it('creating a session sends no webhook event, so no email and no order follow', async () => {
    // Prepare: an endpoint that would notice any event, and proof that it does.
    const recorder = await recordingWebhookEndpoint();
    harness.sim.setWebhook(recorder.endpoint);
    try {
      const control = createdSession(await harness.handle(checkoutEvent()));
      await harness.sim.completeSession(control.sessionId);
      await harness.sim.idle();
      expect(recorder.received).toEqual(['checkout.session.completed']);
      recorder.received.length = 0;

      // Act
      createdSession(await harness.handle(checkoutEvent()));
      await harness.sim.idle();

      // Assess
      expect(recorder.received).toEqual([]);
    } finally {
      harness.sim.setWebhook(undefined);
      await recorder.close();
    }
  });

  it('reaches the table only through the shop settings and order requests, never the orders repository', async () => {
    const inputs = await bundledInputs('lambdas/handlers/create-checkout/handler.ts');

    expect(inputs.some((path) => path.includes('lambdas/handlers/create-checkout/handler.ts'))).toBe(true);
    expect(inputs.some((path) => path.includes('lambdas/domain/storage/shop-settings.ts'))).toBe(true);
    expect(
      inputs.filter((path) =>
        /lambdas\/fulfilment\/(orders-repository|fulfil-checkout|send-order-emails)\.ts/.test(path),
      ),
    ).toEqual([]);
  });

  it('no secret or full PII in the logs: a created session logs its id and status only', async () => {
    const { result, logged } = await withLogs(() => harness.handle(checkoutEvent()));

    const { sessionId } = createdSession(result);
    expect(logged).toContain(sessionId);
    expect(logged).toContain('"statusCode":200');
    // The route names each line, so a Logs Insights query can pick one endpoint's lines.
    expect(logged).toContain('"route":"create-checkout"');
    for (const value of [...PERSONAL_DATA, 'sk_test_']) expect(logged).not.toContain(value);
  });
});
