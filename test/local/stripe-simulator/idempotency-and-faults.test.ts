import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type StripeSimulator, startStripeSimulator } from '../../../local/stripe-simulator/server';
import { requestGate } from '../../support/request-gate';
import { rejectionOf, shopSessionParams, stripeFor } from './support';

let simulator: StripeSimulator;
let stripe: Stripe;

beforeAll(async () => {
  simulator = await startStripeSimulator({ port: 0 });
  stripe = stripeFor(simulator);
});
afterEach(() => simulator.clearFaults());
afterAll(() => simulator.close());

/** How many sessions carry this client_reference_id: the way to tell a replay from a second session. */
async function countSessions(reference: string): Promise<number> {
  const sessions = await stripe.checkout.sessions.list({ limit: 100 }).autoPagingToArray({ limit: 1000 });
  return sessions.filter((session) => session.client_reference_id === reference).length;
}

describe('Idempotency-Key', () => {
  it('replays the first response for the same key and parameters', async () => {
    const key = randomUUID();
    const params = shopSessionParams({ client_reference_id: key });

    const first = await stripe.checkout.sessions.create(params, { idempotencyKey: key });
    const second = await stripe.checkout.sessions.create(params, { idempotencyKey: key });

    expect(second.id).toBe(first.id);
    expect(first.lastResponse.headers['idempotent-replayed']).toBeUndefined();
    expect(second.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(await countSessions(key)).toBe(1);
  });

  it('refuses the same key with other parameters as a typed StripeIdempotencyError', async () => {
    const key = randomUUID();
    await stripe.checkout.sessions.create(shopSessionParams({ client_reference_id: key }), {
      idempotencyKey: key,
    });

    const error = await rejectionOf(
      stripe.checkout.sessions.create(
        shopSessionParams({ client_reference_id: key, customer_email: 'other@example.com' }),
        {
          idempotencyKey: key,
        },
      ),
    );

    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(error).toMatchObject({
      statusCode: 400,
      message:
        'Keys for idempotent requests can only be used with the same parameters they were first used with. ' +
        `Try using a key other than '${key}' if you meant to execute a different request.`,
    });
  });

  it('stores nothing for a request refused by validation, so the key can still be used', async () => {
    const key = randomUUID();
    await rejectionOf(
      stripe.checkout.sessions.create(shopSessionParams({ expires_at: 1 }), { idempotencyKey: key }),
    );

    const session = await stripe.checkout.sessions.create(shopSessionParams(), { idempotencyKey: key });

    expect(session.status).toBe('open');
    expect(session.lastResponse.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe('injected faults', () => {
  it('fails the next request with a typed StripeAPIError, then answers normally', async () => {
    simulator.injectFault({ status: 500 });

    const error = await rejectionOf(stripe.checkout.sessions.create(shopSessionParams()));
    const next = await stripe.checkout.sessions.create(shopSessionParams());

    expect(error).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(error).toMatchObject({ statusCode: 500, rawType: 'api_error', message: 'Simulated failure' });
    expect(next.status).toBe('open');
  });

  it('lets `skip` matching requests through before failing: the second call fails, the first and third do not', async () => {
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());
    simulator.injectFault({ status: 500, skip: 1, pathPrefix: `/v1/checkout/sessions/${id}` });

    const first = await stripe.checkout.sessions.retrieve(id);
    const second = await rejectionOf(stripe.checkout.sessions.retrieve(id));
    const third = await stripe.checkout.sessions.retrieve(id);

    expect(first.id).toBe(id);
    expect(second).toMatchObject({ type: 'StripeAPIError', statusCode: 500 });
    expect(third.id).toBe(id);
  });

  it('fails only requests under pathPrefix, as many times as asked', async () => {
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());
    simulator.injectFault({ status: 503, times: 2, pathPrefix: `/v1/checkout/sessions/${id}` });

    const unaffected = await stripe.checkout.sessions.create(shopSessionParams());
    const failures = [
      await rejectionOf(stripe.checkout.sessions.retrieve(id)),
      await rejectionOf(stripe.checkout.sessions.retrieve(id)),
    ];
    const third = await stripe.checkout.sessions.retrieve(id);

    expect(unaffected.status).toBe('open');
    for (const failure of failures)
      expect(failure).toMatchObject({ type: 'StripeAPIError', statusCode: 503 });
    expect(third.id).toBe(id);
  });

  it('is absorbed by the SDK own retries, which reuse one idempotency key and so create one session', async () => {
    const reference = randomUUID();
    const retrying = stripeFor(simulator, { maxNetworkRetries: 2 });
    simulator.injectFault({ status: 500, times: 2, pathPrefix: '/v1/checkout/sessions' });

    const session = await retrying.checkout.sessions.create(
      shopSessionParams({ client_reference_id: reference }),
    );

    expect(session.status).toBe('open');
    expect(await countSessions(reference)).toBe(1);
  });

  it('makes a slow answer hit the SDK timeout as a typed StripeConnectionError', async () => {
    const impatient = stripeFor(simulator, { timeout: 100 });
    simulator.injectFault({ delayMs: 400 });

    const error = await rejectionOf(impatient.checkout.sessions.list());

    expect(error).toBeInstanceOf(Stripe.errors.StripeConnectionError);
    expect(error).toMatchObject({ message: 'Request aborted due to timeout being reached (100ms)' });
  });

  it('still completes a timed-out create, so a retry with the same key finds that one session', async () => {
    const key = randomUUID();
    const params = shopSessionParams({ client_reference_id: key });
    simulator.injectFault({ delayMs: 400, pathPrefix: '/v1/checkout/sessions' });

    const timedOut = await rejectionOf(
      stripeFor(simulator, { timeout: 100 }).checkout.sessions.create(params, { idempotencyKey: key }),
    );
    // The first request is still running and holds the key: Stripe answers 409, which the SDK
    // retries after at least 500 ms, by when the first request has finished and is replayed.
    const busy = await rejectionOf(stripe.checkout.sessions.create(params, { idempotencyKey: key }));
    const replayed = await stripeFor(simulator, { maxNetworkRetries: 3 }).checkout.sessions.create(params, {
      idempotencyKey: key,
    });

    expect(timedOut).toBeInstanceOf(Stripe.errors.StripeConnectionError);
    expect(busy).toMatchObject({ statusCode: 409, rawType: 'idempotency_error' });
    expect(replayed.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(await countSessions(key)).toBe(1);
  });

  it('holds a matching request from its arrival until the hold settles, then answers it as things stand', async () => {
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());
    const gate = requestGate();
    simulator.injectFault({ pathPrefix: `/v1/checkout/sessions/${id}/expire`, hold: gate.hold });

    const expiring = rejectionOf(stripe.checkout.sessions.expire(id));
    await gate.arrived;
    await simulator.completeSession(id);
    gate.release();

    expect(await expiring).toMatchObject({
      statusCode: 400,
      message:
        'Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of `complete`.',
    });
  });

  it('forgets every pending fault on clearFaults', async () => {
    simulator.injectFault({ status: 500, times: 5 });

    simulator.clearFaults();
    const sessions = await stripe.checkout.sessions.list({ limit: 1 });

    expect(sessions.object).toBe('list');
  });

  it('refuses a fault that would do nothing', () => {
    expect(() => simulator.injectFault({ times: 2 })).toThrow(/needs a status, a delayMs or a hold/);
    expect(() => simulator.injectFault({ status: 200 })).toThrow(/HTTP error status/);
  });

  it('never touches the hosted payment page', async () => {
    const { id } = await stripe.checkout.sessions.create(shopSessionParams());
    simulator.injectFault({ status: 500 });

    const page = await fetch(`${simulator.url}/c/pay/${id}`);
    const api = await rejectionOf(stripe.checkout.sessions.retrieve(id));

    expect(page.status).toBe(200);
    expect(api).toMatchObject({ statusCode: 500 });
  });
});
