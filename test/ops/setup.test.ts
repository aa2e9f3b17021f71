import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readShopSettings, writeShopSettings } from '../../lambdas/domain/storage/settings-store';
import { createDocumentClient } from '../../lambdas/lib/aws';
import { createStripeClient } from '../../lambdas/lib/stripe';
import { startStripeSimulator } from '../../local/stripe-simulator/server';
import { runSetup } from '../../ops/setup';
import { readStageBlock } from '../../ops/stage-file';
import {
  CHECKOUT_KEY,
  FULFILMENT_KEY,
  ORDERS_TABLE,
  SECRETS,
  SETUP_FLAGS,
  SETUP_FLAGS_WITHOUT_FUNCTION_KEYS,
  STRIPE_KEY,
  type StageHarness,
  setSesProduction,
  startStageHarness,
} from './stage-harness';

/*
 * `npm run setup` end to end: the real command over the local stack and its Stripe simulator,
 * with CloudFormation, Secrets Manager, Cognito and STS answering from recorded responses.
 * The runs follow each other as an operator's would: first, again, after the code handles
 * another event.
 */

let harness: StageHarness;
let first: { code: number; lines: string[] };

async function setup(args: readonly string[] = SETUP_FLAGS) {
  harness.lines.length = 0;
  const code = await runSetup(args, harness.deps());
  return { code, lines: [...harness.lines] };
}

/** The shop's mode and message as the stage's table holds them. */
async function shopMode() {
  const client = createDocumentClient({ region: 'eu-west-2', endpoint: harness.shop.dynamoUrl });
  const { mode, message } = await readShopSettings({ client, tableName: ORDERS_TABLE }, true);
  return { mode, message };
}

function stripe(): Stripe {
  const simulator = harness.shop.simulator;
  if (simulator === undefined) throw new Error('no simulator');
  return createStripeClient(STRIPE_KEY, { apiBase: simulator.url, maxNetworkRetries: 0 });
}

beforeAll(async () => {
  harness = await startStageHarness();
  // A fresh account: nothing bootstrapped or deployed, SES identity not verified yet.
  Object.assign(harness.state, { bootstrapped: false, deployed: false, sesVerified: false });
  first = await setup();
}, 60_000);
afterAll(async () => {
  await harness?.close();
});

