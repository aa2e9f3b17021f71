import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fulfilCheckout } from '../../../../lambdas/domain/fulfilment/fulfil-checkout';
import { createAdminApiHandler, loadAdminDeps } from '../../../../lambdas/handlers/admin-api/handler';
import {
  createShopStatusHandler,
  loadShopStatusDeps,
} from '../../../../lambdas/handlers/shop-status/handler';
import { logger } from '../../../../lambdas/lib/logger';
import type { HttpLambda } from '../../../../local/api-gateway-adapter';
import { withJwtAuthorizer } from '../../../../local/jwt-authorizer';
import { orderReference } from '../../../../shared/order-reference';
import { PUBLIC_API_ROUTES } from '../../../../shared/public-routes';
import { apiGatewayEvent, jsonBody } from '../../../support/api-gateway-event';
import { createCheckoutSession } from '../../../support/checkout-sessions';
import { type FulfilmentHarness, startFulfilmentHarness } from '../../../support/fulfilment-harness';
import { signingKey, signToken, TEST_CLIENT_ID, TEST_ISSUER } from '../../../support/jwt-tokens';
import { standInEnvironment } from '../../../support/stand-ins';
import { adminApiEnv } from './admin-env';

// The admin Lambda with its own dependency loader fed a Lambda-like environment, behind the local
// JWT authorizer, against dynalite, the SES stand-in and the Stripe simulator. Orders are made on
// the real clock, so their day may be a later week's: dispatches here say `early` (on purpose).
let h: FulfilmentHarness;
let admin: HttpLambda;
const key = signingKey();
const token = signToken(key, { email: 'packer@live-aquatics.test' });

