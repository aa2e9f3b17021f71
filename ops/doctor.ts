import { parseArgs } from 'node:util';
import { GetIdentityVerificationAttributesCommand } from '@aws-sdk/client-ses';
import { GetAccountCommand } from '@aws-sdk/client-sesv2';
import { ListSubscriptionsByTopicCommand } from '@aws-sdk/client-sns';
import type Stripe from 'stripe';
import * as z from 'zod/mini';
import { MERCHANTS_GROUP } from '../shared/admin-api-paths';
import { createCheckoutResponseSchema } from '../shared/checkout-response';
import { OPEN_METEO_COMMERCIAL_URL, OPEN_METEO_KEY_JSON_KEY } from '../shared/open-meteo';
import { formatGbp, penceToPounds, quoteOrder } from '../shared/pricing';
import { PUBLIC_API_PATH_PATTERN, PUBLIC_API_ROOT, PUBLIC_API_ROUTES } from '../shared/public-routes';
import { RefusedError } from '../shared/refusal';
import { type SellerClaims, sellerClaimsOf } from '../shared/seller-claims';
import { shopStatusSchema } from '../shared/shop-status';
import { APP_OUTPUT_KEYS, SECRET_OUTPUT_KEYS } from '../shared/stack-outputs';
import { STAGE_SETTINGS } from '../shared/stage-config';
import { listMerchants } from './merchant-accounts';
import { operatorMessage, readSecretDocument, readStageOutputs, type StageAwsClients } from './stage-aws';
import { readStageBlock, type StageBlock, stageRegion } from './stage-file';
import { eventDifference } from './stripe-account';

// `npm run doctor`: for each thing wrong with a deployed stage, what an operator can do about it.

export interface DeployedStage {
  stage: string;
  region: string;
  outputs: { get(key: string): string };
  settings: StageBlock;
}

/** The clients the checks use; tests point them at the local stack and recorded answers. */
export interface DoctorDeps {
  aws: StageAwsClients;
  stripe: (key: string) => Stripe;
  fetch: typeof fetch;
  now: () => Date;
  /** The origin of Stripe's hosted payment pages (`https://checkout.stripe.com`; the simulator's in tests). */
  checkoutOrigin: string;
  /** The Stripe API version the code is tested with (the SDK's): the shape of the endpoint's events. */
  apiVersion: Stripe.WebhookEndpointCreateParams.ApiVersion;
  /** The events the webhook handles: what its endpoint must listen for. */
  events: readonly Stripe.WebhookEndpointCreateParams.EnabledEvent[];
}

export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
}

export const storedKeySchema = z.object({ stripeSecretKey: z.string() });
export const storedWebhookSchema = z.object({
  stripeWebhookSecret: z.string(),
  webhookEndpointId: z.optional(z.string()),
});
const errorBodySchema = z.object({ error: z.string() });
export const storedForecastKeySchema = z.object({ [OPEN_METEO_KEY_JSON_KEY]: z.string() });
/** Open-Meteo's refusal: `{"error": true, "reason": "..."}`. */
const openMeteoErrorSchema = z.object({ reason: z.string() });
/** London, one day: the smallest question that proves the key. */
const KEY_PROBE = {
  latitude: '51.51',
  longitude: '-0.13',
  hourly: 'temperature_2m',
  forecast_days: '1',
} as const;
/** API Gateway's own address: 401 without the authorizer's identity sources, 403 when it refuses. */
const BYPASS_REFUSALS: readonly number[] = [401, 403];

/** A failed check's message: thrown inside a check, printed as it is. */
class CheckFailure extends Error {}

export interface SesContext {
  region: string;
  sender: string;
  aws: StageAwsClients;
}

interface StageContext extends SesContext {
  stage: DeployedStage;
  deps: DoctorDeps;
  livemode: boolean;
  siteUrl: string;
  apiUrl: string;
  webhookUrl: string;
  text(key: string): string | undefined;
  apiPath(path: string): string;
  setupCommand: string;
  /** A request that names what did not answer; redirects are not followed. */
  get(url: string, init?: RequestInit): Promise<Response>;
  /** The fulfilment function's Stripe client, its key read from its secret once. */
  stripe(): Promise<Stripe>;
  webhookDocument(): Promise<z.infer<typeof storedWebhookSchema>>;
  shopMode: string | undefined;
}

/** A check returns what it saw, or throws a CheckFailure saying what to do. */
export interface Check<Context> {
  name: string;
  run(context: Context): Promise<string>;
}

