import type Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createStripeClient } from '../../lambdas/lib/stripe';
import { runDoctor } from '../../ops/doctor';
import { writeStageBlock } from '../../ops/stage-file';
import {
  healthyAccount,
  SECRETS,
  STRIPE_KEY,
  type StageHarness,
  setSesProduction,
  startStageHarness,
  USER_POOL,
} from './stage-harness';

/*
 * `npm run doctor`: a stage set up as setup leaves it passes every check; each test then breaks
 * one thing and reads the one check that says so, in its own words.
 */

let harness: StageHarness;
let endpointId: string;
const HANDLED = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
  'charge.refunded',
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.deleted',
] as const;

function stripe(): Stripe {
  const simulator = harness.shop.simulator;
  if (simulator === undefined) throw new Error('no simulator');
  return createStripeClient(STRIPE_KEY, { apiBase: simulator.url, maxNetworkRetries: 0 });
}

/** Answers `answer` for requests whose URL starts with `prefix`, and passes the rest to the stack. */
function answering(
  prefix: string,
  answer: (url: string, init?: RequestInit) => Promise<Response>,
): typeof fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    return url.startsWith(prefix) ? answer(url, init) : fetch(input, init);
  };
}

async function doctor(fetchOverride?: typeof fetch, overrides: Parameters<StageHarness['deps']>[0] = {}) {
  harness.lines.length = 0;
  const code = await runDoctor(
    ['--stage', 'prod'],
    harness.deps({ ...(fetchOverride !== undefined && { fetch: fetchOverride }), ...overrides }),
  );
  return { code, lines: [...harness.lines] };
}

const failures = (lines: string[]) => lines.filter((line) => line.startsWith('  ✗'));

const STAGE_BLOCK = {
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
};

beforeAll(async () => {
  harness = await startStageHarness();
  writeStageBlock(harness.cdkJsonPath, 'prod', STAGE_BLOCK);
  const endpoint = await stripe().webhookEndpoints.create({
    url: `${harness.shop.url}/functions/v1/stripe-webhook`,
    enabled_events: [...HANDLED],
    api_version: '2026-10-28.endive',
  });
  endpointId = endpoint.id;
}, 60_000);
afterAll(async () => {
  await harness?.close();
});
beforeEach(async () => {
  // As setup leaves a stage: the webhook reads the secret the local stack signs with.
  Object.assign(harness.state, healthyAccount());
  harness.state.secrets.set(SECRETS.checkout, JSON.stringify({ stripeSecretKey: STRIPE_KEY }));
  harness.state.secrets.set(SECRETS.fulfilment, JSON.stringify({ stripeSecretKey: STRIPE_KEY }));
  harness.state.secrets.set(
    SECRETS.webhook,
    JSON.stringify({ stripeWebhookSecret: 'whsec_local_simulator', webhookEndpointId: endpointId }),
  );
  harness.state.users.set('owner@daphnia-direct.co.uk', ['merchants']);
  setSesProduction(true);
  await stripe().webhookEndpoints.update(endpointId, { enabled_events: [...HANDLED], disabled: false });
});

