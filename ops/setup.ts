import { parseArgs } from 'node:util';
import { DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetIdentityDkimAttributesCommand } from '@aws-sdk/client-ses';
import { GetAccountCommand } from '@aws-sdk/client-sesv2';
import { GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import Stripe from 'stripe';
import webPush from 'web-push';
import type * as z from 'zod/mini';
import { readShopSettings, writeShopSettings } from '../lambdas/domain/storage/settings-store';
import { VAPID_SECRET_JSON_KEYS } from '../shared/merchant-push';
import { formatGbp } from '../shared/pricing';
import { RefusedError } from '../shared/refusal';
import {
  DEFAULT_PROMOTION_REFERENCE_PENCE,
  DEFAULT_PROMOTION_WORDING,
  DEFAULT_TRIAL_RUN_NOTICE,
  PROMOTION_PRICE_PENCE,
} from '../shared/seller-claims';
import { APP_OUTPUT_KEYS, SECRET_OUTPUT_KEYS } from '../shared/stack-outputs';
import {
  AWS_REGION_PATTERN,
  PLACEHOLDER_STAGES,
  SES_IDENTITY_MODES,
  STAGE_NAME_PATTERN,
  STAGE_SETTINGS,
  stageSettingsSchema,
} from '../shared/stage-config';
import {
  type DoctorCommandDeps,
  printChecks,
  runChecks,
  runDoctorChecks,
  SES_READINESS_CHECKS,
  senderIdentity,
  storedForecastKeySchema,
  storedKeySchema,
  storedWebhookSchema,
} from './doctor';
import { addMerchant } from './merchant-accounts';
import {
  operatorMessage,
  putSecretDocumentIfChanged,
  readSecretDocument,
  readStageOutputs,
  type StageAwsClients,
} from './stage-aws';
import { readStageBlock, type StageBlock, stageRegion, writeStageBlock } from './stage-file';
import {
  checkKeyPermissions,
  type EndpointOutcome,
  ensureWebhookEndpoint,
  type StripeKeyRole,
  stripeKeyFacts,
} from './stripe-account';

// `npm run setup`: everything is checked before anything changes; each step then changes only what
// differs, so a second run changes nothing and says so. No secret is ever printed.

/** Asks the operator one question; the answer, or the default when they just press Enter. */
export type Prompter = (question: string, options: { default?: string; secret?: boolean }) => Promise<string>;

export interface SetupDeps extends DoctorCommandDeps {
  nodeVersion: string;
  /** Runs the CDK CLI (`npx cdk …`) in the repository with the terminal attached; its exit code. */
  runCdk: (args: readonly string[]) => Promise<number>;
  /** Asks for what the flags do not give; absent (or with --yes) nothing is asked. */
  prompt?: Prompter | undefined;
}

/** Node.js versions setup runs on: package.json's engines. */
const MIN_NODE = [20, 19] as const;

/** Settings setup asks for, in the order asked: flag, cdk.json key, question. */
const SETTING_QUESTIONS = [
  ['shop-name', 'shopName', 'Shop name, as customers know it'],
  ['seller-name', 'sellerName', 'Seller (trading or company name)'],
  ['seller-address', 'sellerAddress', "Seller's geographic address"],
  ['seller-email', 'sellerEmail', 'Address customers write to'],
  ['sender-email', 'senderEmail', 'From address of the shop’s emails'],
  ['merchant-email', 'merchantEmail', 'Address that gets a notice per order'],
  ['alarm-email', 'alarmEmail', 'Address that gets alarms'],
  ['ses-identity', 'sesIdentity', 'SES identity to create (domain, address or existing)'],
] as const;

/** The seller's claims (shared/seller-claims.ts): flag, cdk.json key, question, the spec's text. */
const CLAIM_QUESTIONS = [
  [
    'trial-run-notice',
    'trialRunNotice',
    'Trial-run sentence on the order page ("off" for none)',
    DEFAULT_TRIAL_RUN_NOTICE,
  ],
  [
    'promotion-reference-pence',
    'promotionReferencePence',
    'Promotion: struck-through reference price in pence, one you genuinely charged for a reasonable period ("off" for no promotion)',
    String(DEFAULT_PROMOTION_REFERENCE_PENCE),
  ],
  [
    'promotion-wording',
    'promotionWording',
    `Promotion wording, stating the ${formatGbp(PROMOTION_PRICE_PENCE)} charged`,
    DEFAULT_PROMOTION_WORDING,
  ],
] as const;

const SETTING_DEFAULTS: Record<string, string | undefined> = {
  shopName: 'Live Aquatics',
  sesIdentity: 'domain',
};

/** The keys' questions: flag, environment variable, question. */
const KEY_QUESTIONS: Record<StripeKeyRole, [flag: string, variable: string, question: string]> = {
  account: ['stripe-key', 'STRIPE_SECRET_KEY', 'Stripe secret key (registers the webhook; not stored)'],
  checkout: ['checkout-key', 'STRIPE_CHECKOUT_KEY', 'Checkout key (restricted: Checkout Sessions Write)'],
  fulfilment: [
    'fulfilment-key',
    'STRIPE_FULFILMENT_KEY',
    'Fulfilment key (restricted: Checkout Sessions Write, Refunds Write, PaymentIntents Read, Charges Read, Webhook Endpoints Read)',
  ],
};

/** Open-Meteo's key: flag, environment variable, question. Optional: empty means the free endpoint. */
const FORECAST_KEY_QUESTION = [
  'open-meteo-key',
  'OPEN_METEO_API_KEY',
  'Open-Meteo API key (commercial use; empty: the free endpoint, for non-commercial use only)',
] as const;

/** Exit code 0 once the stage is set up, though the final checks may fail (DNS not yet added). */
export async function runSetup(args: readonly string[], deps: SetupDeps): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    for (const line of setupUsage()) deps.out(line);
    return 0;
  }
  try {
    await setUp(args, deps);
    return 0;
  } catch (error) {
    deps.out(`✗ ${operatorMessage(error)}`);
    deps.out('Nothing after this point was changed.');
    return 1;
  }
}