/** Runs every check, each on its own: one failing never hides another. */
export async function runDoctorChecks(stage: DeployedStage, deps: DoctorDeps): Promise<CheckResult[]> {
  return runChecks(DOCTOR_CHECKS, stageContext(stage, deps));
}

function stageContext(stage: DeployedStage, deps: DoctorDeps): StageContext {
  const { outputs, settings } = stage;
  const text = (key: string) => {
    const value = settings[key];
    return typeof value === 'string' ? value : undefined;
  };
  const apiUrl = outputs.get(APP_OUTPUT_KEYS.apiUrl).replace(/\/+$/, '');
  const setupCommand = `npm run setup -- --stage ${stage.stage}`;
  let fulfilmentStripe: Stripe | undefined;
  const secret = async <T>(output: string, schema: z.ZodMiniType<T>, holds: string) => {
    const id = outputs.get(output);
    const stored = schema.safeParse(await readSecretDocument(deps.aws.secretsManager, id));
    if (!stored.success) throw new CheckFailure(`The secret ${id} holds no ${holds}: run ${setupCommand}.`);
    return stored.data;
  };
  return {
    stage,
    deps,
    region: stage.region,
    sender: text('senderEmail') ?? '',
    aws: deps.aws,
    livemode: settings.stripeLivemode === true || settings.stripeLivemode === 'true',
    siteUrl: outputs.get(APP_OUTPUT_KEYS.siteUrl).replace(/\/+$/, ''),
    apiUrl,
    webhookUrl: outputs.get(APP_OUTPUT_KEYS.stripeWebhookUrl),
    text,
    // The stack's ApiUrl output ends in the API's root; a route's path starts with it.
    apiPath: (path) => `${apiUrl}${path.slice(PUBLIC_API_ROOT.length)}`,
    setupCommand,
    async get(url, init = {}) {
      try {
        return await deps.fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(15_000), ...init });
      } catch (error) {
        throw new CheckFailure(
          `${url} did not answer (${error instanceof Error ? error.message : String(error)}).`,
        );
      }
    },
    async stripe() {
      if (fulfilmentStripe === undefined) {
        const stored = await secret(SECRET_OUTPUT_KEYS.fulfilmentKey, storedKeySchema, 'Stripe key');
        fulfilmentStripe = deps.stripe(stored.stripeSecretKey);
      }
      return fulfilmentStripe;
    },
    webhookDocument: () =>
      secret(SECRET_OUTPUT_KEYS.webhookSigningSecret, storedWebhookSchema, 'webhook signing secret'),
    shopMode: undefined,
  };
}

function contentType(response: Response): string {
  return response.headers.get('content-type') ?? 'no content type';
}

/** Whether the shop's emails reach customers: setup keeps the shop paused until both pass. */
export const SES_READINESS_CHECKS: readonly Check<SesContext>[] = [
  {
    name: 'SES sender identity',
    async run({ region, sender, aws }) {
      const { domain, verified, status } = await senderIdentity(aws, sender);
      if (verified === undefined) {
        throw new CheckFailure(
          `Neither ${domain} nor ${sender} is verified in SES in ${region} (${domain}: ${status}), so no email goes out: add the DNS records setup printed (run it again to see them), or click the link SES mailed to ${sender}.`,
        );
      }
      return `${verified} is verified`;
    },
  },
  {
    name: 'SES production access',
    async run({ region, aws }) {
      const account = await aws.sesv2.send(new GetAccountCommand({}));
      if (account.ProductionAccessEnabled !== true)
        throw new CheckFailure(
          `SES in ${region} is in the sandbox: it sends only to verified addresses, so customers get no confirmation. Request production access (SES console → Account dashboard → Request production access).`,
        );
      return `SES in ${region} may send to anyone`;
    },
  },
];

/** The sender's domain, its SES status, and which of domain and address SES has verified. */
export async function senderIdentity(aws: StageAwsClients, sender: string) {
  const domain = sender.slice(sender.lastIndexOf('@') + 1);
  const { VerificationAttributes = {} } = await aws.ses.send(
    new GetIdentityVerificationAttributesCommand({ Identities: [domain, sender] }),
  );
  const verified = [domain, sender].find(
    (id) => VerificationAttributes[id]?.VerificationStatus === 'Success',
  );
  return { domain, verified, status: VerificationAttributes[domain]?.VerificationStatus ?? 'not created' };
}

