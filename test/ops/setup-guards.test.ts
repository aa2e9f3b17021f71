import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createStripeClient } from '../../lambdas/lib/stripe';
import { runSetup } from '../../ops/setup';
import { readStageBlock, writeStageBlock } from '../../ops/stage-file';
import {
  CHECKOUT_KEY,
  FULFILMENT_KEY,
  healthyAccount,
  SECRETS,
  SETUP_FLAGS,
  SETUP_FLAGS_WITHOUT_FUNCTION_KEYS,
  STRIPE_KEY,
  type StageHarness,
  startStageHarness,
} from './stage-harness';

/*
 * What setup refuses before it changes anything, and the parts of its changes the first-run
 * scenario does not reach: an endpoint of someone else's at the stage's URL, a merchant outside
 * the group, a failed deploy, the questions of an interactive run.
 */

let harness: StageHarness;

async function setup(args: readonly string[], overrides: Parameters<StageHarness['deps']>[0] = {}) {
  harness.lines.length = 0;
  const code = await runSetup(args, harness.deps(overrides));
  return { code, lines: [...harness.lines] };
}

function stripe() {
  const simulator = harness.shop.simulator;
  if (simulator === undefined) throw new Error('no simulator');
  return createStripeClient(STRIPE_KEY, { apiBase: simulator.url, maxNetworkRetries: 0 });
}

beforeAll(async () => {
  harness = await startStageHarness();
}, 60_000);
afterAll(async () => {
  await harness?.close();
});
beforeEach(() => {
  Object.assign(harness.state, healthyAccount());
  harness.cdkCalls.length = 0;
});