function setupUsage(): string[] {
  return [
    'Usage: npm run setup -- --stage NAME [--region R] [--yes] [flags]',
    '',
    'Sets up and deploys a stage: checks the tools and accounts, asks for what the flags do not',
    'give, stores the Stripe keys as secrets, writes the stage to cdk.json, runs cdk deploy and',
    'registers the webhook. Run it again to change a setting; docs/deploy.md walks through it.',
    '',
    '  --stage NAME            the stage (lower-case letters, digits, dashes; e.g. prod)',
    "  --region R              AWS region (default: the stage's, AWS_REGION, or eu-west-2)",
    '  --yes                   ask nothing: take flags, environment and defaults',
    '  --open-anyway           open the shop though SES cannot yet email customers (kept paused otherwise)',
    '  --merchant-login EMAIL  the merchant who signs in to /admin',
    ...[...SETTING_QUESTIONS, ...CLAIM_QUESTIONS].map(
      ([flag, , question]) => `  --${flag.padEnd(22)}${question}`,
    ),
    ...[...Object.values(KEY_QUESTIONS), FORECAST_KEY_QUESTION].map(
      ([flag, variable, question]) => `  --${flag.padEnd(22)}${question}; or ${variable}`,
    ),
    '  --help                  this text',
  ];
}

type StageOutputs = { get(key: string): string };

/** One run as its steps see it; what a step finds is set by it (`found` refuses a read too early). */
interface SetupRun {
  deps: SetupDeps;
  out: (line: string) => void;
  stage: string;
  region: string;
  aws: StageAwsClients;
  /** Whether the operator is asked (not --yes, and a prompt at hand): cdk deploy asks too then. */
  asks: boolean;
  openAnyway: boolean;
  flag(name: string): string | undefined;
  /** The flag's value, else the operator's answer, else the fallback; refused when there is none. */
  answer(name: string, question: string, fallback: string | undefined, secret?: boolean): Promise<string>;
  existing: StageBlock;
  settings: Record<string, unknown>;
  changes: ChangeLog;
  /** The stage's outputs before this run's deploy (what an earlier run stored), and after it. */
  deployed: StageOutputs | undefined;
  outputs: StageOutputs | undefined;
  account: string;
  keys: { checkout: string; fulfilment: string; forecast: string };
  livemode: boolean;
  accountStripe: Stripe | undefined;
  unbootstrapped: string[];
  /** "example.com verified" once SES has verified the sender's domain or address. */
  sesVerified: string | undefined;
  endpoint: EndpointOutcome | undefined;
}

export interface SetupStep {
  name: string;
  when?: (run: SetupRun) => boolean;
  run: (run: SetupRun) => Promise<void>;
}