/** The checks of a deployed stage, in the order they print. */
const DOCTOR_CHECKS: readonly Check<StageContext>[] = [
  {
    name: 'Site through CloudFront',
    async run({ siteUrl, get, setupCommand }) {
      const response = await get(`${siteUrl}/`);
      if (response.status !== 200 || !contentType(response).startsWith('text/html'))
        throw new CheckFailure(
          `${siteUrl}/ answered ${response.status} (${contentType(response)}), not the shop's page: check the distribution and that the last deploy finished (${setupCommand}).`,
        );
      return `${siteUrl}/ answers 200 with the shop's page`;
    },
  },
  {
    name: "Seller's claims",
    async run({ stage, siteUrl, get, setupCommand }) {
      const claims = claimsOfStage(stage.settings, stage.stage);
      const response = await get(`${siteUrl}/`);
      if (response.status !== 200)
        throw new CheckFailure(
          `${siteUrl}/ answered ${response.status}, so the page's claims could not be read (see Site through CloudFront).`,
        );
      const page = pageText(await response.text());
      const missing = missingClaims(page, claims);
      if (missing.length > 0)
        throw new CheckFailure(
          `${siteUrl}/ does not show ${missing.join(' or ')}, as cdk.json sets for stage ${stage.stage}: the site was built from other settings; deploy it again (${setupCommand}).`,
        );
      return describeClaims(claims);
    },
  },
  {
    name: 'API through CloudFront',
    async run({ apiUrl, apiPath, get, setupCommand }) {
      const url = `${apiPath(PUBLIC_API_ROUTES.checkoutStatus.path)}?session_id=cs_test_doctor_check`;
      const response = await get(url);
      const body = errorBodySchema.safeParse(await response.json().catch(() => undefined));
      if (response.status !== 404 || !body.success)
        throw new CheckFailure(
          `GET ${url} answered ${response.status} (${contentType(response)}), not the API's JSON 404 for an unknown session: CloudFront does not reach the API under ${PUBLIC_API_PATH_PATTERN}; redeploy (${setupCommand}).`,
        );
      return `${apiUrl} reaches the API (checkout-status answers)`;
    },
  },
  {
    name: 'API refuses requests that bypass CloudFront',
    async run({ stage, get, setupCommand }) {
      const url = `${stage.outputs.get(APP_OUTPUT_KEYS.apiOriginUrl).replace(/\/+$/, '')}${PUBLIC_API_ROUTES.shopStatus.path}`;
      const response = await get(url);
      if (!BYPASS_REFUSALS.includes(response.status))
        throw new CheckFailure(
          `The API's own address answered ${response.status} to a request that did not come through CloudFront (expected 401 or 403): anyone can go round the WAF and its rate limits. Redeploy (${setupCommand}) so the origin-verify authorizer guards every route.`,
        );
      return `${url} answers ${response.status}`;
    },
  },
  {
    name: 'shop-status',
    async run(context) {
      const url = context.apiPath(PUBLIC_API_ROUTES.shopStatus.path);
      const response = await context.get(url);
      const status = shopStatusSchema.safeParse(await response.json().catch(() => undefined));
      if (response.status !== 200 || !status.success)
        throw new CheckFailure(
          `GET ${url} answered ${response.status} (${contentType(response)}) instead of the shop's status: the order page cannot tell whether to take orders. Read the ShopStatus function's log.`,
        );
      context.shopMode = status.data.mode;
      return `the shop is ${status.data.mode}`;
    },
  },
  {
    name: 'Stripe webhook endpoint',
    async run({ deps, webhookDocument, stripe, webhookUrl, setupCommand }) {
      const { webhookEndpointId } = await webhookDocument();
      if (webhookEndpointId === undefined)
        throw new CheckFailure(
          `No webhook endpoint is recorded beside the signing secret: run ${setupCommand} to register one.`,
        );
      let endpoint: Stripe.WebhookEndpoint;
      try {
        endpoint = await (await stripe()).webhookEndpoints.retrieve(webhookEndpointId);
      } catch (error) {
        throw new CheckFailure(
          `Stripe has no webhook endpoint ${webhookEndpointId} (${error instanceof Error ? error.message : String(error)}): no order reaches the shop. Run ${setupCommand} to register it again.`,
        );
      }
      const problems: string[] = [];
      if (endpoint.url !== webhookUrl) problems.push(`it sends to ${endpoint.url}, not ${webhookUrl}`);
      if (endpoint.status !== 'enabled') problems.push(`it is ${endpoint.status}`);
      if (endpoint.api_version !== deps.apiVersion)
        problems.push(
          `it sends events of API version ${endpoint.api_version ?? "the account's default"}, not ${deps.apiVersion}`,
        );
      const { missing, extra } = eventDifference(endpoint.enabled_events, deps.events);
      if (missing.length > 0) problems.push(`it does not send ${missing.join(', ')}`);
      if (extra.length > 0) problems.push(`it also sends ${extra.join(', ')}, which the shop ignores`);
      if (problems.length > 0)
        throw new CheckFailure(
          `The webhook endpoint ${endpoint.id}: ${problems.join('; ')}. Run ${setupCommand} to put it right.`,
        );
      return `${endpoint.id} sends the ${deps.events.length} events the shop handles to ${webhookUrl}`;
    },
  },
  {
    name: 'Webhook signing secret',
    async run({ deps, livemode, webhookDocument, stripe, webhookUrl, get, setupCommand }) {
      const { stripeWebhookSecret } = await webhookDocument();
      const nowSeconds = Math.floor(deps.now().getTime() / 1000);
      // An event type the webhook does not act on: verified, then acknowledged and ignored.
      const payload = JSON.stringify({
        id: `evt_doctor_${nowSeconds}`,
        object: 'event',
        type: 'doctor.check',
        livemode,
        created: nowSeconds,
        data: { object: {} },
      });
      const signature = (await stripe()).webhooks.generateTestHeaderString({
        payload,
        secret: stripeWebhookSecret,
        timestamp: nowSeconds,
      });
      const response = await get(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      });
      if (response.status !== 200)
        throw new CheckFailure(
          `The webhook answered ${response.status} to an event signed with the stored signing secret: it does not use the secret Stripe signs with, so every order event is refused. Run ${setupCommand} (it registers the endpoint again and stores its secret).`,
        );
      return 'the webhook accepts an event signed with the stored secret';
    },
  },
  ...SES_READINESS_CHECKS,
  {
    name: 'Alarm subscription',
    async run({ stage, aws, text }) {
      const topic = stage.outputs.get(APP_OUTPUT_KEYS.alarmTopicArn);
      const { Subscriptions = [] } = await aws.sns.send(
        new ListSubscriptionsByTopicCommand({ TopicArn: topic }),
      );
      const confirmed = Subscriptions.filter(
        (subscription) => subscription.SubscriptionArn?.startsWith('arn:') === true,
      );
      const alarmEmail = text('alarmEmail') ?? text('merchantEmail') ?? '';
      if (confirmed.length === 0)
        throw new CheckFailure(
          `Nobody has confirmed the alarm subscription, so no alarm reaches anyone: open "AWS Notification - Subscription Confirmation" in ${alarmEmail}'s inbox and click Confirm subscription.`,
        );
      return `alarms go to ${confirmed.map((subscription) => subscription.Endpoint ?? '?').join(', ')}`;
    },
  },
  {
    name: 'Weather forecast key',
    async run({ stage, livemode, aws, get, setupCommand }) {
      // Open-Meteo's free endpoint is for non-commercial use only; the stage says which it is (ADR 0045).
      if (stage.settings.forecastPlan !== 'commercial') {
        if (livemode)
          throw new CheckFailure(
            `Stage ${stage.stage} takes live payments but does not declare commercial use of the weather forecast ("forecastPlan": "free"): Open-Meteo's free endpoint is for non-commercial use only. Take Open-Meteo's commercial plan, set "forecastPlan": "commercial" in the stage's block of cdk.json, store the key (${setupCommand} --open-meteo-key KEY) and deploy.`,
          );
        return `no commercial use declared: the weather check asks Open-Meteo's free endpoint (non-commercial use only); set "forecastPlan": "commercial" and store a key before the shop trades`;
      }
      const id = stage.outputs.get(SECRET_OUTPUT_KEYS.forecastKey);
      const stored = storedForecastKeySchema.safeParse(await readSecretDocument(aws.secretsManager, id));
      const key = stored.success ? stored.data.openMeteoApiKey.trim() : '';
      if (key === '')
        throw new CheckFailure(
          `Stage ${stage.stage} declares commercial use, but ${id} holds no Open-Meteo key: the weather check asks the free endpoint, which is for non-commercial use only, the admin's weather card says so and the ForecastKeyUnreadable alarm fires. Run ${setupCommand} --open-meteo-key KEY.`,
        );
      const url = new URL('/v1/forecast', OPEN_METEO_COMMERCIAL_URL);
      for (const [name, value] of Object.entries(KEY_PROBE)) url.searchParams.set(name, value);
      url.searchParams.set('apikey', key);
      const response = await get(url.href);
      if (response.status !== 200) {
        const reason = openMeteoErrorSchema.safeParse(await response.json().catch(() => undefined));
        throw new CheckFailure(
          `Open-Meteo refused the stored key (HTTP ${response.status}${reason.success ? `: ${reason.data.reason}` : ''}): the weather check falls back to the free endpoint, which is for non-commercial use only. Check the key in Open-Meteo's customer portal, then run ${setupCommand} --open-meteo-key KEY.`,
        );
      }
      return `commercial use declared, and ${OPEN_METEO_COMMERCIAL_URL} accepts the stored key`;
    },
  },
  {
    name: 'Merchant',
    async run({ stage, aws, setupCommand }) {
      const pool = stage.outputs.get(APP_OUTPUT_KEYS.adminUserPoolId);
      const merchants = await listMerchants({ client: aws.cognito, userPoolId: pool });
      const enabled = merchants.filter((merchant) => merchant.enabled);
      if (enabled.length === 0)
        throw new CheckFailure(
          `Nobody can sign in to /admin: the ${MERCHANTS_GROUP} group of user pool ${pool} has no enabled user. Run ${setupCommand} to create the merchant (or npm run orders -- merchant add EMAIL --stage ${stage.stage}).`,
        );
      return `${enabled.length} merchant${enabled.length === 1 ? '' : 's'} may sign in to /admin`;
    },
  },
  {
    name: 'Test checkout',
    async run({ deps, livemode, shopMode, text, apiPath, get, stripe }) {
      if (livemode) return 'skipped in live mode (a checkout would hold real bottles)';
      // A paused shop refuses checkouts by design, and one taking requests would record one.
      if (shopMode !== undefined && shopMode !== 'open') return `skipped: the shop is ${shopMode}`;
      const quote = quoteOrder(3);
      const publicKey = text('publicApiKey');
      const response = await get(apiPath(PUBLIC_API_ROUTES.createCheckout.path), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(publicKey !== undefined && { authorization: `Bearer ${publicKey}` }),
        },
        body: JSON.stringify({
          name: 'Doctor Check',
          email: text('merchantEmail') ?? '',
          address: '1 Pond Lane\nBristol',
          postcode: 'BS1 4DJ',
          quantity: 3,
          subtotal: penceToPounds(quote.subtotalPence),
          shipping: penceToPounds(quote.shippingPence),
          total: penceToPounds(quote.totalPence),
        }),
      });
      const body: unknown = await response.json().catch(() => undefined);
      const answer = createCheckoutResponseSchema.safeParse(body);
      if (response.status !== 200 || !answer.success || !('url' in answer.data)) {
        const said = errorBodySchema.safeParse(body);
        throw new CheckFailure(
          `create-checkout answered ${response.status}${said.success ? ` "${said.data.error}"` : ''} instead of a Stripe payment page${response.status === 401 ? ': the public key did not reach the API (CloudFront must forward Authorization)' : ''}. Read the CreateCheckout function's log.`,
        );
      }
      if (!answer.data.url.startsWith(`${deps.checkoutOrigin}/`))
        throw new CheckFailure(
          `create-checkout answered with ${new URL(answer.data.url).origin}, not a Stripe payment page (${deps.checkoutOrigin}).`,
        );
      // Closed at once, so its hold on the dispatch day's bottles is given back.
      await (await stripe()).checkout.sessions.expire(answer.data.sessionId);
      return `create-checkout opens a Stripe payment page (test session ${answer.data.sessionId}, expired again)`;
    },
  },
];