describe('setup refuses, before any change', () => {
  it('a Node.js older than 20.19', async () => {
    const { code, lines } = await setup(SETUP_FLAGS, { nodeVersion: '20.18.1' });

    expect(code).toBe(1);
    expect(lines.slice(-2)).toEqual([
      '✗ Node.js 20.18.1 is too old: install Node.js 20.19 or later (22 or 24 recommended).',
      'Nothing after this point was changed.',
    ]);
    expect(harness.cdkCalls).toEqual([]);
  });

  it('a region that is not an AWS region name', async () => {
    const flags = SETUP_FLAGS.map((flag, at) => (SETUP_FLAGS[at - 1] === '--region' ? 'london' : flag));

    const { code, lines } = await setup(flags);

    expect(code).toBe(1);
    expect(lines.slice(-2)).toEqual([
      '✗ london is not an AWS region (for example eu-west-2): give --region.',
      'Nothing after this point was changed.',
    ]);
    expect(harness.cdkCalls).toEqual([]);
  });

  it('credentials of another account than the one the stage is pinned to', async () => {
    writeStageBlock(harness.cdkJsonPath, 'pinned', { account: '999999999999', region: 'eu-west-2' });

    const { code, lines } = await setup(['--stage', 'pinned', ...SETUP_FLAGS.slice(2)]);

    expect(code).toBe(1);
    expect(lines.at(-2)).toBe(
      '✗ Stage pinned belongs to account 999999999999 (cdk.json), but these credentials are of 123456789012: sign in to 999999999999.',
    );
  });

  it('an unattended run without an answer that has no default', async () => {
    const withoutSeller = SETUP_FLAGS.filter(
      (_, index, all) => all[index - 1] !== '--seller-name' && all[index] !== '--seller-name',
    );

    const { code, lines } = await setup(['--stage', 'fresh', ...withoutSeller.slice(2)]);

    expect(code).toBe(1);
    expect(lines.at(-2)).toBe(
      '✗ --seller-name is needed (Seller (trading or company name)): give it, or run without --yes to be asked.',
    );
  });

  it('a stage name infra would refuse', async () => {
    const { code, lines } = await setup(['--stage', 'Prod!', '--yes']);

    expect(code).toBe(1);
    expect(lines[0]).toBe(
      '✗ Give the stage: npm run setup -- --stage NAME (lower-case letters, digits, dashes; e.g. prod).',
    );
  });

  it('a publishable key given as a secret one, without echoing it', async () => {
    const { code, lines } = await setup([...SETUP_FLAGS, '--checkout-key', 'pk_test_51Hpublishable']);

    expect(code).toBe(1);
    expect(lines.at(-2)).toBe(
      "✗ The checkout key (--checkout-key) is a publishable key (pk_…): give a restricted (rk_…) key from Stripe's Developers → API keys.",
    );
  });

  it("an unattended run without the checkout key: setup's own key is never the functions'", async () => {
    const stageBefore = readStageBlock(harness.cdkJsonPath, 'prod');

    const { code, lines } = await setup(SETUP_FLAGS_WITHOUT_FUNCTION_KEYS);

    expect(code).toBe(1);
    expect(lines.slice(-2)).toEqual([
      '✗ --checkout-key is needed (Checkout key (restricted: Checkout Sessions Write)): give it, or run without --yes to be asked.',
      'Nothing after this point was changed.',
    ]);
    expect(harness.cdkCalls).toEqual([]);
    expect(harness.state.puts).toEqual([]);
    expect(readStageBlock(harness.cdkJsonPath, 'prod')).toEqual(stageBefore);
  });

  it('an interactive run where the operator presses Enter at the checkout key and none is stored', async () => {
    const { code, lines } = await setup(
      SETUP_FLAGS_WITHOUT_FUNCTION_KEYS.filter((flag) => flag !== '--yes'),
      {
        prompt: async () => '',
      },
    );

    expect(code).toBe(1);
    expect(lines.at(-2)).toBe(
      '✗ --checkout-key is needed (Checkout key (restricted: Checkout Sessions Write)): give it.',
    );
    expect(harness.cdkCalls).toEqual([]);
    expect(harness.state.puts).toEqual([]);
  });

  it("the account's secret key given as the fulfilment key, without echoing it", async () => {
    const endpointsBefore = (await stripe().webhookEndpoints.list()).data;
    const stageBefore = readStageBlock(harness.cdkJsonPath, 'prod');

    const { code, lines } = await setup([...SETUP_FLAGS, '--fulfilment-key', 'sk_test_operator']);

    expect(code).toBe(1);
    expect(lines.slice(-2)).toEqual([
      "✗ The fulfilment key (--fulfilment-key) is the account's secret key (sk_…): the shop's functions run with restricted keys only. Create a restricted key in Stripe's Developers → API keys with Checkout Sessions: Write, Refunds: Write, PaymentIntents: Read, Charges: Read, Webhook Endpoints: Read, Invoices: Read, Subscriptions: Write, Customers: Read, then run setup again.",
      'Nothing after this point was changed.',
    ]);
    expect(harness.cdkCalls).toEqual([]);
    expect(harness.state.puts).toEqual([]);
    expect(readStageBlock(harness.cdkJsonPath, 'prod')).toEqual(stageBefore);
    expect((await stripe().webhookEndpoints.list()).data).toEqual(endpointsBefore);
    expect(lines.join('\n')).not.toContain('sk_test_operator');
  });

  it('a key Stripe does not accept', async () => {
    // The simulator, like Stripe's test mode, does not know live keys.
    const { code, lines } = await setup([
      ...SETUP_FLAGS.slice(0, -2),
      '--stripe-key',
      'sk_live_unknown',
      '--checkout-key',
      'rk_live_unknown',
      '--fulfilment-key',
      'rk_live_unknown',
    ]);

    expect(code).toBe(1);
    expect(lines.at(-2)).toBe(
      '✗ Stripe does not accept the Stripe key setup uses (--stripe-key) (secret, live mode): it is mistyped, expired or rolled. Copy it again from Developers → API keys.',
    );
    expect(lines.join('\n')).not.toContain('unknown');
  });

  it("credentials that may not read the stacks, in AWS's words", async () => {
    harness.state.stacksDenied = true;

    const { code, lines } = await setup(SETUP_FLAGS);

    expect(code).toBe(1);
    expect(lines.slice(-2)).toEqual([
      '✗ AccessDenied: User: arn:aws:iam::123456789012:user/operator is not authorized to perform: cloudformation:DescribeStacks on resource: LiveAquatics-prod',
      'Nothing after this point was changed.',
    ]);
  });

  it('a failed deploy, and goes no further', async () => {
    const { code, lines } = await setup(SETUP_FLAGS, {
      runCdk: async (args) => (args[0] === 'deploy' ? 1 : 0),
    });

    expect(code).toBe(1);
    expect(lines.slice(-2)).toEqual([
      '✗ cdk deploy failed (exit code 1): read its output above, put it right and run setup again.',
      'Nothing after this point was changed.',
    ]);
    expect(harness.state.puts).toEqual([]);
  });
});