async function setUp(args: readonly string[], deps: SetupDeps): Promise<void> {
  const run = startRun(args, deps);
  run.out(`Setting up stage ${run.stage} in ${run.region}.`);
  run.out('');
  run.out('Checks before anything changes:');
  await runSteps(SETUP_CHECKS, run);
  run.out('');
  run.out('Changes:');
  await runSteps(SETUP_CHANGES, run);
  await reportStage(run);
}

async function runSteps(steps: readonly SetupStep[], run: SetupRun): Promise<void> {
  for (const step of steps) if (step.when?.(run) ?? true) await step.run(run);
}

function startRun(args: readonly string[], deps: SetupDeps): SetupRun {
  const values = setupFlags(args);
  const flag = (name: string): string | undefined => {
    const value: unknown = values[name as keyof typeof values];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  const stage = flag('stage');
  if (stage === undefined || !STAGE_NAME_PATTERN.test(stage))
    throw new RefusedError(
      'Give the stage: npm run setup -- --stage NAME (lower-case letters, digits, dashes; e.g. prod).',
    );
  const ask = values.yes ? undefined : deps.prompt;
  const answer = async (name: string, question: string, fallback: string | undefined, secret = false) => {
    const given = flag(name);
    if (given !== undefined) return given;
    if (ask !== undefined) {
      const typed = (
        await ask(question, { ...(fallback !== undefined && { default: fallback }), secret })
      ).trim();
      if (typed !== '') return typed;
    }
    if (fallback !== undefined) return fallback;
    throw new RefusedError(
      `--${name} is needed (${question}): give it${ask === undefined ? ', or run without --yes to be asked' : ''}.`,
    );
  };
  const existing = readStageBlock(deps.cdkJsonPath, stage) ?? {};
  const region = stageRegion(deps.env, flag('region'), existing.region);
  if (!AWS_REGION_PATTERN.test(region))
    throw new RefusedError(`${region} is not an AWS region (for example eu-west-2): give --region.`);
  return {
    deps,
    out: deps.out,
    stage,
    region,
    aws: deps.aws(region),
    asks: ask !== undefined,
    openAnyway: values['open-anyway'],
    flag,
    answer,
    existing,
    settings: { ...existing },
    changes: changeLog(deps.out),
    deployed: undefined,
    outputs: undefined,
    account: '',
    keys: { checkout: '', fulfilment: '', forecast: '' },
    livemode: false,
    accountStripe: undefined,
    unbootstrapped: [],
    sesVerified: undefined,
    endpoint: undefined,
  };
}

function setupFlags(args: readonly string[]) {
  const asked = [
    ...SETTING_QUESTIONS,
    ...CLAIM_QUESTIONS,
    ...Object.values(KEY_QUESTIONS),
    FORECAST_KEY_QUESTION,
  ];
  return parseArgs({
    args: [...args],
    strict: true,
    options: {
      stage: { type: 'string' },
      region: { type: 'string' },
      yes: { type: 'boolean', default: false },
      'open-anyway': { type: 'boolean', default: false },
      'merchant-login': { type: 'string' },
      ...Object.fromEntries(asked.map(([flag]) => [flag, { type: 'string' as const }])),
    },
  }).values;
}

/** A value an earlier step finds: read before it, setup's steps are out of order (a bug, not a refusal). */
function found<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`setup read ${what} before the step that finds it`);
  return value;
}

function senderOf(settings: Record<string, unknown>): string {
  return textOf(settings.senderEmail) ?? '';
}

/** What an earlier run stored in the output's secret: keys are asked again only to change them. */
async function storedSecret<T>(
  run: SetupRun,
  output: string,
  schema: z.ZodMiniType<T>,
): Promise<T | undefined> {
  if (run.deployed === undefined) return undefined;
  return schema.safeParse(await readSecretDocument(run.aws.secretsManager, run.deployed.get(output))).data;
}