const claimsSchema = z.object({
  trialRunNotice: STAGE_SETTINGS.trialRunNotice,
  promotionReferencePence: STAGE_SETTINGS.promotionReferencePence,
  promotionWording: STAGE_SETTINGS.promotionWording,
});

/** The claims the stage's block gives (the spec's where it sets none), checked as synthesis checks them. */
function claimsOfStage(settings: StageBlock, stage: string): SellerClaims {
  const parsed = claimsSchema.safeParse(settings);
  if (!parsed.success)
    throw new CheckFailure(
      `cdk.json's stage ${stage}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}. Correct it with npm run setup -- --stage ${stage}.`,
    );
  return sellerClaimsOf(parsed.data);
}

/** A prerendered page's text as a reader sees it: React's text separators gone, entities read. */
function pageText(html: string): string {
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'", '#39': "'" };
  return html
    .replaceAll('<!-- -->', '')
    .replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, name: string) => entities[name] ?? '');
}

function missingClaims(page: string, claims: SellerClaims): string[] {
  const missing: string[] = [];
  if (claims.trialRunNotice !== undefined && !page.includes(claims.trialRunNotice))
    missing.push(`the trial-run sentence "${claims.trialRunNotice}"`);
  const { promotion } = claims;
  // The reference price as the struck-through element ends: `<s …>£12.00</s>`.
  if (
    promotion !== undefined &&
    !(page.includes(promotion.wording) && page.includes(`${formatGbp(promotion.referencePence)}</s>`))
  )
    missing.push(
      `the promotion "${promotion.wording}" against ${formatGbp(promotion.referencePence)} struck through`,
    );
  return missing;
}

