import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fulfilCheckout } from '../../../../lambdas/domain/fulfilment/fulfil-checkout';
import { createAdminApiHandler, loadAdminDeps } from '../../../../lambdas/handlers/admin-api/handler';
import { logger } from '../../../../lambdas/lib/logger';
import type { HttpLambda } from '../../../../local/api-gateway-adapter';
import { withJwtAuthorizer } from '../../../../local/jwt-authorizer';
import { orderReference } from '../../../../shared/order-reference';
import { apiGatewayEvent, jsonBody } from '../../../support/api-gateway-event';
import { deferred } from '../../../support/deferred';
import { type FulfilmentHarness, startFulfilmentHarness } from '../../../support/fulfilment-harness';
import { signingKey, signToken, TEST_CLIENT_ID, TEST_ISSUER } from '../../../support/jwt-tokens';
import { adminApiEnv } from './admin-env';

// The admin Lambda's intention keys (Idempotency-Key) behind the local JWT authorizer, against
// dynalite, the SES stand-in and the Stripe simulator: a repeat is answered, never redone.
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
afterEach(() => h.simulator.clearFaults());
afterAll(() => h.close());

function post(path: string, body: unknown, headers: Record<string, string> = {}, bearer = token) {
  return admin(
    apiGatewayEvent({
      method: 'POST',
      path,
      lowerCaseHeaders: true,
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', ...headers },
      body,
    }),
  );
}

async function paidOrder(email: string) {
  const session = await h.paidSession({ quantity: 6, customer: { email } });
  const result = await fulfilCheckout(session.id, h.deps);
  if (result.outcome !== 'fulfilled') throw new Error(`not fulfilled: ${result.outcome}`);
  const intent = await h.stripe.checkout.sessions.retrieve(session.id);
  return { reference: orderReference(session.id), paymentIntent: String(intent.payment_intent) };
}

const refundsOf = (paymentIntent: string) =>
  h.simulator.refunds.filter((refund) => refund.payment_intent === paymentIntent);
const REFUND_PART = '/functions/v1/admin/orders/refund-part';