const SETUP_CHECKS: readonly SetupStep[] = [
  {
    name: 'Node.js version',
    async run({ deps, out }) {
      const [major = 0, minor = 0] = deps.nodeVersion.replace(/^v/, '').split('.').map(Number);
      if (major < MIN_NODE[0] || (major === MIN_NODE[0] && minor < MIN_NODE[1]))
        throw new RefusedError(
          `Node.js ${deps.nodeVersion} is too old: install Node.js 20.19 or later (22 or 24 recommended).`,
        );
      out(`  ✓ Node.js ${deps.nodeVersion.replace(/^v/, '')}`);
    },
  },
  {
    name: 'AWS credentials, account and region',
    async run(run) {
      try {
        const identity = await run.aws.sts.send(new GetCallerIdentityCommand({}));
        run.account = identity.Account ?? '';
        run.out(`  ✓ AWS credentials: account ${run.account} (${identity.Arn ?? 'unknown principal'})`);
      } catch (error) {
        throw new RefusedError(
          `No working AWS credentials (${error instanceof Error ? error.message : String(error)}): sign in first (for example aws sso login --profile shop, then export AWS_PROFILE=shop) and run setup again.`,
        );
      }
      const pinned = textOf(run.existing.account);
      if (pinned !== undefined && pinned !== run.account)
        throw new RefusedError(
          `Stage ${run.stage} belongs to account ${pinned} (cdk.json), but these credentials are of ${run.account}: sign in to ${pinned}.`,
        );
      run.out(`  ✓ Region ${run.region}`);
    },
  },
  {
    name: 'What an earlier run deployed',
    async run(run) {
      run.deployed = await readStageOutputs(run.aws.cloudFormation(run.region), run.stage);
    },
  },
  {
    name: 'Shop, seller and their claims',
    async run({ existing, settings, answer }) {
      for (const [name, key, question] of SETTING_QUESTIONS) {
        const fallback =
          textOf(existing[key]) ??
          (key === 'alarmEmail' ? textOf(settings.merchantEmail) : SETTING_DEFAULTS[key]);
        settings[key] = await answer(name, question, fallback);
      }
      await askClaims(settings, existing, answer);
    },
  },
  {
    name: 'Stripe keys',
    async run(run) {
      const askKey = (role: StripeKeyRole, fallback: string | undefined) => {
        const [name, variable, question] = KEY_QUESTIONS[role];
        return run.answer(name, question, run.deps.env[variable] ?? fallback, true);
      };
      // The functions' keys default only to what an earlier run stored, never to setup's own key:
      // that may be the account's unrestricted secret key (stripeKeyFacts refuses one for them).
      const storedKey = async (output: string) =>
        (await storedSecret(run, output, storedKeySchema))?.stripeSecretKey;
      const account = await askKey('account', undefined);
      run.keys.checkout = await askKey('checkout', await storedKey(SECRET_OUTPUT_KEYS.checkoutKey));
      run.keys.fulfilment = await askKey('fulfilment', await storedKey(SECRET_OUTPUT_KEYS.fulfilmentKey));
      const roles: Array<[StripeKeyRole, string]> = [
        ['account', account],
        ['checkout', run.keys.checkout],
        ['fulfilment', run.keys.fulfilment],
      ];
      ({ livemode: run.livemode, accountStripe: run.accountStripe } = await checkStripeKeys(roles, run.deps));
    },
  },
  {
    name: 'Stripe Bacs Direct Debit',
    run: (run) => checkBacsDebit(found(run.accountStripe, 'the Stripe account'), run.out),
  },
  {
    name: 'Open-Meteo key',
    async run(run) {
      // Optional, so it defaults to what an earlier run stored, else to none: the free endpoint. A stage
      // deployed before the key's secret existed has nothing stored yet; the deploy adds it.
      const stored = await storedSecret(run, SECRET_OUTPUT_KEYS.forecastKey, storedForecastKeySchema).catch(
        () => undefined,
      );
      const [flag, variable, question] = FORECAST_KEY_QUESTION;
      const fallback = run.deps.env[variable] ?? stored?.openMeteoApiKey ?? '';
      run.keys.forecast = await run.answer(flag, question, fallback, true);
      run.out(
        run.keys.forecast === ''
          ? '  ✓ Open-Meteo: no key, so the weather check uses the free endpoint (api.open-meteo.com), which is for non-commercial use only: give --open-meteo-key once the shop trades'
          : '  ✓ Open-Meteo: commercial key given (the weather check asks customer-api.open-meteo.com)',
      );
    },
  },
  { name: 'CDK bootstrap', run: checkBootstrap },
  {
    name: 'SES',
    async run(run) {
      const { domain, verified } = await senderIdentity(run.aws, senderOf(run.settings));
      const production =
        (await run.aws.sesv2.send(new GetAccountCommand({}))).ProductionAccessEnabled === true;
      run.sesVerified = verified && `${verified} verified`;
      run.out(
        `  ✓ SES in ${run.region}: ${run.sesVerified ?? `${domain} not verified yet (the records to add are printed at the end)`}; ${production ? 'out of the sandbox' : 'in the sandbox: request production access (SES console → Account dashboard) before the shop opens'}`,
      );
      // Cognito refuses a pool whose sender is not verified, and in the sandbox SES would drop an
      // invitation to an address not yet verified: the shop's sender only once both hold (infra's cognitoSenderIdentity).
      if (verified !== undefined && production) run.settings.cognitoSenderIdentity = verified;
    },
  },
  {
    name: "The stage's settings as a whole",
    async run({ stage, settings, account, region, livemode }) {
      // Checked as the CDK app checks it, so a bad answer stops here rather than half-way through a deploy.
      Object.assign(settings, { account, region, stripeLivemode: livemode });
      const checked = stageSettingsSchema.safeParse(settings);
      const sesMode = textOf(settings.sesIdentity);
      const problems = [
        ...(checked.success
          ? []
          : checked.error.issues.map((issue) => `${issue.path.map(String).join('.')}: ${issue.message}`)),
        ...(sesMode === undefined || (SES_IDENTITY_MODES as readonly string[]).includes(sesMode)
          ? []
          : [`sesIdentity: expected ${SES_IDENTITY_MODES.join(', ')}`]),
      ];
      if (problems.length > 0)
        throw new RefusedError(`Stage ${stage}'s settings are not usable: ${problems.join('; ')}.`);
    },
  },
];

