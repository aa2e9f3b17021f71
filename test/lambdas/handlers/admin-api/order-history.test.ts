import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fulfilCheckout } from '../../../../lambdas/domain/fulfilment/fulfil-checkout';
import { recordOrderRequest } from '../../../../lambdas/domain/operations/request-actions';
import {
  type AdminDeps,
  createAdminApiHandler,
  loadAdminDeps,
} from '../../../../lambdas/handlers/admin-api/handler';
import type { HttpLambda } from '../../../../local/api-gateway-adapter';
import { withJwtAuthorizer } from '../../../../local/jwt-authorizer';
import { orderReference } from '../../../../shared/order-reference';
import { apiGatewayEvent, jsonBody } from '../../../support/api-gateway-event';
import { type FulfilmentHarness, startFulfilmentHarness } from '../../../support/fulfilment-harness';
import { signingKey, signToken, TEST_CLIENT_ID, TEST_ISSUER } from '../../../support/jwt-tokens';
import { adminApiEnv } from './admin-env';

// An order's and a request's page through the admin API, and the history the merchant's actions
// leave on them, against dynalite, the SES stand-in and the Stripe simulator.
let h: FulfilmentHarness;
let admin: HttpLambda;
let deps: AdminDeps;
const key = signingKey();
const token = signToken(key, { email: 'packer@live-aquatics.test' });
const MERCHANT = 'packer@live-aquatics.test';

beforeAll(async () => {
  h = await startFulfilmentHarness();
  deps = await loadAdminDeps(adminApiEnv(h));
  admin = withJwtAuthorizer(createAdminApiHandler(deps), {
    issuer: TEST_ISSUER,
    clientId: TEST_CLIENT_ID,
    jwks: key.jwks,
  });
});
afterAll(() => h.close());

function call(
  method: 'GET' | 'POST',
  path: string,
  options: { body?: unknown; query?: Record<string, string> } = {},
) {
  return admin(
    apiGatewayEvent({
      method,
      path,
      lowerCaseHeaders: true,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(options.body !== undefined && { body: options.body }),
      ...(options.query && { queryStringParameters: options.query }),
    }),
  );
}

async function paidOrder(email: string) {
  const session = await h.paidSession({ customer: { email } });
  const result = await fulfilCheckout(session.id, h.deps);
  if (result.outcome !== 'fulfilled') throw new Error(`not fulfilled: ${result.outcome}`);
  const [item] = await h.ordersFor(session.id);
  return {
    reference: orderReference(session.id),
    sessionId: session.id,
    paymentIntentId: String(item?.paymentIntentId),
    paidAt: String(item?.paidAt),
  };
}

async function orderRequest(email: string): Promise<string> {
  const recorded = await recordOrderRequest(
    {
      name: 'Rhea Request',
      email,
      phone: '07700 900456',
      address: '3 Reed Row\nBath',
      postcode: 'BA1 1AA',
      quantity: 3,
      subtotal: 9.75,
      shipping: 4.95,
      total: 14.7,
    },
    { idempotencyKey: undefined, cutoffHours: 36, client: `client-${email}` },
    { ...deps, metrics: () => undefined },
  );
  return recorded.reference;
}

const emailsTo = async (to: string) =>
  (await h.standIns.emails()).filter((email) => email.destination.to.includes(to));