describe('Idempotency-Key on the admin API', () => {
  it('acts once for the same key and body: one Stripe refund, the same answer replayed', async () => {
    const order = await paidOrder('keyed.twice@example.com');
    const body = { reference: order.reference, bottles: 1, delivery: false, reason: 'doa' };
    const first = await post(REFUND_PART, body, { 'Idempotency-Key': 'tap-0001' });
    const repeat = await post(REFUND_PART, body, { 'Idempotency-Key': 'tap-0001' });

    expect(first.statusCode).toBe(200);
    expect(first.headers).not.toHaveProperty('idempotent-replayed');
    expect(repeat.statusCode).toBe(200);
    expect(repeat.headers).toMatchObject({
      'idempotent-replayed': 'true',
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
    });
    expect(repeat.body).toBe(first.body);
    expect(jsonBody(repeat)).toMatchObject({ reference: order.reference, pence: 325, email: 'sent' });
    expect(refundsOf(order.paymentIntent).map((refund) => refund.amount)).toEqual([325]);
  });

  it('refuses the same key with another body (409), and keeps keys apart per route and per merchant', async () => {
    const order = await paidOrder('keyed.other@example.com');
    const body = { reference: order.reference, bottles: 1, delivery: false, reason: 'doa' };
    await post(REFUND_PART, body, { 'Idempotency-Key': 'key-2' });
    const other = await post(REFUND_PART, { ...body, bottles: 2 }, { 'Idempotency-Key': 'key-2' });
    const anotherMerchant = await post(
      REFUND_PART,
      { ...body, bottles: 2 },
      { 'Idempotency-Key': 'key-2' },
      signToken(key, { email: 'second.merchant@live-aquatics.test' }),
    );
    const anotherRoute = await post(
      '/functions/v1/admin/orders/dispatch',
      // early: paid on the real clock, the order may be planned for a later week (a weekend).
      { references: [order.reference], early: true },
      { 'Idempotency-Key': 'key-2' },
    );

    expect(other.statusCode).toBe(409);
    expect(jsonBody(other)).toEqual({
      error: 'This key was used for another request: make a new key for a new request.',
    });
    expect(anotherMerchant.statusCode).toBe(200);
    expect(jsonBody(anotherMerchant)).toMatchObject({ pence: 650 });
    expect(anotherRoute.statusCode).toBe(200);
    expect(refundsOf(order.paymentIntent).map((refund) => refund.amount)).toEqual([325, 650]);
  });

  it('refuses a repeat while the first is still being done (409), and acts once', async () => {
    const order = await paidOrder('keyed.inflight@example.com');
    const body = { reference: order.reference, bottles: 1, delivery: false, reason: 'doa' };
    const arrived = deferred<void>();
    const release = deferred<void>();
    h.simulator.injectFault({
      pathPrefix: '/v1/refunds',
      hold: () => {
        arrived.resolve();
        return release.promise;
      },
    });
    const first = post(REFUND_PART, body, { 'Idempotency-Key': 'in-flight-1' });
    await arrived.promise;
    const repeat = await post(REFUND_PART, body, { 'Idempotency-Key': 'in-flight-1' });
    release.resolve();

    expect(repeat.statusCode).toBe(409);
    expect(jsonBody(repeat)).toEqual({
      error: 'The same request is still being done: wait a few seconds and look again.',
    });
    expect((await first).statusCode).toBe(200);
    expect(refundsOf(order.paymentIntent).map((refund) => refund.amount)).toEqual([325]);
  });

  it('answers 400 for a malformed key, before anything is done; a GET ignores the header', async () => {
    const order = await paidOrder('keyed.bad@example.com');
    const body = { reference: order.reference, bottles: 1, delivery: false, reason: 'doa' };
    const message = 'The Idempotency-Key header is 1 to 100 letters, digits, "-" or "_".';
    for (const bad of ['two words', 'x'.repeat(101), '', 'ключ']) {
      const answer = await post(REFUND_PART, body, { 'Idempotency-Key': bad });
      expect(answer.statusCode).toBe(400);
      expect(jsonBody(answer)).toEqual({ error: message, fields: { 'Idempotency-Key': message } });
    }
    expect(refundsOf(order.paymentIntent)).toEqual([]);
    const longest = await post(REFUND_PART, body, { 'Idempotency-Key': `A_z-9${'x'.repeat(95)}` });
    expect(longest.statusCode).toBe(200);
    const status = await admin(
      apiGatewayEvent({
        method: 'GET',
        path: '/functions/v1/admin/status',
        lowerCaseHeaders: true,
        headers: { authorization: `Bearer ${token}`, 'idempotency-key': 'two words' },
      }),
    );
    expect(status.statusCode).toBe(200);
  });

  it('keeps a refusal as the answer, and lets a key go after a failure with no answer (5xx)', async () => {
    const refused = await post(
      '/functions/v1/admin/orders/dispatch',
      { references: ['ZZZZZZZZZZZZ'] },
      { 'Idempotency-Key': 'refused-1' },
    );
    const refusedAgain = await post(
      '/functions/v1/admin/orders/dispatch',
      { references: ['ZZZZZZZZZZZZ'] },
      { 'Idempotency-Key': 'refused-1' },
    );
    expect([refused.statusCode, refusedAgain.statusCode]).toEqual([409, 409]);
    expect(refusedAgain.headers).toMatchObject({ 'idempotent-replayed': 'true' });
    expect(refusedAgain.body).toBe(refused.body);

    const order = await paidOrder('keyed.outage@example.com');
    const body = { reference: order.reference, reason: 'supply' };
    h.simulator.injectFault({ status: 500, times: 10, pathPrefix: '/v1/refunds' });
    const failed = await post('/functions/v1/admin/orders/refund', body, { 'Idempotency-Key': 'outage-1' });
    h.simulator.clearFaults();
    const retried = await post('/functions/v1/admin/orders/refund', body, { 'Idempotency-Key': 'outage-1' });

    expect(failed.statusCode).toBe(502);
    expect(retried.statusCode).toBe(200);
    expect(retried.headers).not.toHaveProperty('idempotent-replayed');
    expect(jsonBody(retried)).toMatchObject({ reference: order.reference, pence: 2445, status: 'refunded' });
    expect(refundsOf(order.paymentIntent).map((refund) => refund.amount)).toEqual([2445]);
  });

  it('refuses the same part refund made minutes ago (409) and makes it with again: true', async () => {
    const order = await paidOrder('keyed.again@example.com');
    const body = { reference: order.reference, bottles: 1, delivery: false, reason: 'doa' };
    await post(REFUND_PART, body, { 'Idempotency-Key': 'again-1' });
    const repeat = await post(REFUND_PART, body, { 'Idempotency-Key': 'again-2' });
    const onPurpose = await post(REFUND_PART, { ...body, again: true }, { 'Idempotency-Key': 'again-3' });

    expect(repeat.statusCode).toBe(409);
    expect(jsonBody(repeat)).toEqual({
      error: expect.stringMatching(
        new RegExp(
          `^${order.reference}: 1 bottle \\(£3\\.25\\) was refunded less than a minute ago \\(\\d\\d:\\d\\d, by packer@live-aquatics\\.test\\)\\. To refund the same again on purpose, confirm it again \\(CLI: --again\\)\\.$`,
        ),
      ),
    });
    expect(onPurpose.statusCode).toBe(200);
    expect(refundsOf(order.paymentIntent).map((refund) => refund.amount)).toEqual([325, 325]);
  });
});