const SETUP_CHANGES: readonly SetupStep[] = [
  {
    name: 'cdk.json',
    async run({ deps, stage, settings, changes, livemode, account, region }) {
      const written = writeStageBlock(deps.cdkJsonPath, stage, settings);
      if (written === 'unchanged') changes.same(`cdk.json: stage ${stage} already as given`);
      else
        changes.made(
          `cdk.json: stage ${stage} ${written} (${livemode ? 'live' : 'test'} mode, account ${account}, ${region})`,
          `cdk.json ${written}`,
        );
    },
  },
  {
    name: 'CDK bootstrap',
    when: (run) => run.unbootstrapped.length > 0,
    async run({ deps, account, unbootstrapped, changes }) {
      const environments = unbootstrapped.map((at) => `aws://${account}/${at}`);
      await cdk(deps, ['bootstrap', '--no-notices', ...environments], 'bootstrap');
      changes.summary.push(`bootstrapped ${unbootstrapped.join(' and ')}`);
    },
  },
  {
    name: 'cdk deploy',
    async run(run) {
      // CDK itself changes nothing when the stacks are as built; it lists what it changed otherwise.
      const approval = run.asks ? 'broadening' : 'never';
      const args = [
        'deploy',
        '--all',
        '-c',
        `stage=${run.stage}`,
        '--no-notices',
        '--require-approval',
        approval,
      ];
      await cdk(run.deps, args, 'deploy');
      run.outputs = await readStageOutputs(run.aws.cloudFormation(run.region), run.stage);
      if (run.outputs === undefined)
        throw new RefusedError(
          `cdk deploy finished, but the stacks of stage ${run.stage} are not in ${run.region}: read the deploy's output above.`,
        );
    },
  },
  { name: 'Shop open once its emails go out', run: openWhenEmailsGoOut },
  { name: 'Stripe webhook endpoint', run: registerWebhook },
  { name: 'Secrets', run: storeSecrets },
  { name: 'VAPID key pair', run: makeVapidKeys },
  {
    name: 'Merchant',
    async run({ flag, settings, aws, outputs, changes }) {
      const merchantLogin = flag('merchant-login') ?? textOf(settings.merchantEmail) ?? '';
      const added = await addMerchant(merchantLogin, {
        client: aws.cognito,
        userPoolId: found(outputs, 'the outputs').get(APP_OUTPUT_KEYS.adminUserPoolId),
      });
      if (added.invited)
        changes.made(
          `Merchant ${merchantLogin} created (Cognito emails a temporary password to that address)`,
          'merchant created',
        );
      else if (added.addedToGroup)
        changes.made(
          `Merchant ${merchantLogin} added to the merchants group`,
          'merchant added to the merchants group',
        );
      else changes.same(`Merchant ${merchantLogin}: may already sign in to /admin`);
    },
  },
];

async function reportStage(run: SetupRun): Promise<void> {
  const { out, stage, region, settings, aws, changes } = run;
  const outputs = found(run.outputs, 'the outputs');
  out('');
  const records = await dnsRecords(run, outputs);
  if (records.length === 0) out('DNS records to add: none.');
  else {
    out('DNS records to add at your DNS provider (SES checks them by itself; allow up to 72 hours):');
    for (const record of records) out(`  ${record}`);
  }
  out('');
  out(`Checks of the deployed stage (npm run doctor -- --stage ${stage}):`);
  const results = await runDoctorChecks({ stage, region, outputs, settings }, { ...run.deps, aws });
  printChecks(results, out);
  out('');
  out(
    changes.summary.length === 0
      ? `Nothing changed: stage ${stage} was already set up as given.`
      : `Stage ${stage} set up: ${changes.summary.join(', ')}.`,
  );
}