function describeClaims({ trialRunNotice, promotion }: SellerClaims): string {
  return [
    trialRunNotice === undefined ? 'no trial-run sentence' : `trial-run sentence "${trialRunNotice}"`,
    promotion === undefined
      ? 'no promotion'
      : `promotion "${promotion.wording}" against ${formatGbp(promotion.referencePence)} struck through`,
  ].join('; ');
}

/** Runs each check on its own: one failing never hides another. */
export async function runChecks<Context>(
  checks: readonly Check<Context>[],
  context: Context,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const { name, run } of checks) {
    try {
      results.push({ name, ok: true, detail: await run(context) });
    } catch (error) {
      const known = error instanceof CheckFailure || error instanceof RefusedError;
      results.push({
        name,
        ok: false,
        detail: known
          ? error.message
          : `could not check: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
      });
    }
  }
  return results;
}

/** Whether all passed. */
export function printChecks(results: readonly CheckResult[], out: (line: string) => void): boolean {
  for (const { name, ok, detail } of results) out(`  ${ok ? '✓' : '✗'} ${name}: ${detail}`);
  const failed = results.filter(({ ok }) => !ok).length;
  out(
    failed === 0
      ? `All ${results.length} checks pass.`
      : `${failed} of ${results.length} checks fail: fix what each ✗ line says, then run the checks again.`,
  );
  return failed === 0;
}

export interface DoctorCommandDeps extends Omit<DoctorDeps, 'aws'> {
  out: (line: string) => void;
  env: Readonly<Record<string, string | undefined>>;
  aws: (region: string) => StageAwsClients;
  cdkJsonPath: string;
}

const DOCTOR_USAGE = [
  'Usage: npm run doctor -- --stage NAME [--region R]',
  '',
  'Checks a deployed stage: its stack, secrets, webhook endpoint, email identity and alarms, each',
  'with the step that fixes it. Exit code 0 only when every check passes. Uses your AWS credentials.',
  '',
  '  --stage NAME  the stage, as set up with npm run setup',
  "  --region R    AWS region (default: the stage's, AWS_REGION, or eu-west-2)",
  '  --help        this text',
];

export async function runDoctor(args: readonly string[], deps: DoctorCommandDeps): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    for (const line of DOCTOR_USAGE) deps.out(line);
    return 0;
  }
  try {
    const { values } = parseArgs({
      args: [...args],
      strict: true,
      options: { stage: { type: 'string' }, region: { type: 'string' } },
    });
    const stage = values.stage;
    if (stage === undefined) throw new RefusedError('Give the stage: npm run doctor -- --stage NAME.');
    const settings = readStageBlock(deps.cdkJsonPath, stage);
    if (settings === undefined)
      throw new RefusedError(
        `cdk.json has no stage ${stage}: set it up first (npm run setup -- --stage ${stage}).`,
      );
    const region = stageRegion(deps.env, values.region, settings.region);
    const aws = deps.aws(region);
    const outputs = await readStageOutputs(aws.cloudFormation(region), stage);
    if (outputs === undefined)
      throw new RefusedError(
        `Stage ${stage} is not deployed in ${region} (no stack LiveAquatics-${stage}): run npm run setup -- --stage ${stage}.`,
      );
    deps.out(`Checking stage ${stage} in ${region}:`);
    const results = await runDoctorChecks({ stage, region, outputs, settings }, { ...deps, aws });
    return printChecks(results, deps.out) ? 0 : 1;
  } catch (error) {
    deps.out(`✗ ${operatorMessage(error)}`);
    return 1;
  }
}
