import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type StripeSimulator, startStripeSimulator } from '../../../local/stripe-simulator/server';
import { rejectionOf, stripeFor } from './support';

let simulator: StripeSimulator;
let stripe: Stripe;

beforeEach(async () => {
  simulator = await startStripeSimulator({
    port: 0,
    restrictedKeys: {
      rk_test_checkout_only: ['checkout_session_write'],
      rk_test_reads_endpoints: ['webhook_endpoint_read'],
    },
  });
  stripe = stripeFor(simulator);
});
afterEach(async () => {
  await simulator.close();
});

const URL_OF_SHOP = 'https://shop.example.co.uk/functions/v1/stripe-webhook';

describe('webhook endpoints', () => {
  it('creates an endpoint and hands out its signing secret in that answer only', async () => {
    const created = await stripe.webhookEndpoints.create({
      url: URL_OF_SHOP,
      enabled_events: ['checkout.session.completed', 'charge.refunded'],
      description: 'Live Aquatics (prod)',
    });

    expect(created).toMatchObject({
      object: 'webhook_endpoint',
      url: URL_OF_SHOP,
      enabled_events: ['checkout.session.completed', 'charge.refunded'],
      description: 'Live Aquatics (prod)',
      status: 'enabled',
      livemode: false,
    });
    expect(created.id).toMatch(/^we_\w{24}$/);
    expect(created.secret).toMatch(/^whsec_\w{32}$/);
    const retrieved = await stripe.webhookEndpoints.retrieve(created.id);
    expect(retrieved.secret).toBeUndefined();
    expect(retrieved.enabled_events).toEqual(['checkout.session.completed', 'charge.refunded']);
  });

  it('lists endpoints newest first, without secrets', async () => {
    const first = await stripe.webhookEndpoints.create({ url: URL_OF_SHOP, enabled_events: ['*'] });
    const second = await stripe.webhookEndpoints.create({
      url: 'https://other.example.co.uk/hook',
      enabled_events: ['charge.refunded'],
    });

    const list = await stripe.webhookEndpoints.list({ limit: 10 });

    expect(list.data.map(({ id }) => id)).toEqual([second.id, first.id]);
    expect(list.data.map(({ secret }) => secret)).toEqual([undefined, undefined]);
    expect(list.has_more).toBe(false);
    const page = await stripe.webhookEndpoints.list({ limit: 1, starting_after: second.id });
    expect(page.data.map(({ id }) => id)).toEqual([first.id]);
  });

  it('updates the events and url, keeping the same secret (never shown again)', async () => {
    const created = await stripe.webhookEndpoints.create({
      url: URL_OF_SHOP,
      enabled_events: ['checkout.session.completed'],
    });

    const updated = await stripe.webhookEndpoints.update(created.id, {
      enabled_events: ['checkout.session.completed', 'checkout.session.expired'],
      url: 'https://shop.example.co.uk/functions/v1/stripe-webhook?v=2',
      disabled: true,
    });

    expect(updated).toMatchObject({
      id: created.id,
      enabled_events: ['checkout.session.completed', 'checkout.session.expired'],
      url: 'https://shop.example.co.uk/functions/v1/stripe-webhook?v=2',
      status: 'disabled',
    });
    expect(updated.secret).toBeUndefined();
  });

  it('deletes an endpoint, after which it is not found', async () => {
    const { id } = await stripe.webhookEndpoints.create({ url: URL_OF_SHOP, enabled_events: ['*'] });

    const deleted = await stripe.webhookEndpoints.del(id);

    expect(deleted).toEqual({ id, object: 'webhook_endpoint', deleted: true });
    const error = await rejectionOf(stripe.webhookEndpoints.retrieve(id));
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ statusCode: 404, message: `No such webhook_endpoint: '${id}'` });
  });

  it('refuses a create without url or events, as Stripe does', async () => {
    const noUrl = await rejectionOf(
      stripe.webhookEndpoints.create({ enabled_events: ['*'] } as Stripe.WebhookEndpointCreateParams),
    );
    expect(noUrl).toMatchObject({ statusCode: 400, message: 'Missing required param: url.' });
    const noEvents = await rejectionOf(
      stripe.webhookEndpoints.create({ url: URL_OF_SHOP } as Stripe.WebhookEndpointCreateParams),
    );
    expect(noEvents).toMatchObject({ statusCode: 400, message: 'Missing required param: enabled_events.' });
  });
});

describe('restricted keys', () => {
  it('refuses a call its permissions do not cover with Stripe 403 naming the missing permission', async () => {
    const checkoutOnly = new Stripe('rk_test_checkout_only', {
      host: '127.0.0.1',
      port: simulator.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });

    const error = await rejectionOf(checkoutOnly.refunds.create({ payment_intent: 'pi_123' }));

    expect(error).toBeInstanceOf(Stripe.errors.StripePermissionError);
    expect(error).toMatchObject({
      statusCode: 403,
      message:
        "The provided key 'rk_test_*********only' does not have the required permissions for this endpoint on account 'acct_simulator'. Having the 'rak_refund_write' permission would allow this request to continue.",
    });
    // The secret key of the same simulator may do everything.
    expect(await stripe.webhookEndpoints.list()).toMatchObject({ data: [] });
  });

  it('checks the permission before the parameters, so an empty call probes a permission without side effects', async () => {
    const checkoutOnly = new Stripe('rk_test_checkout_only', {
      host: '127.0.0.1',
      port: simulator.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });

    const allowed = await rejectionOf(
      checkoutOnly.checkout.sessions.create({} as Stripe.Checkout.SessionCreateParams),
    );

    expect(allowed).toMatchObject({ statusCode: 400, message: 'Missing required param: mode.' });
  });

  it('lets write include read, and read alone not write', async () => {
    const checkoutOnly = new Stripe('rk_test_checkout_only', {
      host: '127.0.0.1',
      port: simulator.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    const readsEndpoints = new Stripe('rk_test_reads_endpoints', {
      host: '127.0.0.1',
      port: simulator.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });

    expect(await checkoutOnly.checkout.sessions.list({ limit: 1 })).toMatchObject({ data: [] });
    expect(await readsEndpoints.webhookEndpoints.list()).toMatchObject({ data: [] });
    const error = await rejectionOf(
      readsEndpoints.webhookEndpoints.create({ url: URL_OF_SHOP, enabled_events: ['*'] }),
    );
    expect(error).toMatchObject({
      statusCode: 403,
      message: expect.stringContaining("Having the 'rak_webhook_endpoint_write' permission"),
    });
  });
});