/** Checked at once with the stage's schema, so a reference price at or below the price stops here. */
async function askClaims(
  settings: Record<string, unknown>,
  existing: StageBlock,
  answer: (name: string, question: string, fallback: string | undefined) => Promise<string>,
): Promise<void> {
  for (const [name, key, question, specText] of CLAIM_QUESTIONS) {
    // Without a promotion its wording is never shown: not asked, kept as it was.
    if (key === 'promotionWording' && settings.promotionReferencePence === false) continue;
    const current = existing[key];
    const offered =
      current === false
        ? 'off'
        : typeof current === 'number'
          ? String(current)
          : (textOf(current) ?? specText);
    const given = await answer(name, question, offered);
    const value = /^(off|false)$/i.test(given)
      ? false
      : key === 'promotionReferencePence' && /^\d+$/.test(given)
        ? Number(given)
        : given;
    const checked = STAGE_SETTINGS[key].safeParse(value);
    if (!checked.success)
      throw new RefusedError(`--${name}: ${checked.error.issues.map((issue) => issue.message).join('; ')}.`);
    settings[key] = value;
  }
}

/** What a run changed: each change printed `+` (or `-`), each part left alone `=`, and a summary. */
interface ChangeLog {
  made(line: string, summary: string, mark?: '+' | '-'): void;
  same(line: string): void;
  summary: string[];
}

function changeLog(out: (line: string) => void): ChangeLog {
  const summary: string[] = [];
  return {
    made(line, what, mark = '+') {
      out(`  ${mark} ${line}`);
      summary.push(what);
    },
    same(line) {
      out(`  = ${line}`);
    },
    summary,
  };
}

/** The three keys must share one mode and each have its permissions, asked of Stripe. */
async function checkStripeKeys(
  keys: ReadonlyArray<[StripeKeyRole, string]>,
  deps: SetupDeps,
): Promise<{ livemode: boolean; accountStripe: Stripe }> {
  const facts = keys.map(([role, key]) => ({ role, key, ...stripeKeyFacts(key, role) }));
  const modes = new Set(facts.map(({ mode }) => mode));
  if (modes.size > 1)
    throw new RefusedError(
      `The Stripe keys are of different modes (${facts.map(({ role, mode }) => `${role}: ${mode}`).join(', ')}): give three keys of one mode.`,
    );
  let accountStripe: Stripe | undefined;
  for (const { role, key, kind, mode } of facts) {
    const client = deps.stripe(key);
    await checkKeyPermissions(client, role, { kind, mode });
    if (role === 'account') accountStripe = client;
  }
  if (accountStripe === undefined) throw new Error('setup is given no account key');
  const livemode = modes.has('live');
  deps.out(
    `  ✓ Stripe ${livemode ? 'LIVE' : 'test'} mode: ${facts.map(({ role, kind }) => `${role} key (${kind})`).join(', ')}, each with the permissions it needs`,
  );
  return { livemode, accountStripe };
}

/** Never a refusal: without Bacs Direct Debit the shop sells by card. */
async function checkBacsDebit(stripe: Stripe, out: (line: string) => void): Promise<void> {
  const howToTurnOn =
    'turn it on in the Stripe Dashboard (Settings → Payments → Payment methods → Bacs Direct Debit; docs/deploy.md)';
  let status: string;
  try {
    status = (await stripe.accounts.retrieve(null)).capabilities?.bacs_debit_payments ?? 'not requested';
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeError)) throw error;
    out(
      `  ! Stripe Bacs Direct Debit: could not ask Stripe (${error.message}); if it is not on, the checkout offers cards only: ${howToTurnOn}`,
    );
    return;
  }
  // Checkout takes the account's own payment methods (no payment_method_types), so without Bacs it offers cards only.
  out(
    status === 'active'
      ? '  ✓ Stripe Bacs Direct Debit: active (customers may pay by card or Direct Debit)'
      : `  ! Stripe Bacs Direct Debit: ${status}, so the checkout offers cards only; to offer Direct Debit, ${howToTurnOn}`,
  );
}