describe('setup puts right', () => {
  it("deletes another endpoint at the stage's URL, whose secret is not stored, and registers its own", async () => {
    const stray = await stripe().webhookEndpoints.create({
      url: `${harness.shop.url}/functions/v1/stripe-webhook`,
      enabled_events: ['checkout.session.completed'],
    });

    const { code, lines } = await setup(SETUP_FLAGS);

    expect(code).toBe(0);
    expect(lines).toContain(
      `  - Stripe webhook endpoint ${stray.id} at the same URL removed (its signing secret is not the stored one)`,
    );
    const { data } = await stripe().webhookEndpoints.list();
    expect(data.map(({ id }) => id)).not.toContain(stray.id);
    expect(data).toHaveLength(1);
  });

  it('replaces the stored endpoint when it sends events of another API version, and stores the new secret', async () => {
    await setup(SETUP_FLAGS);
    const [old] = (await stripe().webhookEndpoints.list()).data;
    const oldSecret = harness.state.secrets.get(SECRETS.webhook);

    const { lines } = await setup(SETUP_FLAGS, { apiVersion: '2026-09-30.endive' });

    const [current] = (await stripe().webhookEndpoints.list()).data;
    expect(lines).toContain(
      `  - Stripe webhook endpoint ${old?.id} at the same URL removed (it sends events of API version 2026-10-28.endive, not 2026-09-30.endive)`,
    );
    expect(current?.api_version).toBe('2026-09-30.endive');
    expect(harness.state.secrets.get(SECRETS.webhook)).not.toBe(oldSecret);
    expect(JSON.parse(harness.state.secrets.get(SECRETS.webhook) ?? '{}').webhookEndpointId).toBe(
      current?.id,
    );
  });

  it("prints the shop's own domain as a record to add when no Route 53 zone is given", async () => {
    writeStageBlock(harness.cdkJsonPath, 'shop', {
      domainName: 'shop.daphnia-direct.co.uk',
      certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-aaaa-bbbb-cccc-000000000000',
    });
    harness.state.sesVerified = true;

    const { lines } = await setup(['--stage', 'shop', ...SETUP_FLAGS.slice(2)]);

    expect(lines.filter((line) => line.includes('CNAME'))).toEqual([
      '  shop.daphnia-direct.co.uk  CNAME  d111111abcdef8.cloudfront.net',
    ]);
  });

  it('adds an existing user to the merchants group', async () => {
    harness.state.users.set('owner@daphnia-direct.co.uk', []);

    const { lines } = await setup(SETUP_FLAGS);

    expect(lines).toContain('  + Merchant owner@daphnia-direct.co.uk added to the merchants group');
    expect(harness.state.users.get('owner@daphnia-direct.co.uk')).toEqual(['merchants']);
  });

  it('asks what the flags do not give, with the current value as default, keys without echo', async () => {
    const asked: string[] = [];
    const answers: Record<string, string> = {
      'Seller (trading or company name)': 'Daphnia Direct Trading Ltd',
      'Stripe secret key (registers the webhook; not stored)': STRIPE_KEY,
      'Checkout key (restricted: Checkout Sessions Write)': CHECKOUT_KEY,
      'Fulfilment key (restricted: Checkout Sessions Write, Refunds Write, PaymentIntents Read, Charges Read, Webhook Endpoints Read)':
        FULFILMENT_KEY,
    };

    const { code } = await setup(['--stage', 'prod', '--region', 'eu-west-2'], {
      prompt: async (question, { default: fallback, secret = false }) => {
        asked.push(`${question} [${secret ? 'secret' : (fallback ?? '')}]`);
        return answers[question] ?? '';
      },
    });

    expect(code).toBe(0);
    expect(asked).toEqual([
      'Shop name, as customers know it [Daphnia Direct]',
      'Seller (trading or company name) [Daphnia Direct Ltd]',
      "Seller's geographic address [4 Pond Lane, Norwich NR1 1AA]",
      'Address customers write to [hello@daphnia-direct.co.uk]',
      'From address of the shop’s emails [orders@daphnia-direct.co.uk]',
      'Address that gets a notice per order [owner@daphnia-direct.co.uk]',
      'Address that gets alarms [alarms@daphnia-direct.co.uk]',
      'SES identity to create (domain, address or existing) [domain]',
      // The seller's claims, the stage's own offered (the spec's on a new stage).
      'Trial-run sentence on the order page ("off" for none) [This is a trial run.]',
      'Promotion: struck-through reference price in pence, one you genuinely charged for a reasonable period ("off" for no promotion) [1200]',
      'Promotion wording, stating the £9.75 charged [£9.75 for 3 bottles]',
      'Stripe secret key (registers the webhook; not stored) [secret]',
      'Checkout key (restricted: Checkout Sessions Write) [secret]',
      'Fulfilment key (restricted: Checkout Sessions Write, Refunds Write, PaymentIntents Read, Charges Read, Webhook Endpoints Read) [secret]',
      // Optional: answered with nothing, the weather check keeps to the free endpoint.
      'Open-Meteo API key (commercial use; empty: the free endpoint, for non-commercial use only) [secret]',
    ]);
    expect(readStageBlock(harness.cdkJsonPath, 'prod')?.sellerName).toBe('Daphnia Direct Trading Ltd');
    expect(harness.cdkCalls.at(-1)?.slice(-2)).toEqual(['--require-approval', 'broadening']);
  });
});