describe('npm run setup, first run', () => {
  it('checks everything, then writes the stage, bootstraps, deploys and registers the webhook for the handled events', async () => {
    expect(first.code).toBe(0);
    expect(first.lines.slice(0, 10)).toEqual([
      'Setting up stage prod in eu-west-2.',
      '',
      'Checks before anything changes:',
      '  ✓ Node.js 20.20.2',
      '  ✓ AWS credentials: account 123456789012 (arn:aws:iam::123456789012:user/operator)',
      '  ✓ Region eu-west-2',
      '  ✓ Stripe test mode: account key (secret), checkout key (restricted), fulfilment key (restricted), each with the permissions it needs',
      '  ✓ Stripe Bacs Direct Debit: active (customers may pay by card or Direct Debit)',
      '  ✓ Open-Meteo: no key, so the weather check uses the free endpoint (api.open-meteo.com), which is for non-commercial use only: give --open-meteo-key once the shop trades',
      '  ✓ CDK bootstrap: eu-west-2 and us-east-1 not yet (setup bootstraps them)',
    ]);
    expect(harness.cdkCalls).toEqual([
      ['bootstrap', '--no-notices', 'aws://123456789012/eu-west-2', 'aws://123456789012/us-east-1'],
      ['deploy', '--all', '-c', 'stage=prod', '--no-notices', '--require-approval', 'never'],
    ]);
    const { data } = await stripe().webhookEndpoints.list();
    expect(data).toHaveLength(1);
    expect(data[0]?.url).toBe(`${harness.shop.url}/functions/v1/stripe-webhook`);
    // The events' shape the code was tested with: the SDK's API version.
    expect(data[0]?.api_version).toBe('2026-10-28.endive');
    expect(data[0]?.enabled_events).toEqual([
      'checkout.session.completed',
      'checkout.session.async_payment_succeeded',
      'checkout.session.async_payment_failed',
      'checkout.session.expired',
      'charge.refunded',
      'invoice.paid',
      'invoice.payment_failed',
      'customer.subscription.deleted',
    ]);
    expect(first.lines).toContain(
      `  + Stripe webhook endpoint ${data[0]?.id} created: ${harness.shop.url}/functions/v1/stripe-webhook, events checkout.session.completed, checkout.session.async_payment_succeeded, checkout.session.async_payment_failed, checkout.session.expired, charge.refunded, invoice.paid, invoice.payment_failed, customer.subscription.deleted`,
    );
  });

  it("stores the keys and the endpoint's signing secret in the layout the functions read, and prints no secret", async () => {
    const { data } = await stripe().webhookEndpoints.list();
    const webhook = JSON.parse(harness.state.secrets.get(SECRETS.webhook) ?? '{}');
    expect(webhook).toEqual({
      stripeWebhookSecret: expect.stringMatching(/^whsec_\w{32}$/),
      webhookEndpointId: data[0]?.id,
    });
    // The restricted keys given for the functions; setup's own (secret) key is never stored.
    expect(JSON.parse(harness.state.secrets.get(SECRETS.checkout) ?? '{}')).toEqual({
      stripeSecretKey: 'rk_test_shopcheckout',
    });
    expect(JSON.parse(harness.state.secrets.get(SECRETS.fulfilment) ?? '{}')).toEqual({
      stripeSecretKey: 'rk_test_shopfulfilment',
    });
    expect(first.lines).toEqual(
      expect.arrayContaining([
        `  + Secrets Manager: checkout key stored in ${SECRETS.checkout}`,
        `  + Secrets Manager: fulfilment key stored in ${SECRETS.fulfilment}`,
        `  + Secrets Manager: Open-Meteo key stored in ${SECRETS.openMeteo}`,
        `  + Secrets Manager: webhook signing secret stored in ${SECRETS.webhook}`,
        `  + Secrets Manager: VAPID key pair made and stored in ${SECRETS.vapid}`,
      ]),
    );
    // The stage's VAPID pair, made once (ADR 0056): a P-256 public key and its private key, base64url.
    expect(JSON.parse(harness.state.secrets.get(SECRETS.vapid) ?? '{}')).toEqual({
      vapidPublicKey: expect.stringMatching(/^[A-Za-z0-9_-]{87}$/),
      vapidPrivateKey: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    // No key given: stored empty, which the weather functions read as the free endpoint.
    expect(JSON.parse(harness.state.secrets.get(SECRETS.openMeteo) ?? '{}')).toEqual({ openMeteoApiKey: '' });
    const printed = first.lines.join('\n');
    for (const key of [STRIPE_KEY, CHECKOUT_KEY, FULFILMENT_KEY]) expect(printed).not.toContain(key);
    expect(printed).not.toContain(webhook.stripeWebhookSecret);
  });

  it('writes the stage to cdk.json once, creates the merchant and prints the DKIM records to add', () => {
    expect(readStageBlock(harness.cdkJsonPath, 'prod')).toEqual({
      shopName: 'Daphnia Direct',
      sellerName: 'Daphnia Direct Ltd',
      sellerAddress: '4 Pond Lane, Norwich NR1 1AA',
      sellerEmail: 'hello@daphnia-direct.co.uk',
      senderEmail: 'orders@daphnia-direct.co.uk',
      merchantEmail: 'owner@daphnia-direct.co.uk',
      alarmEmail: 'alarms@daphnia-direct.co.uk',
      sesIdentity: 'domain',
      account: '123456789012',
      region: 'eu-west-2',
      stripeLivemode: false,
      // The spec's claims, asked for and taken as offered.
      trialRunNotice: 'This is a trial run.',
      promotionReferencePence: 1200,
      promotionWording: '£9.75 for 3 bottles',
    });
    expect(harness.state.users).toEqual(new Map([['owner@daphnia-direct.co.uk', ['merchants']]]));
    expect(first.lines).toEqual(
      expect.arrayContaining([
        '  + cdk.json: stage prod created (test mode, account 123456789012, eu-west-2)',
        '  + Merchant owner@daphnia-direct.co.uk created (Cognito emails a temporary password to that address)',
        'DNS records to add at your DNS provider (SES checks them by itself; allow up to 72 hours):',
        '  tokenone._domainkey.daphnia-direct.co.uk  CNAME  tokenone.dkim.amazonses.com',
        '  tokentwo._domainkey.daphnia-direct.co.uk  CNAME  tokentwo.dkim.amazonses.com',
        '  tokenthree._domainkey.daphnia-direct.co.uk  CNAME  tokenthree.dkim.amazonses.com',
      ]),
    );
  });

  it('keeps the shop paused while its sender is not verified, saying why and what opens it', async () => {
    expect(await shopMode()).toEqual({
      mode: 'paused',
      message: 'Opening soon: we are getting ready to take orders.',
    });
    const at = first.lines.indexOf(
      '  + Shop paused ("Opening soon: we are getting ready to take orders."): it cannot email customers yet',
    );
    expect(first.lines.slice(at + 1, at + 3)).toEqual([
      '    SES sender identity: Neither daphnia-direct.co.uk nor orders@daphnia-direct.co.uk is verified in SES in eu-west-2 (daphnia-direct.co.uk: Pending), so no email goes out: add the DNS records setup printed (run it again to see them), or click the link SES mailed to orders@daphnia-direct.co.uk.',
      '    Once that is done, run npm run setup -- --stage prod again to open the shop (or add --open-anyway to open it now).',
    ]);
  });

  it('ends with the checks of the deployed stage, which say the sender is not verified yet', () => {
    const checks = first.lines.slice(
      first.lines.indexOf('Checks of the deployed stage (npm run doctor -- --stage prod):'),
    );
    expect(checks.filter((line) => line.startsWith('  ✗'))).toEqual([
      '  ✗ SES sender identity: Neither daphnia-direct.co.uk nor orders@daphnia-direct.co.uk is verified in SES in eu-west-2 (daphnia-direct.co.uk: Pending), so no email goes out: add the DNS records setup printed (run it again to see them), or click the link SES mailed to orders@daphnia-direct.co.uk.',
    ]);
    expect(
      checks.filter((line) => line.startsWith('  ✓')).map((line) => line.slice(0, line.indexOf(':'))),
    ).toEqual([
      '  ✓ Site through CloudFront',
      "  ✓ Seller's claims",
      '  ✓ API through CloudFront',
      '  ✓ API refuses requests that bypass CloudFront',
      '  ✓ shop-status',
      '  ✓ Stripe webhook endpoint',
      '  ✓ Webhook signing secret',
      '  ✓ SES production access',
      '  ✓ Alarm subscription',
      '  ✓ Weather forecast key',
      '  ✓ Merchant',
      '  ✓ Test checkout',
    ]);
    expect(checks).toContain('  ✓ Test checkout: skipped: the shop is paused');
    expect(checks).toContain(
      `  ✓ Seller's claims: trial-run sentence "This is a trial run."; promotion "£9.75 for 3 bottles" against £12.00 struck through`,
    );
    expect(first.lines.at(-1)).toBe(
      'Stage prod set up: cdk.json created, bootstrapped eu-west-2 and us-east-1, shop paused, webhook endpoint created, checkout key stored, fulfilment key stored, Open-Meteo key stored, webhook signing secret stored, VAPID key pair made, merchant created.',
    );
  });
});

describe('npm run setup, run again', () => {
  it('opens the shop it kept paused once SES is out of the sandbox and the sender verified', async () => {
    harness.state.sesVerified = true;

    const again = await setup();

    expect(again.code).toBe(0);
    expect(await shopMode()).toEqual({ mode: 'open', message: undefined });
    expect(again.lines).toContain('  + Shop opened: it takes orders now');
    expect(again.lines.at(-1)).toBe('Stage prod set up: cdk.json updated, shop opened.');
  });

  it("sends the merchant's invitations from the verified sender domain from then on", () => {
    // The first run, with the domain pending, left Cognito's own sender (its block has no such key).
    expect(readStageBlock(harness.cdkJsonPath, 'prod')?.cognitoSenderIdentity).toBe('daphnia-direct.co.uk');
    expect(harness.cdkCalls.at(-1)?.[0]).toBe('deploy');
  });

  it('changes nothing and says so', async () => {
    const putsBefore = harness.state.puts.length;
    const [endpointBefore] = (await stripe().webhookEndpoints.list()).data;

    const again = await setup();

    expect(again.code).toBe(0);
    expect(harness.state.puts.length).toBe(putsBefore);
    const [endpointAfter] = (await stripe().webhookEndpoints.list()).data;
    expect(endpointAfter).toEqual(endpointBefore);
    const changes = again.lines.slice(
      again.lines.indexOf('Changes:'),
      again.lines.indexOf('DNS records to add: none.'),
    );
    expect(changes).toEqual([
      'Changes:',
      '  = cdk.json: stage prod already as given',
      '  $ npx cdk deploy --all -c stage=prod --no-notices --require-approval never',
      '  = Shop: open',
      `  = Stripe webhook endpoint ${endpointBefore?.id}: already sends the 8 handled events to ${harness.shop.url}/functions/v1/stripe-webhook`,
      `  = Secrets Manager: checkout key in ${SECRETS.checkout} already as given`,
      `  = Secrets Manager: fulfilment key in ${SECRETS.fulfilment} already as given`,
      `  = Secrets Manager: Open-Meteo key in ${SECRETS.openMeteo} already as given`,
      `  = Secrets Manager: webhook signing secret in ${SECRETS.webhook} already as given`,
      `  = Secrets Manager: VAPID key pair in ${SECRETS.vapid} already made`,
      '  = Merchant owner@daphnia-direct.co.uk: may already sign in to /admin',
      '',
    ]);
    expect(again.lines).toContain('All 13 checks pass.');
    expect(again.lines.at(-1)).toBe('Nothing changed: stage prod was already set up as given.');
  });

  it("keeps the functions' keys the first run stored when only setup's own key is given", async () => {
    const putsBefore = harness.state.puts.length;

    const again = await setup(SETUP_FLAGS_WITHOUT_FUNCTION_KEYS);

    expect(again.code).toBe(0);
    expect(again.lines).toContain(
      '  ✓ Stripe test mode: account key (secret), checkout key (restricted), fulfilment key (restricted), each with the permissions it needs',
    );
    expect(harness.state.puts.length).toBe(putsBefore);
    expect(JSON.parse(harness.state.secrets.get(SECRETS.checkout) ?? '{}')).toEqual({
      stripeSecretKey: 'rk_test_shopcheckout',
    });
    expect(JSON.parse(harness.state.secrets.get(SECRETS.fulfilment) ?? '{}')).toEqual({
      stripeSecretKey: 'rk_test_shopfulfilment',
    });
    expect(again.lines.at(-1)).toBe('Nothing changed: stage prod was already set up as given.');
  });

  it('updates the endpoint when the code handles an event it was not registered for, keeping its secret', async () => {
    // Registered by an earlier version of the shop, before it handled Dashboard refunds.
    const [endpoint] = (await stripe().webhookEndpoints.list()).data;
    if (endpoint === undefined) throw new Error('no endpoint');
    await stripe().webhookEndpoints.update(endpoint.id, {
      enabled_events: [
        'checkout.session.completed',
        'checkout.session.async_payment_succeeded',
        'checkout.session.async_payment_failed',
        'checkout.session.expired',
      ],
    });
    const storedSecret = harness.state.secrets.get(SECRETS.webhook);

    const again = await setup();

    expect(again.code).toBe(0);
    expect((await stripe().webhookEndpoints.retrieve(endpoint.id)).enabled_events).toEqual([
      'checkout.session.completed',
      'checkout.session.async_payment_succeeded',
      'checkout.session.async_payment_failed',
      'checkout.session.expired',
      'charge.refunded',
      'invoice.paid',
      'invoice.payment_failed',
      'customer.subscription.deleted',
    ]);
    expect(again.lines).toContain(
      `  + Stripe webhook endpoint ${endpoint.id} updated: ${harness.shop.url}/functions/v1/stripe-webhook, events checkout.session.completed, checkout.session.async_payment_succeeded, checkout.session.async_payment_failed, checkout.session.expired, charge.refunded, invoice.paid, invoice.payment_failed, customer.subscription.deleted`,
    );
    expect(harness.state.secrets.get(SECRETS.webhook)).toBe(storedSecret);
    expect(again.lines.at(-1)).toBe('Stage prod set up: webhook endpoint updated.');
  });

  it('moves the endpoint when the site moved (a custom domain), leaving none at the old address', async () => {
    // The stage's endpoint still at the address before the move: Stripe would retry there for days.
    const [endpoint] = (await stripe().webhookEndpoints.list()).data;
    if (endpoint === undefined) throw new Error('no endpoint');
    await stripe().webhookEndpoints.update(endpoint.id, {
      url: 'https://d111111abcdef8.cloudfront.net/functions/v1/stripe-webhook',
    });
    const storedSecret = harness.state.secrets.get(SECRETS.webhook);

    const again = await setup();

    expect(again.code).toBe(0);
    const { data } = await stripe().webhookEndpoints.list();
    expect(data.map(({ id, url }) => ({ id, url }))).toEqual([
      { id: endpoint.id, url: `${harness.shop.url}/functions/v1/stripe-webhook` },
    ]);
    expect(harness.state.secrets.get(SECRETS.webhook)).toBe(storedSecret);
    expect(again.lines).toContain(
      `  + Stripe webhook endpoint ${endpoint.id} updated: ${harness.shop.url}/functions/v1/stripe-webhook (moved from https://d111111abcdef8.cloudfront.net/functions/v1/stripe-webhook), events checkout.session.completed, checkout.session.async_payment_succeeded, checkout.session.async_payment_failed, checkout.session.expired, charge.refunded, invoice.paid, invoice.payment_failed, customer.subscription.deleted`,
    );
  });
});

describe('npm run setup while SES is in the sandbox', () => {
  it('pauses the shop and names the step that fixes it; --open-anyway opens it regardless', async () => {
    setSesProduction(false);
    try {
      const sandboxed = await setup();

      expect(sandboxed.code).toBe(0);
      expect(await shopMode()).toEqual({
        mode: 'paused',
        message: 'Opening soon: we are getting ready to take orders.',
      });
      expect(sandboxed.lines).toContain(
        '    SES production access: SES in eu-west-2 is in the sandbox: it sends only to verified addresses, so customers get no confirmation. Request production access (SES console → Account dashboard → Request production access).',
      );

      const anyway = await setup([...SETUP_FLAGS, '--open-anyway']);

      expect(anyway.code).toBe(0);
      expect(await shopMode()).toEqual({ mode: 'open', message: undefined });
      expect(anyway.lines).toEqual(
        expect.arrayContaining([
          '  ! --open-anyway: the shop takes orders though SES production access fails, so customers may get no email',
          '  + Shop opened: it takes orders now',
        ]),
      );
    } finally {
      setSesProduction(true);
    }
  });

  it("leaves a pause of the merchant's own as it is", async () => {
    const client = createDocumentClient({ region: 'eu-west-2', endpoint: harness.shop.dynamoUrl });
    await writeShopSettings(
      { client, tableName: ORDERS_TABLE },
      { mode: 'paused', message: 'Back on 5 January' },
      new Date(),
    );

    const again = await setup();

    expect(again.lines).toContain('  = Shop: paused (as the merchant set it)');
    expect(await shopMode()).toEqual({ mode: 'paused', message: 'Back on 5 January' });
    await writeShopSettings({ client, tableName: ORDERS_TABLE }, { mode: 'open' }, new Date());
  });
});

describe('npm run setup on a Stripe account without Bacs Direct Debit', () => {
  it('says the checkout offers cards only and how to turn Bacs on, and sets up all the same', async () => {
    harness.shop.simulator?.setCapabilities({ bacs_debit_payments: 'inactive' });
    try {
      const run = await setup();

      expect(run.code).toBe(0);
      expect(run.lines).toContain(
        '  ! Stripe Bacs Direct Debit: inactive, so the checkout offers cards only; to offer Direct Debit, turn it on in the Stripe Dashboard (Settings → Payments → Payment methods → Bacs Direct Debit; docs/deploy.md)',
      );
      expect(run.lines.at(-1)).toBe('Nothing changed: stage prod was already set up as given.');
    } finally {
      harness.shop.simulator?.setCapabilities({ bacs_debit_payments: 'active' });
    }
  });
});

describe('npm run setup, refused before any change', () => {
  it('names the permission a restricted test-mode key lacks', async () => {
    const simulator = await startStripeSimulator({
      port: 0,
      restrictedKeys: {
        rk_test_checkout: ['checkout_session_read'],
        rk_test_fulfilment: [
          'checkout_session_write',
          'payment_intent_read',
          'charge_read',
          'webhook_endpoint_read',
        ],
      },
    });
    try {
      harness.lines.length = 0;
      const stripeOfSimulator = (key: string) =>
        createStripeClient(key, { apiBase: simulator.url, maxNetworkRetries: 0 });
      const callsBefore = harness.cdkCalls.length;

      const withoutWrite = await runSetup(
        [...SETUP_FLAGS, '--checkout-key', 'rk_test_checkout', '--fulfilment-key', 'rk_test_fulfilment'],
        harness.deps({ stripe: stripeOfSimulator }),
      );

      expect(withoutWrite).toBe(1);
      expect(harness.lines.slice(-2)).toEqual([
        '✗ The checkout key (--checkout-key) (restricted, test mode) lacks Checkout Sessions: Write. In the Stripe Dashboard (Developers → API keys), edit the key to give it Checkout Sessions: Write, then run setup again.',
        'Nothing after this point was changed.',
      ]);

      harness.lines.length = 0;
      const withoutRefunds = await runSetup(
        [...SETUP_FLAGS, '--fulfilment-key', 'rk_test_fulfilment'],
        harness.deps({ stripe: stripeOfSimulator }),
      );

      expect(withoutRefunds).toBe(1);
      expect(harness.lines.at(-2)).toBe(
        '✗ The fulfilment key (--fulfilment-key) (restricted, test mode) lacks Refunds: Write, Invoices: Read, Subscriptions: Write, Customers: Read. In the Stripe Dashboard (Developers → API keys), edit the key to give it Checkout Sessions: Write, Refunds: Write, PaymentIntents: Read, Charges: Read, Webhook Endpoints: Read, Invoices: Read, Subscriptions: Write, Customers: Read, then run setup again.',
      );
      expect(harness.cdkCalls.length).toBe(callsBefore);
      expect(harness.lines.join('\n')).not.toContain('rk_test_');
    } finally {
      await simulator.close();
    }
  });

  it('refuses keys of two modes', async () => {
    harness.lines.length = 0;

    const code = await runSetup([...SETUP_FLAGS, '--checkout-key', 'rk_live_abc123'], harness.deps());

    expect(code).toBe(1);
    expect(harness.lines.at(-2)).toBe(
      '✗ The Stripe keys are of different modes (account: test, checkout: live, fulfilment: test): give three keys of one mode.',
    );
  });
});

describe('npm run setup with Open-Meteo’s commercial key', () => {
  it('stores it as the weather functions read it, says which endpoint, and prints no key', async () => {
    const run = await setup([...SETUP_FLAGS, '--open-meteo-key', 'om-commercial-key-123']);

    expect(run.code).toBe(0);
    expect(JSON.parse(harness.state.secrets.get(SECRETS.openMeteo) ?? '{}')).toEqual({
      openMeteoApiKey: 'om-commercial-key-123',
    });
    expect(run.lines).toContain(
      '  ✓ Open-Meteo: commercial key given (the weather check asks customer-api.open-meteo.com)',
    );
    expect(run.lines).toContain(`  + Secrets Manager: Open-Meteo key stored in ${SECRETS.openMeteo}`);
    expect(run.lines.join('\n')).not.toContain('om-commercial-key-123');
  });

  it('keeps the stored key when run again without it', async () => {
    const putsBefore = harness.state.puts.length;

    const again = await setup();

    expect(again.code).toBe(0);
    expect(harness.state.puts.length).toBe(putsBefore);
    expect(again.lines).toContain(
      `  = Secrets Manager: Open-Meteo key in ${SECRETS.openMeteo} already as given`,
    );
  });
});