/** The stage's region, and us-east-1 when the WAF is on, each needs a CDK bootstrap stack. */
async function checkBootstrap(run: SetupRun): Promise<void> {
  const { aws, region, stage, settings } = run;
  const waf =
    settings.waf === undefined
      ? !PLACEHOLDER_STAGES.includes(stage)
      : settings.waf === true || settings.waf === 'true';
  const regions = waf && region !== 'us-east-1' ? [region, 'us-east-1'] : [region];
  const missing: string[] = [];
  for (const at of regions) {
    try {
      await aws.cloudFormation(at).send(new DescribeStacksCommand({ StackName: 'CDKToolkit' }));
    } catch (error) {
      if (!(error instanceof Error && error.name === 'ValidationError')) throw error;
      missing.push(at);
    }
  }
  run.out(
    missing.length === 0
      ? `  ✓ CDK bootstrap: done in ${regions.join(' and ')}`
      : `  ✓ CDK bootstrap: ${missing.join(' and ')} not yet (setup bootstraps ${missing.length === 1 ? 'it' : 'them'})`,
  );
  run.unbootstrapped = missing;
}

/** Setup opens only a shop paused with exactly this message: any other pause is the merchant's. */
const OPENING_SOON_MESSAGE = 'Opening soon: we are getting ready to take orders.';

/** Paused while SES cannot email customers: a paid order with no confirmation is worse than a day's wait. */
async function openWhenEmailsGoOut(run: SetupRun): Promise<void> {
  const { region, aws, deps, changes } = run;
  const ses = { region, sender: senderOf(run.settings), aws };
  const failing = (await runChecks(SES_READINESS_CHECKS, ses)).filter(({ ok }) => !ok);
  const tableName = found(run.outputs, 'the outputs').get(APP_OUTPUT_KEYS.ordersTableName);
  const table = { client: aws.dynamo, tableName };
  const shop = await readShopSettings(table, true);
  const pausedBySetup = shop.mode === 'paused' && shop.message === OPENING_SOON_MESSAGE;
  // Written directly rather than by pauseShop: a shop setup pauses has just been deployed or was
  // kept shut by setup, so it has no open Checkout Session to close.
  if (failing.length === 0 || run.openAnyway) {
    if (failing.length > 0)
      deps.out(
        `  ! --open-anyway: the shop takes orders though ${failing.map(({ name }) => name).join(' and ')} fail${failing.length === 1 ? 's' : ''}, so customers may get no email`,
      );
    if (pausedBySetup) {
      await writeShopSettings(table, { mode: 'open' }, deps.now());
      changes.made('Shop opened: it takes orders now', 'shop opened');
    } else changes.same(`Shop: ${shop.mode}${shop.mode === 'open' ? '' : ' (as the merchant set it)'}`);
    return;
  }
  const why = failing.map(({ name, detail }) => `    ${name}: ${detail}`);
  if (shop.mode === 'open') {
    await writeShopSettings(table, { mode: 'paused', message: OPENING_SOON_MESSAGE }, deps.now());
    changes.made(`Shop paused ("${OPENING_SOON_MESSAGE}"): it cannot email customers yet`, 'shop paused');
  } else changes.same(`Shop: stays ${shop.mode}: it cannot email customers yet`);
  for (const line of why) deps.out(line);
  deps.out(
    `    Once that is done, run npm run setup -- --stage ${run.stage} again to open the shop (or add --open-anyway to open it now).`,
  );
}

async function registerWebhook(run: SetupRun): Promise<void> {
  const { aws, deps, changes } = run;
  const outputs = found(run.outputs, 'the outputs');
  const stored = storedWebhookSchema.safeParse(
    await readSecretDocument(aws.secretsManager, outputs.get(SECRET_OUTPUT_KEYS.webhookSigningSecret)),
  );
  const url = outputs.get(APP_OUTPUT_KEYS.stripeWebhookUrl);
  const endpoint = await ensureWebhookEndpoint(found(run.accountStripe, 'the Stripe account'), {
    url,
    events: deps.events,
    description: `Live Aquatics (${run.stage})`,
    apiVersion: deps.apiVersion,
    knownId: stored.success ? stored.data.webhookEndpointId : undefined,
  });
  for (const { id, why } of endpoint.removed)
    changes.made(
      `Stripe webhook endpoint ${id} at the same URL removed (${why})`,
      `endpoint ${id} removed`,
      '-',
    );
  if (endpoint.action === 'unchanged')
    changes.same(
      `Stripe webhook endpoint ${endpoint.id}: already sends the ${deps.events.length} handled events to ${url}`,
    );
  else
    changes.made(
      `Stripe webhook endpoint ${endpoint.id} ${endpoint.action}: ${url}${endpoint.action === 'updated' && endpoint.movedFrom !== undefined ? ` (moved from ${endpoint.movedFrom})` : ''}, events ${deps.events.join(', ')}`,
      `webhook endpoint ${endpoint.action}`,
    );
  run.endpoint = endpoint;
}