describe("setup and the seller's claims", () => {
  it('refuses a reference price not above the £9.75 it is compared with, before any change', async () => {
    const before = readStageBlock(harness.cdkJsonPath, 'prod');

    const { code, lines } = await setup([...SETUP_FLAGS, '--promotion-reference-pence', '975']);

    expect(code).toBe(1);
    expect(lines.slice(-2)).toEqual([
      '✗ --promotion-reference-pence: 975 pence (£9.75) is not above the price it is compared with, 975 pence (£9.75 for 3 bottles): a reference price must be higher, and one genuinely charged before (docs/deploy.md).',
      'Nothing after this point was changed.',
    ]);
    expect(harness.cdkCalls).toEqual([]);
    expect(readStageBlock(harness.cdkJsonPath, 'prod')).toEqual(before);
  });

  it('refuses wording that does not state the price charged', async () => {
    const { code, lines } = await setup([...SETUP_FLAGS, '--promotion-wording', 'Only £8 for 3 bottles']);

    expect(code).toBe(1);
    expect(lines.at(-2)).toBe(
      '✗ --promotion-wording: expected text of 1 to 60 characters that states the price charged, £9.75.',
    );
    expect(harness.cdkCalls).toEqual([]);
  });

  it("writes the stage's own claims, offers them on the next run, and asks no wording for a promotion turned off", async () => {
    const own = await setup([
      ...SETUP_FLAGS,
      '--trial-run-notice',
      'Our first season: thank you for trying us!',
      '--promotion-reference-pence',
      '1100',
      '--promotion-wording',
      'Launch offer: £9.75 for 3 bottles',
    ]);
    expect(own.code).toBe(0);
    expect(readStageBlock(harness.cdkJsonPath, 'prod')).toMatchObject({
      trialRunNotice: 'Our first season: thank you for trying us!',
      promotionReferencePence: 1100,
      promotionWording: 'Launch offer: £9.75 for 3 bottles',
    });

    const asked: string[] = [];
    const off = await setup(
      SETUP_FLAGS.filter((flag) => flag !== '--yes'),
      {
        prompt: async (question, { default: fallback }) => {
          asked.push(`${question} [${fallback ?? ''}]`);
          if (question.startsWith('Trial-run sentence')) return 'off';
          if (question.startsWith('Promotion: struck-through')) return 'OFF';
          return '';
        },
      },
    );
    expect(off.code).toBe(0);
    expect(asked.filter((question) => /Trial-run|Promotion/.test(question))).toEqual([
      'Trial-run sentence on the order page ("off" for none) [Our first season: thank you for trying us!]',
      'Promotion: struck-through reference price in pence, one you genuinely charged for a reasonable period ("off" for no promotion) [1100]',
    ]);
    expect(readStageBlock(harness.cdkJsonPath, 'prod')).toMatchObject({
      trialRunNotice: false,
      promotionReferencePence: false,
      promotionWording: 'Launch offer: £9.75 for 3 bottles',
    });

    const again: string[] = [];
    await setup(
      SETUP_FLAGS.filter((flag) => flag !== '--yes'),
      {
        prompt: async (question, { default: fallback }) => {
          again.push(`${question} [${fallback ?? ''}]`);
          return '';
        },
      },
    );
    expect(again.filter((question) => /Trial-run|Promotion/.test(question))).toEqual([
      'Trial-run sentence on the order page ("off" for none) [off]',
      'Promotion: struck-through reference price in pence, one you genuinely charged for a reasonable period ("off" for no promotion) [off]',
    ]);
  });
});