beforeAll(async () => {
  h = await startFulfilmentHarness();
  logger.setLogLevel('SILENT');
  const handler = createAdminApiHandler(() => loadAdminDeps(adminApiEnv(h)));
  admin = withJwtAuthorizer(handler, { issuer: TEST_ISSUER, clientId: TEST_CLIENT_ID, jwks: key.jwks });
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

async function paidOrder(email: string): Promise<string> {
  const session = await h.paidSession({ customer: { email } });
  const result = await fulfilCheckout(session.id, h.deps);
  if (result.outcome !== 'fulfilled') throw new Error(`not fulfilled: ${result.outcome}`);
  return orderReference(session.id);
}

const dispatchEmailsTo = async (to: string) =>
  (await h.standIns.emails()).filter(
    (email) => email.destination.to.includes(to) && email.subject.includes('is on its way'),
  );

describe('admin API against the stand-ins', () => {
  it('lists an order just placed, finds it by reference in any case, and filters by status', async () => {
    const reference = await paidOrder('lister@example.com');

    const listed = await call('GET', '/functions/v1/admin/orders');
    const found = await call('GET', '/functions/v1/admin/orders', { query: { q: reference.toLowerCase() } });
    const none = await call('GET', '/functions/v1/admin/orders', {
      query: { q: reference, status: 'refunded' },
    });

    expect(listed.statusCode).toBe(200);
    expect(listed.headers?.['cache-control']).toBe('no-store');
    expect(jsonBody(listed)).toMatchObject({
      records: expect.arrayContaining([
        expect.objectContaining({
          kind: 'order',
          reference,
          status: 'paid',
          customerEmail: 'lister@example.com',
        }),
      ]),
    });
    expect(jsonBody(found)).toMatchObject({ records: [{ kind: 'order', reference }] });
    expect(jsonBody(none)).toEqual({ records: [] });
  });

  it('marks an order dispatched with one email, and a second press changes nothing and sends nothing', async () => {
    const reference = await paidOrder('packed@example.com');

    const first = await call('POST', '/functions/v1/admin/orders/dispatch', {
      body: { references: [reference], trackingNumbers: { [reference]: 'ab 1234 5678 9gb' }, early: true },
    });
    const second = await call('POST', '/functions/v1/admin/orders/dispatch', {
      body: { references: [reference] },
    });

    // The history names the signed-in merchant, once (toMatchObject holds arrays to their length):
    // the second press's update did not happen.
    const history = [
      { at: expect.any(String), actor: 'Stripe', action: 'paid' },
      {
        at: expect.any(String),
        actor: 'packer@live-aquatics.test',
        action: 'dispatched',
        detail: 'tracking AB123456789GB',
      },
    ];
    expect(first.statusCode).toBe(200);
    expect(jsonBody(first)).toMatchObject({
      results: [
        {
          reference,
          changed: true,
          email: 'sent',
          status: 'dispatched',
          record: { kind: 'order', reference, status: 'dispatched', trackingNumber: 'AB123456789GB' },
        },
      ],
    });
    expect(jsonBody(first)).toMatchObject({ results: [{ record: { history } }] });
    expect(jsonBody(second)).toMatchObject({
      results: [{ reference, changed: false, email: 'not-sent', status: 'dispatched', record: { history } }],
    });
    expect(await dispatchEmailsTo('packed@example.com')).toHaveLength(1);
  });

  it('dispatches two orders with a tracking number each, corrects one, and refuses a garbage number with a field message', async () => {
    const a = await paidOrder('bulk.a@example.com');
    const b = await paidOrder('bulk.b@example.com');
    const bad = await call('POST', '/functions/v1/admin/orders/dispatch', {
      body: { references: [a, b], trackingNumbers: { [a]: 'n/a' } },
    });
    const both = await call('POST', '/functions/v1/admin/orders/dispatch', {
      body: {
        references: [a, b],
        trackingNumbers: { [a]: 'AB123456789GB', [b]: 'CD 987654321 GB' },
        early: true,
      },
    });
    const fixed = await call('POST', '/functions/v1/admin/orders/tracking', {
      body: { reference: b, trackingNumber: 'CD987654320GB' },
    });
    expect(bad.statusCode).toBe(400);
    expect(jsonBody(bad)).toMatchObject({
      fields: {
        trackingNumbers:
          'A tracking number is the one on the label: like AB123456789GB (2 letters, 9 digits, 2 letters), or 8 to 30 letters and digits.',
      },
    });
    expect(jsonBody(both)).toMatchObject({
      results: [
        { reference: a, record: { trackingNumber: 'AB123456789GB' } },
        { reference: b, record: { trackingNumber: 'CD987654321GB' } },
      ],
    });
    expect(jsonBody(fixed)).toMatchObject({
      reference: b,
      changed: true,
      email: 'sent',
      record: {
        trackingNumber: 'CD987654320GB',
        emails: expect.arrayContaining([
          { kind: 'trackingUpdate', state: 'sent', sentAt: expect.any(String) },
        ]),
      },
    });
  });

  it('imports a Click & Drop export and refunds 2 bottles of an order, through the API', async () => {
    const a = await paidOrder('api.cnd@example.com');
    const imported = await call('POST', '/functions/v1/admin/orders/tracking-import', {
      body: {
        csv: `Order reference,Tracking number\r\n${a},JX123456789GB\r\nZZZZZZ999999,JX123456780GB\r\n`,
        early: true,
      },
    });
    const part = await call('POST', '/functions/v1/admin/orders/refund-part', {
      body: { reference: a, bottles: 2, delivery: false, reason: 'doa' },
    });
    expect(jsonBody(imported)).toMatchObject({
      results: [{ reference: a, changed: true, email: 'sent', record: { trackingNumber: 'JX123456789GB' } }],
      unmatched: [
        { line: 3, reference: 'ZZZZZZ999999', reason: 'No order or request with reference ZZZZZZ999999.' },
      ],
    });
    expect(part.statusCode).toBe(200);
    expect(jsonBody(part)).toMatchObject({
      reference: a,
      pence: 650,
      email: 'sent',
      record: { partlyRefundedPence: 650 },
    });
  });

  it('each answer’s order says the email it sent went: dispatch, a part refund, then the full refund', async () => {
    const reference = await paidOrder('truthful@example.com');
    const emailOf = (body: unknown, kind: string) =>
      (body as { record: { emails: Array<{ kind: string; state: string }> } }).record.emails.find(
        (email) => email.kind === kind,
      )?.state;

    const dispatched = await call('POST', '/functions/v1/admin/orders/dispatch', {
      body: { references: [reference], early: true },
    });
    const part = await call('POST', '/functions/v1/admin/orders/refund-part', {
      body: { reference, bottles: 1, delivery: false, reason: 'doa' },
    });
    const refunded = await call('POST', '/functions/v1/admin/orders/refund', {
      body: { reference, reason: 'doa' },
    });

    expect(emailOf((jsonBody(dispatched) as { results: unknown[] }).results[0], 'dispatch')).toBe('sent');
    expect(emailOf(jsonBody(part), 'partRefund')).toBe('sent');
    expect(emailOf(jsonBody(refunded), 'refund')).toBe('sent');
  });

  it('answers 400 with a message per field for a bad body or query', async () => {
    const body = await call('POST', '/functions/v1/admin/orders/dispatch', {
      body: { references: [], extra: true },
    });
    const refund = await call('POST', '/functions/v1/admin/orders/refund', {
      body: { reference: 'ABCDEF123456', reason: 'changed-mind' },
    });
    const query = await call('GET', '/functions/v1/admin/orders', { query: { status: 'lost' } });
    const notJson = await call('POST', '/functions/v1/admin/shop/pause', { body: 'mode=paused' });
    // The domain's refusal names the CLI's --message; the page gets a field message in its own words.
    const pauseWithoutMessage = await call('POST', '/functions/v1/admin/shop/pause', {
      body: { mode: 'paused' },
    });
    const pauseWithBlankMessage = await call('POST', '/functions/v1/admin/shop/pause', {
      body: { mode: 'paused', message: '   ' },
    });
    const pauseWithLongMessage = await call('POST', '/functions/v1/admin/shop/pause', {
      body: { mode: 'requests', message: 'x'.repeat(301) },
    });

    expect(body.statusCode).toBe(400);
    expect(jsonBody(body)).toMatchObject({
      fields: { references: 'Choose at least one order.', extra: 'Unknown field "extra".' },
    });
    expect(jsonBody(refund)).toMatchObject({ fields: { reason: 'The reason is supply, doa or other.' } });
    expect(query.statusCode).toBe(400);
    expect(jsonBody(query)).toMatchObject({
      fields: { status: 'Status is one of paid, dispatched, refunded, requested, invited, declined.' },
    });
    expect(notJson.statusCode).toBe(400);
    for (const refused of [pauseWithoutMessage, pauseWithBlankMessage]) {
      expect(refused.statusCode).toBe(400);
      expect(jsonBody(refused)).toEqual({
        error: 'Write the message customers will see while the shop is paused.',
        fields: { message: 'Write the message customers will see while the shop is paused.' },
      });
    }
    expect(pauseWithLongMessage.statusCode).toBe(400);
    expect(jsonBody(pauseWithLongMessage)).toMatchObject({
      fields: { message: 'The message is at most 300 characters.' },
    });
    const shop = jsonBody(await call('GET', '/functions/v1/admin/status'));
    expect(shop).toMatchObject({ shop: { mode: 'open' } });
  });

  it('answers 409 with the domain refusal for a refused transition, and sends nothing', async () => {
    const unknown = await call('POST', '/functions/v1/admin/orders/dispatch', {
      body: { references: ['ZZZZZZZZZZZZ'] },
    });

    expect(unknown.statusCode).toBe(409);
    expect(jsonBody(unknown)).toMatchObject({
      results: [{ reference: 'ZZZZZZZZZZZZ', refused: expect.any(String) }],
    });
  });

  it('dispatches several at once: the refused one is reported and the others are done (200)', async () => {
    const reference = await paidOrder('several@example.com');

    const result = await call('POST', '/functions/v1/admin/orders/dispatch', {
      body: { references: [reference, 'ZZZZZZZZZZZZ'], early: true },
    });

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toMatchObject({
      results: [
        { reference, changed: true, status: 'dispatched' },
        { reference: 'ZZZZZZZZZZZZ', refused: expect.any(String) },
      ],
    });
  });

  it('names every refused order in the error when all of a dispatch were refused (409)', async () => {
    const result = await call('POST', '/functions/v1/admin/orders/dispatch', {
      body: { references: ['ZZZZZZZZZZZZ', 'YYYYYYYYYYYY'] },
    });

    expect(result.statusCode).toBe(409);
    expect(jsonBody(result)).toEqual({
      error:
        'No order or request with reference ZZZZZZZZZZZZ. No order or request with reference YYYYYYYYYYYY.',
      results: [
        { reference: 'ZZZZZZZZZZZZ', refused: 'No order or request with reference ZZZZZZZZZZZZ.' },
        { reference: 'YYYYYYYYYYYY', refused: 'No order or request with reference YYYYYYYYYYYY.' },
      ],
    });
  });

  it('pauses with a message and resumes', async () => {
    const paused = await call('POST', '/functions/v1/admin/shop/pause', {
      body: { mode: 'paused', message: 'Back on Monday' },
    });
    const resumed = await call('POST', '/functions/v1/admin/shop/resume');

    expect(paused.statusCode).toBe(200);
    expect(jsonBody(paused)).toMatchObject({ settings: { mode: 'paused', message: 'Back on Monday' } });
    expect(jsonBody(resumed)).toMatchObject({ settings: { mode: 'open' } });
  });

  it('takes order requests: the shop says requests mode, open checkouts close, and a second press changes nothing', async () => {
    const checkout = await createCheckoutSession(h.stripe);
    const emailsBefore = (await h.standIns.emails()).length;

    const first = await call('POST', '/functions/v1/admin/shop/pause', { body: { mode: 'requests' } });
    const second = await call('POST', '/functions/v1/admin/shop/pause', { body: { mode: 'requests' } });
    const adminStatus = await call('GET', '/functions/v1/admin/status');
    const shopStatus = await createShopStatusHandler(async () =>
      loadShopStatusDeps(standInEnvironment(h.standIns)),
    )(apiGatewayEvent({ method: 'GET', path: PUBLIC_API_ROUTES.shopStatus.path }));

    expect(first.statusCode).toBe(200);
    expect(jsonBody(first)).toMatchObject({
      settings: { mode: 'requests' },
      closed: [checkout.id],
      completedMeanwhile: [],
      failed: [],
    });
    expect(second.statusCode).toBe(200);
    expect(jsonBody(second)).toMatchObject({
      settings: { mode: 'requests' },
      closed: [],
      completedMeanwhile: [],
      failed: [],
    });
    expect(jsonBody(second)).not.toHaveProperty('settings.message');
    expect(jsonBody(adminStatus)).toMatchObject({ shop: { mode: 'requests' } });
    expect(jsonBody(shopStatus)).toEqual({ mode: 'requests' });
    expect((await h.stripe.checkout.sessions.retrieve(checkout.id)).status).toBe('expired');
    expect(await h.standIns.emails()).toHaveLength(emailsBefore);
  });

  it("corrects an order's address: the record, its history and one email; a Jersey postcode is a 400", async () => {
    const reference = await paidOrder('moved.house@example.com');
    const jersey = await call('POST', '/functions/v1/admin/orders/address', {
      body: { reference, address: '3 Rue Ici\nSt Helier', postcode: 'JE2 3AB', phone: '' },
    });
    const corrected = await call('POST', '/functions/v1/admin/orders/address', {
      body: { reference, address: '12 Mill Lane\nYork', postcode: 'yo1 7hh', phone: '07700 900999' },
    });

    expect(jersey.statusCode).toBe(400);
    expect(jsonBody(jersey)).toMatchObject({
      fields: {
        postcode:
          'We can only deliver to Great Britain and Northern Ireland: not to the Channel Islands, the Isle of Man, BFPO or overseas addresses.',
      },
    });
    expect(corrected.statusCode).toBe(200);
    expect(jsonBody(corrected)).toMatchObject({
      reference,
      changed: true,
      email: 'sent',
      record: {
        deliveryAddress: '12 Mill Lane\nYork',
        postcode: 'YO1 7HH',
        customerPhone: '07700 900999',
        emails: expect.arrayContaining([
          { kind: 'addressCorrected', state: 'sent', sentAt: expect.any(String) },
        ]),
        history: [{ action: 'paid' }, { action: 'address-corrected', actor: 'packer@live-aquatics.test' }],
      },
    });
    const emails = (await h.standIns.emails()).filter((e) =>
      e.destination.to.includes('moved.house@example.com'),
    );
    expect(emails.filter((e) => e.subject.includes('delivery details updated'))).toHaveLength(1);
  });
});