/** In the layout the functions read (ADR 0010; the endpoint's id beside its secret, ADR 0029). */
async function storeSecrets({ outputs, aws, keys, endpoint: registered, changes }: SetupRun): Promise<void> {
  const endpoint = found(registered, 'the endpoint');
  const documents: Array<[string, string, Record<string, string> | undefined]> = [
    ['checkout key', SECRET_OUTPUT_KEYS.checkoutKey, { stripeSecretKey: keys.checkout }],
    ['fulfilment key', SECRET_OUTPUT_KEYS.fulfilmentKey, { stripeSecretKey: keys.fulfilment }],
    // Empty is stored too: "no key", which the functions read as the free endpoint.
    ['Open-Meteo key', SECRET_OUTPUT_KEYS.forecastKey, { openMeteoApiKey: keys.forecast }],
    [
      'webhook signing secret',
      SECRET_OUTPUT_KEYS.webhookSigningSecret,
      endpoint.action === 'created'
        ? { stripeWebhookSecret: endpoint.secret, webhookEndpointId: endpoint.id }
        : undefined,
    ],
  ];
  for (const [what, output, document] of documents) {
    const secretId = found(outputs, 'the outputs').get(output);
    if (document !== undefined && (await putSecretDocumentIfChanged(aws.secretsManager, secretId, document)))
      changes.made(`Secrets Manager: ${what} stored in ${secretId}`, `${what} stored`);
    else changes.same(`Secrets Manager: ${what} in ${secretId} already as given`);
  }
}

/** Made once and never replaced (ADR 0056): a new pair would silence every subscribed device. */
async function makeVapidKeys({ outputs, aws, changes }: SetupRun): Promise<void> {
  const secretId = found(outputs, 'the outputs').get(SECRET_OUTPUT_KEYS.vapidKey);
  const stored = await readSecretDocument(aws.secretsManager, secretId);
  const { publicKey, privateKey } = VAPID_SECRET_JSON_KEYS;
  if (textOf(stored?.[publicKey]) && textOf(stored?.[privateKey])) {
    changes.same(`Secrets Manager: VAPID key pair in ${secretId} already made`);
    return;
  }
  const pair = webPush.generateVAPIDKeys();
  await putSecretDocumentIfChanged(aws.secretsManager, secretId, {
    [publicKey]: pair.publicKey,
    [privateKey]: pair.privateKey,
  });
  changes.made(`Secrets Manager: VAPID key pair made and stored in ${secretId}`, 'VAPID key pair made');
}

async function cdk(deps: SetupDeps, args: string[], what: string): Promise<void> {
  deps.out(`  $ npx cdk ${args.join(' ')}`);
  const code = await deps.runCdk(args);
  if (code !== 0)
    throw new RefusedError(
      `cdk ${what} failed (exit code ${code}): read its output above, put it right and run setup again.`,
    );
}

/** DNS records to add by hand; none with a Route 53 zone, where the stack writes them. */
async function dnsRecords(
  { aws, settings, sesVerified }: SetupRun,
  outputs: StageOutputs,
): Promise<string[]> {
  const sender = senderOf(settings);
  const domain = sender.slice(sender.lastIndexOf('@') + 1);
  if (textOf(settings.hostedZoneId) !== undefined) return [];
  const records: string[] = [];
  const siteDomain = textOf(settings.domainName);
  if (siteDomain !== undefined)
    records.push(`${siteDomain}  CNAME  ${outputs.get(APP_OUTPUT_KEYS.distributionDomainName)}`);
  if (sesVerified !== undefined || (textOf(settings.sesIdentity) ?? 'domain') !== 'domain') return records;
  const { DkimAttributes = {} } = await aws.ses.send(
    new GetIdentityDkimAttributesCommand({ Identities: [domain] }),
  );
  return [
    ...records,
    ...(DkimAttributes[domain]?.DkimTokens ?? []).map(
      (token) => `${token}._domainkey.${domain}  CNAME  ${token}.dkim.amazonses.com`,
    ),
  ];
}

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}