describe('npm run doctor', () => {
  it('passes every check of a stage set up as setup leaves it, with exit code 0', async () => {
    const { code, lines } = await doctor();

    expect(lines.map((line) => line.replace(/cs_test_\w+/, 'cs_test_…'))).toEqual([
      'Checking stage prod in eu-west-2:',
      `  ✓ Site through CloudFront: ${harness.shop.url}/ answers 200 with the shop's page`,
      `  ✓ Seller's claims: trial-run sentence "This is a trial run."; promotion "£9.75 for 3 bottles" against £12.00 struck through`,
      `  ✓ API through CloudFront: ${harness.shop.url}/functions/v1 reaches the API (checkout-status answers)`,
      `  ✓ API refuses requests that bypass CloudFront: ${harness.originUrl}/functions/v1/shop-status answers 403`,
      '  ✓ shop-status: the shop is open',
      `  ✓ Stripe webhook endpoint: ${endpointId} sends the 8 events the shop handles to ${harness.shop.url}/functions/v1/stripe-webhook`,
      '  ✓ Webhook signing secret: the webhook accepts an event signed with the stored secret',
      '  ✓ SES sender identity: daphnia-direct.co.uk is verified',
      '  ✓ SES production access: SES in eu-west-2 may send to anyone',
      '  ✓ Alarm subscription: alarms go to alarms@daphnia-direct.co.uk',
      `  ✓ Weather forecast key: no commercial use declared: the weather check asks Open-Meteo's free endpoint (non-commercial use only); set "forecastPlan": "commercial" and store a key before the shop trades`,
      '  ✓ Merchant: 1 merchant may sign in to /admin',
      '  ✓ Test checkout: create-checkout opens a Stripe payment page (test session cs_test_…, expired again)',
      'All 13 checks pass.',
    ]);
    expect(code).toBe(0);
  });

  it("shows the stage's own claims as the deployed page shows them, entities and React's separators read", async () => {
    writeStageBlock(harness.cdkJsonPath, 'claims', {
      ...STAGE_BLOCK,
      trialRunNotice: "Our first season: we're still learning!",
      promotionReferencePence: 1100,
      promotionWording: 'Launch offer: £9.75 for 3 bottles & more',
    });
    const page =
      '<!doctype html><s class="product-card__was">£11.00</s><span>Launch offer: £9.75 for 3 bottles &amp; more</span>' +
      '<li>Our first season: we&#x27;re still learning!<!-- --> Daphnia are live.</li>';
    harness.lines.length = 0;
    const code = await runDoctor(
      ['--stage', 'claims'],
      harness.deps({
        fetch: answering(`${harness.shop.url}/`, async (url, init) =>
          url === `${harness.shop.url}/`
            ? new Response(page, { status: 200, headers: { 'content-type': 'text/html' } })
            : fetch(url, init),
        ),
      }),
    );

    expect(harness.lines).toContain(
      `  ✓ Seller's claims: trial-run sentence "Our first season: we're still learning!"; promotion "Launch offer: £9.75 for 3 bottles & more" against £11.00 struck through`,
    );
    expect(code).toBe(0);
  });

  it('says when the deployed page shows other claims than cdk.json sets, and shows claims turned off', async () => {
    writeStageBlock(harness.cdkJsonPath, 'claims', {
      ...STAGE_BLOCK,
      trialRunNotice: 'Our first season.',
      promotionReferencePence: 1100,
    });
    harness.lines.length = 0;
    expect(await runDoctor(['--stage', 'claims'], harness.deps())).toBe(1);
    expect(failures(harness.lines)).toEqual([
      `  ✗ Seller's claims: ${harness.shop.url}/ does not show the trial-run sentence "Our first season." or the promotion "£9.75 for 3 bottles" against £11.00 struck through, as cdk.json sets for stage claims: the site was built from other settings; deploy it again (npm run setup -- --stage claims).`,
    ]);

    writeStageBlock(harness.cdkJsonPath, 'claims', {
      ...STAGE_BLOCK,
      trialRunNotice: false,
      promotionReferencePence: false,
    });
    harness.lines.length = 0;
    expect(await runDoctor(['--stage', 'claims'], harness.deps())).toBe(0);
    expect(harness.lines).toContain("  ✓ Seller's claims: no trial-run sentence; no promotion");
  });

  it('says when the site does not answer through CloudFront', async () => {
    const { code, lines } = await doctor(
      answering(`${harness.shop.url}/`, async (url, init) =>
        url === `${harness.shop.url}/`
          ? new Response('<h1>502 Bad Gateway</h1>', {
              status: 502,
              headers: { 'content-type': 'text/html' },
            })
          : fetch(url, init),
      ),
    );

    expect(failures(lines)).toEqual([
      `  ✗ Site through CloudFront: ${harness.shop.url}/ answered 502 (text/html), not the shop's page: check the distribution and that the last deploy finished (npm run setup -- --stage prod).`,
      `  ✗ Seller's claims: ${harness.shop.url}/ answered 502, so the page's claims could not be read (see Site through CloudFront).`,
    ]);
    expect(code).toBe(1);
    expect(lines.at(-1)).toBe('2 of 13 checks fail: fix what each ✗ line says, then run the checks again.');
  });

  it('says when CloudFront does not reach the API', async () => {
    const { code, lines } = await doctor(
      answering(
        `${harness.shop.url}/functions/v1/checkout-status`,
        async () =>
          new Response('<html>403 ERROR</html>', { status: 403, headers: { 'content-type': 'text/html' } }),
      ),
    );

    expect(failures(lines)).toEqual([
      `  ✗ API through CloudFront: GET ${harness.shop.url}/functions/v1/checkout-status?session_id=cs_test_doctor_check answered 403 (text/html), not the API's JSON 404 for an unknown session: CloudFront does not reach the API under /functions/v1/*; redeploy (npm run setup -- --stage prod).`,
    ]);
    expect(code).toBe(1);
  });

  it('says when the API answers a request that bypasses CloudFront', async () => {
    const { originUrl } = harness;
    // An API without the origin-verify check answers its own address like CloudFront's.
    const { code, lines } = await doctor(
      answering(originUrl, (url, init) => fetch(url.replace(originUrl, harness.shop.url), init)),
    );

    expect(failures(lines)).toEqual([
      "  ✗ API refuses requests that bypass CloudFront: The API's own address answered 200 to a request that did not come through CloudFront (expected 401 or 403): anyone can go round the WAF and its rate limits. Redeploy (npm run setup -- --stage prod) so the origin-verify authorizer guards every route.",
    ]);
    expect(code).toBe(1);
  });

  it("takes API Gateway's own 401, for a request without the authorizer's headers, as a refusal too", async () => {
    const { originUrl } = harness;
    const { code, lines } = await doctor(
      answering(originUrl, async () => Response.json({ message: 'Unauthorized' }, { status: 401 })),
    );

    expect(lines).toContain(
      `  ✓ API refuses requests that bypass CloudFront: ${originUrl}/functions/v1/shop-status answers 401`,
    );
    expect(failures(lines)).toEqual([]);
    expect(code).toBe(0);
  });

  it('takes no other answer for a refusal, a 404 among them', async () => {
    const { originUrl } = harness;
    const { code, lines } = await doctor(
      answering(originUrl, async () => Response.json({ message: 'Not Found' }, { status: 404 })),
    );

    expect(failures(lines)).toEqual([
      "  ✗ API refuses requests that bypass CloudFront: The API's own address answered 404 to a request that did not come through CloudFront (expected 401 or 403): anyone can go round the WAF and its rate limits. Redeploy (npm run setup -- --stage prod) so the origin-verify authorizer guards every route.",
    ]);
    expect(code).toBe(1);
  });

  it('says when shop-status does not answer', async () => {
    const { code, lines } = await doctor(
      answering(`${harness.shop.url}/functions/v1/shop-status`, async () =>
        Response.json({ message: 'Internal Server Error' }, { status: 500 }),
      ),
    );

    expect(failures(lines)).toEqual([
      `  ✗ shop-status: GET ${harness.shop.url}/functions/v1/shop-status answered 500 (application/json) instead of the shop's status: the order page cannot tell whether to take orders. Read the ShopStatus function's log.`,
    ]);
    expect(code).toBe(1);
  });

  it('says which events the webhook endpoint lacks or sends for nothing', async () => {
    await stripe().webhookEndpoints.update(endpointId, {
      enabled_events: [
        'checkout.session.completed',
        'checkout.session.async_payment_succeeded',
        'checkout.session.async_payment_failed',
        'checkout.session.expired',
        'invoice.paid',
        'invoice.payment_failed',
        'customer.subscription.deleted',
        'customer.created',
      ],
    });

    const { code, lines } = await doctor();

    expect(failures(lines)).toEqual([
      `  ✗ Stripe webhook endpoint: The webhook endpoint ${endpointId}: it does not send charge.refunded; it also sends customer.created, which the shop ignores. Run npm run setup -- --stage prod to put it right.`,
    ]);
    expect(code).toBe(1);
  });

  it('says when the endpoint sends events of another API version than the code reads', async () => {
    // The code now reads an older version than the endpoint was registered with.
    const { code, lines } = await doctor(undefined, { apiVersion: '2026-09-30.endive' });

    expect(failures(lines)).toEqual([
      `  ✗ Stripe webhook endpoint: The webhook endpoint ${endpointId}: it sends events of API version 2026-10-28.endive, not 2026-09-30.endive. Run npm run setup -- --stage prod to put it right.`,
    ]);
    expect(code).toBe(1);
  });

  it('says when Stripe no longer has the endpoint the stored secret belongs to', async () => {
    harness.state.secrets.set(
      SECRETS.webhook,
      JSON.stringify({
        stripeWebhookSecret: 'whsec_local_simulator',
        webhookEndpointId: 'we_deletedinthedashboard',
      }),
    );

    const { code, lines } = await doctor();

    expect(failures(lines)).toEqual([
      "  ✗ Stripe webhook endpoint: Stripe has no webhook endpoint we_deletedinthedashboard (No such webhook_endpoint: 'we_deletedinthedashboard'): no order reaches the shop. Run npm run setup -- --stage prod to register it again.",
    ]);
    expect(code).toBe(1);
  });

  it('says when the stored signing secret is not the one the webhook checks', async () => {
    harness.state.secrets.set(
      SECRETS.webhook,
      JSON.stringify({ stripeWebhookSecret: 'whsec_rolled_in_the_dashboard', webhookEndpointId: endpointId }),
    );

    const { code, lines } = await doctor();

    expect(failures(lines)).toEqual([
      '  ✗ Webhook signing secret: The webhook answered 400 to an event signed with the stored signing secret: it does not use the secret Stripe signs with, so every order event is refused. Run npm run setup -- --stage prod (it registers the endpoint again and stores its secret).',
    ]);
    expect(code).toBe(1);
  });

  it('says when the sender is not verified in SES', async () => {
    harness.state.sesVerified = false;

    const { code, lines } = await doctor();

    expect(failures(lines)).toEqual([
      '  ✗ SES sender identity: Neither daphnia-direct.co.uk nor orders@daphnia-direct.co.uk is verified in SES in eu-west-2 (daphnia-direct.co.uk: Pending), so no email goes out: add the DNS records setup printed (run it again to see them), or click the link SES mailed to orders@daphnia-direct.co.uk.',
    ]);
    expect(code).toBe(1);
  });

  it('says when SES is still in the sandbox', async () => {
    setSesProduction(false);

    const { code, lines } = await doctor();

    expect(failures(lines)).toEqual([
      '  ✗ SES production access: SES in eu-west-2 is in the sandbox: it sends only to verified addresses, so customers get no confirmation. Request production access (SES console → Account dashboard → Request production access).',
    ]);
    expect(code).toBe(1);
  });

  it('says when nobody has confirmed the alarm subscription', async () => {
    harness.state.alarmConfirmed = false;

    const { code, lines } = await doctor();

    expect(failures(lines)).toEqual([
      `  ✗ Alarm subscription: Nobody has confirmed the alarm subscription, so no alarm reaches anyone: open "AWS Notification - Subscription Confirmation" in alarms@daphnia-direct.co.uk's inbox and click Confirm subscription.`,
    ]);
    expect(code).toBe(1);
  });

  it('says when no merchant can sign in', async () => {
    harness.state.users.clear();

    const { code, lines } = await doctor();

    expect(failures(lines)).toEqual([
      `  ✗ Merchant: Nobody can sign in to /admin: the merchants group of user pool ${USER_POOL} has no enabled user. Run npm run setup -- --stage prod to create the merchant (or npm run orders -- merchant add EMAIL --stage prod).`,
    ]);
    expect(code).toBe(1);
  });

  it('says when a test checkout does not answer with a Stripe payment page', async () => {
    const { code, lines } = await doctor(
      answering(`${harness.shop.url}/functions/v1/create-checkout`, async () =>
        Response.json({ error: 'Unauthorized' }, { status: 401 }),
      ),
    );

    expect(failures(lines)).toEqual([
      `  ✗ Test checkout: create-checkout answered 401 "Unauthorized" instead of a Stripe payment page: the public key did not reach the API (CloudFront must forward Authorization). Read the CreateCheckout function's log.`,
    ]);
    expect(code).toBe(1);
  });

  it('says when no endpoint is recorded beside the signing secret', async () => {
    harness.state.secrets.set(
      SECRETS.webhook,
      JSON.stringify({ stripeWebhookSecret: 'whsec_local_simulator' }),
    );

    const { lines } = await doctor();

    expect(failures(lines)).toEqual([
      '  ✗ Stripe webhook endpoint: No webhook endpoint is recorded beside the signing secret: run npm run setup -- --stage prod to register one.',
    ]);
  });

  it("says when create-checkout answers with a page that is not Stripe's", async () => {
    const { lines } = await doctor(
      answering(`${harness.shop.url}/functions/v1/create-checkout`, async () =>
        Response.json({ url: 'https://pay.example.net/cs_test_1', sessionId: 'cs_test_1' }),
      ),
    );

    expect(failures(lines)).toEqual([
      `  ✗ Test checkout: create-checkout answered with https://pay.example.net, not a Stripe payment page (${harness.checkoutOrigin}).`,
    ]);
  });

  it('sends the public key with the test checkout when the stage has one', async () => {
    const seen: Array<string | null> = [];
    writeStageBlock(harness.cdkJsonPath, 'keyed', { ...STAGE_BLOCK, publicApiKey: 'pub_daphnia_2026' });
    harness.lines.length = 0;

    await runDoctor(
      ['--stage', 'keyed'],
      harness.deps({
        fetch: answering(`${harness.shop.url}/functions/v1/create-checkout`, (url, init) => {
          seen.push(new Headers(init?.headers).get('authorization'));
          return fetch(url, init);
        }),
      }),
    );

    expect(seen).toEqual(['Bearer pub_daphnia_2026']);
  });

  it('skips the test checkout in live mode', async () => {
    writeStageBlock(harness.cdkJsonPath, 'live', { ...STAGE_BLOCK, stripeLivemode: true });
    const checkouts: string[] = [];
    harness.lines.length = 0;

    await runDoctor(
      ['--stage', 'live'],
      harness.deps({
        fetch: answering(`${harness.shop.url}/functions/v1/create-checkout`, async (url, init) => {
          checkouts.push(url);
          return fetch(url, init);
        }),
      }),
    );

    expect(harness.lines).toContain(
      '  ✓ Test checkout: skipped in live mode (a checkout would hold real bottles)',
    );
    expect(checkouts).toEqual([]);
  });

  describe('the weather forecast key of a stage that declares commercial use (issue 48)', () => {
    const OPEN_METEO = 'https://customer-api.open-meteo.com/';
    const asked: string[] = [];
    const openMeteo = (status: number, body: object) =>
      answering(OPEN_METEO, async (url) => {
        asked.push(url);
        return new Response(JSON.stringify(body), {
          status,
          headers: { 'content-type': 'application/json' },
        });
      });
    const keyLine = (lines: string[]) => lines.find((line) => line.includes('Weather forecast key'));

    beforeEach(() => {
      asked.length = 0;
      writeStageBlock(harness.cdkJsonPath, 'prod', { ...STAGE_BLOCK, forecastPlan: 'commercial' });
    });
    afterAll(() => {
      writeStageBlock(harness.cdkJsonPath, 'prod', STAGE_BLOCK);
    });

    it('passes when a key is stored and Open-Meteo’s commercial host accepts it', async () => {
      harness.state.secrets.set(SECRETS.openMeteo, JSON.stringify({ openMeteoApiKey: 'om-daphnia-key' }));

      const { code, lines } = await doctor(openMeteo(200, { hourly: { time: [], temperature_2m: [] } }));

      expect(keyLine(lines)).toBe(
        '  ✓ Weather forecast key: commercial use declared, and https://customer-api.open-meteo.com accepts the stored key',
      );
      expect(asked).toEqual([
        'https://customer-api.open-meteo.com/v1/forecast?latitude=51.51&longitude=-0.13&hourly=temperature_2m&forecast_days=1&apikey=om-daphnia-key',
      ]);
      expect(code).toBe(0);
    });

    it('fails when no key is stored (setup left it empty), naming the secret and the alarm', async () => {
      harness.state.secrets.set(
        SECRETS.openMeteo,
        JSON.stringify({ openMeteoApiKey: '', placeholder: 'Ab12' }),
      );

      const { code, lines } = await doctor(openMeteo(200, {}));

      expect(failures(lines)).toEqual([
        "  ✗ Weather forecast key: Stage prod declares commercial use, but LiveAquatics-prod-OpenMeteoKey holds no Open-Meteo key: the weather check asks the free endpoint, which is for non-commercial use only, the admin's weather card says so and the ForecastKeyUnreadable alarm fires. Run npm run setup -- --stage prod --open-meteo-key KEY.",
      ]);
      expect(asked).toEqual([]);
      expect(code).toBe(1);
    });

    it('fails when the secret is still the stack’s first value (not JSON)', async () => {
      const { lines } = await doctor(openMeteo(200, {}));

      expect(keyLine(lines)).toMatch(/^ {2}✗ Weather forecast key: Stage prod declares commercial use, but /);
    });

    it('fails when Open-Meteo refuses the stored key, with its reason', async () => {
      harness.state.secrets.set(SECRETS.openMeteo, JSON.stringify({ openMeteoApiKey: 'om-expired' }));

      const { code, lines } = await doctor(openMeteo(400, { error: true, reason: 'API key invalid' }));

      expect(failures(lines)).toEqual([
        "  ✗ Weather forecast key: Open-Meteo refused the stored key (HTTP 400: API key invalid): the weather check falls back to the free endpoint, which is for non-commercial use only. Check the key in Open-Meteo's customer portal, then run npm run setup -- --stage prod --open-meteo-key KEY.",
      ]);
      expect(code).toBe(1);
    });
  });

  it('fails a stage that takes live payments without declaring commercial use of the forecast', async () => {
    writeStageBlock(harness.cdkJsonPath, 'live', { ...STAGE_BLOCK, stripeLivemode: true });
    harness.lines.length = 0;

    await runDoctor(['--stage', 'live'], harness.deps());

    expect(harness.lines).toContain(
      `  ✗ Weather forecast key: Stage live takes live payments but does not declare commercial use of the weather forecast ("forecastPlan": "free"): Open-Meteo's free endpoint is for non-commercial use only. Take Open-Meteo's commercial plan, set "forecastPlan": "commercial" in the stage's block of cdk.json, store the key (npm run setup -- --stage live --open-meteo-key KEY) and deploy.`,
    );
  });

  it('refuses a stage that setup has not written', async () => {
    harness.lines.length = 0;

    const code = await runDoctor(['--stage', 'test'], harness.deps());

    expect(harness.lines).toEqual([
      '✗ cdk.json has no stage test: set it up first (npm run setup -- --stage test).',
    ]);
    expect(code).toBe(1);
  });
});