describe('admin API: one order', () => {
  it('answers an order in any case with what the customer gave, its emails, its Stripe payment and its history', async () => {
    const order = await paidOrder('detail@example.com');

    const result = await call('GET', '/functions/v1/admin/order', {
      query: { reference: order.reference.toLowerCase() },
    });

    expect(result.statusCode).toBe(200);
    expect(result.headers?.['cache-control']).toBe('no-store');
    expect(jsonBody(result)).toMatchObject({
      record: {
        kind: 'order',
        reference: order.reference,
        status: 'paid',
        bottles: 3,
        totalPence: 1470,
        customerName: 'Zoë Brontë',
        customerEmail: 'detail@example.com',
        customerPhone: '07700 900123',
        deliveryAddress: 'Flat 2, 10 Downing Street\nLondon',
        postcode: 'SW1A 2AA',
        placedWhilePaused: false,
        paidAt: order.paidAt,
        emails: [
          { kind: 'confirmation', state: 'sent', sentAt: expect.stringMatching(/^\d{4}-/) },
          { kind: 'merchantNotice', state: 'sent', sentAt: expect.stringMatching(/^\d{4}-/) },
        ],
        payment: {
          checkoutSessionId: order.sessionId,
          paymentIntentId: order.paymentIntentId,
          livemode: false,
          dashboardUrl: `https://dashboard.stripe.com/test/payments/${order.paymentIntentId}`,
        },
        history: [{ at: order.paidAt, actor: 'Stripe', action: 'paid' }],
      },
    });
    // Table keys and email claim tokens stay on the server.
    expect(result.body).not.toContain('"pk"');
    expect(result.body).not.toContain('ClaimToken');
  });

  it('answers 404 for a reference nobody has, and 400 for one that cannot be', async () => {
    const unknown = await call('GET', '/functions/v1/admin/order', { query: { reference: 'ZZZZZZZZZZZZ' } });
    const malformed = await call('GET', '/functions/v1/admin/order', { query: { reference: 'a b' } });
    const missing = await call('GET', '/functions/v1/admin/order');

    expect(unknown.statusCode).toBe(404);
    expect(jsonBody(unknown)).toEqual({ error: 'No order or request with reference ZZZZZZZZZZZZ.' });
    expect(malformed.statusCode).toBe(400);
    expect(jsonBody(malformed)).toMatchObject({
      fields: { reference: 'A reference is 6 to 200 letters, digits or "_".' },
    });
    expect(jsonBody(missing)).toMatchObject({ fields: { reference: 'Give an order or request reference.' } });
  });

  it('refunds once, naming the merchant in the history; a second press is 409 and adds nothing', async () => {
    const order = await paidOrder('refund.admin@example.com');

    const first = await call('POST', '/functions/v1/admin/orders/refund', {
      body: { reference: order.reference, reason: 'doa' },
    });
    const second = await call('POST', '/functions/v1/admin/orders/refund', {
      body: { reference: order.reference, reason: 'doa' },
    });
    const dispatch = await call('POST', '/functions/v1/admin/orders/dispatch', {
      body: { references: [order.reference] },
    });
    const detail = await call('GET', '/functions/v1/admin/order', { query: { reference: order.reference } });

    const refunds = h.simulator.refunds.filter((r) => r.payment_intent === order.paymentIntentId);
    expect(refunds).toHaveLength(1);
    const refundId = refunds[0]?.id;
    expect(first.statusCode).toBe(200);
    expect(jsonBody(first)).toMatchObject({
      reference: order.reference,
      changed: true,
      refundId,
      email: 'sent',
      refundEmail: { state: 'sent', by: 'this run' },
      status: 'refunded',
      record: { status: 'refunded', refundId, refundReason: 'doa' },
    });
    expect(second.statusCode).toBe(409);
    expect(jsonBody(second)).toEqual({
      error: expect.stringMatching(
        new RegExp(
          `^${order.reference} was already refunded on .+ \\(${refundId}\\): nothing refunded again\\.$`,
        ),
      ),
    });
    expect(dispatch.statusCode).toBe(409);
    expect(jsonBody(dispatch)).toMatchObject({
      results: [{ reference: order.reference, refused: expect.stringContaining('cannot be dispatched') }],
    });
    expect(jsonBody(detail)).toMatchObject({
      record: {
        history: [
          { at: order.paidAt, actor: 'Stripe', action: 'paid' },
          { at: expect.any(String), actor: MERCHANT, action: 'refunded', detail: `doa, ${refundId}` },
        ],
      },
    });
    // The confirmation, and one refund email.
    expect(await emailsTo('refund.admin@example.com')).toHaveLength(2);
  });
});

describe('admin API: order requests', () => {
  it('sends a payment link once, naming the merchant; a second press and a decline while it is valid are 409', async () => {
    const reference = await orderRequest('link@example.com');

    const sent = await call('POST', '/functions/v1/admin/requests/payment', { body: { reference } });
    const again = await call('POST', '/functions/v1/admin/requests/payment', { body: { reference } });
    const decline = await call('POST', '/functions/v1/admin/requests/decline', { body: { reference } });
    const detail = await call('GET', '/functions/v1/admin/order', { query: { reference } });

    expect(sent.statusCode).toBe(200);
    expect(jsonBody(sent)).toMatchObject({ reference, changed: true, email: 'sent' });
    expect(again.statusCode).toBe(409);
    expect(decline.statusCode).toBe(409);
    expect(jsonBody(decline)).toEqual({
      error: expect.stringContaining(`${reference} was already sent a payment link (valid until`),
    });
    expect(jsonBody(detail)).toMatchObject({
      record: {
        kind: 'request',
        reference,
        status: 'invited',
        paymentLink: { url: expect.stringMatching(/^http/), expiresAt: expect.any(String) },
        history: [
          { at: expect.any(String), actor: 'customer', action: 'requested' },
          {
            at: expect.any(String),
            actor: MERCHANT,
            action: 'payment-link-sent',
            detail: expect.stringMatching(/^dispatch \d{4}-\d\d-\d\d, link valid until \d{4}-/),
          },
        ],
      },
    });
    // When each email went, as stored: the request's schema keeps the sent times on read.
    const { record } = jsonBody(detail) as { record: { emails: Array<Record<string, string>> } };
    expect(record.emails.map(({ kind, state }) => `${kind} ${state}`)).toEqual([
      'requestNotice sent',
      'paymentInvitation sent',
    ]);
    for (const email of record.emails) {
      expect(email.sentAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    expect(await emailsTo('link@example.com')).toHaveLength(1);
  });

  it('declines once, naming the merchant; a second press is 409 and adds nothing', async () => {
    const reference = await orderRequest('declined@example.com');

    const declined = await call('POST', '/functions/v1/admin/requests/decline', { body: { reference } });
    const again = await call('POST', '/functions/v1/admin/requests/decline', { body: { reference } });
    const listed = await call('GET', '/functions/v1/admin/orders', { query: { q: reference } });

    expect(jsonBody(declined)).toEqual({ reference, changed: true, email: 'sent' });
    expect(again.statusCode).toBe(409);
    expect(jsonBody(listed)).toMatchObject({
      records: [
        {
          kind: 'request',
          status: 'declined',
          history: [
            { at: expect.any(String), actor: 'customer', action: 'requested' },
            { at: expect.any(String), actor: MERCHANT, action: 'declined' },
          ],
        },
      ],
    });
    expect(await emailsTo('declined@example.com')).toHaveLength(1);
  });
});
