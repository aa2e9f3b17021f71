import { userInfo } from 'node:os';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { GetFunctionConfigurationCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { SESClient } from '@aws-sdk/client-ses';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import * as z from 'zod/mini';
import { shopEmailIdentity } from '../lambdas/domain/emails/send-email';
import type { ShopStripeDeps } from '../lambdas/domain/operations/shop-deps';
import { RefusedError } from '../lambdas/domain/refusal';
import type { ForecastSource } from '../lambdas/domain/weather/open-meteo';
import { postcodeInAddress } from '../lambdas/domain/weather/postcode-places';
import { createDocumentClient } from '../lambdas/lib/aws';
import { fulfilmentEnvSchema, type Env as LambdaEnv, parseEnv } from '../lambdas/lib/config';
import { createSesClient } from '../lambdas/lib/ses-client';
import { createStripeClient } from '../lambdas/lib/stripe';
import { LOCAL_STAGE_SETTINGS } from '../shared/stage-config';
import { readStackOutputs as describeStackOutputs } from './stage-aws';

/**
 * Where the operator's commands act, and the one module that knows how to find it: the local
 * stack of `npm start`, or a deployed stage found from its CloudFormation outputs with the
 * operator's own AWS credentials. Nothing else in ops/ knows a stack name, an output or a port.
 */
export interface Target {
  /** Printed before anything is done, so the operator sees which shop a command touches. */
  description: string;
  deps: ShopStripeDeps;
  /**
   * Who the orders' history names for this operator's actions: the AWS identity (its ARN) on a
   * deployed stage, "local operator (<user>)" on the local stack.
   */
  actor: string;
  /** Where the weather check's forecasts come from, and the postcode parcels leave from. */
  weather: { forecast: ForecastSource; dispatchPostcode: string | undefined };
  close(): void;
}

/** Past this the check says it could not see the forecast rather than wait (as the Lambdas do). */
const FORECAST_TIMEOUT_MS = 2000;

/** The local stack's fixed addresses (local/local-shop.ts); each can be moved by an environment variable. */
export const LOCAL_DEFAULTS = {
  region: 'eu-west-2',
  tableName: 'live-aquatics-orders',
  dynamoEndpoint: 'http://localhost:8000',
  sesEndpoint: 'http://localhost:8005',
  stripeApiBase: 'http://localhost:12111',
  siteUrl: 'http://localhost:3000',
  /** The Open-Meteo stand-in of `npm start` (local/forecast-stand-in.ts). */
  forecastUrl: 'http://localhost:4012',
  stripeSecretKey: 'sk_test_local_simulator',
} as const;

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The webhook function's settings that the commands reuse: its table, the stage's sender, seller,
 * merchant and cut-off, and the deployment marker, checked as the webhook checks them.
 */
const shopEnvSchema = z.pick(fulfilmentEnvSchema, {
  ORDERS_TABLE_NAME: true,
  SES_FROM_ADDRESS: true,
  SES_CONFIGURATION_SET: true,
  MERCHANT_EMAIL: true,
  SHOP_NAME: true,
  SELLER_NAME: true,
  SELLER_ADDRESS: true,
  SELLER_EMAIL: true,
  SELLER_COMPANY_NUMBER: true,
  SELLER_VAT_NUMBER: true,
  DISPATCH_CUTOFF_HOURS: true,
  SHOP_ID: true,
});

/**
 * What the commands take from the shop's settings, built as the Lambdas build it: the emails go
 * out through the shop's one sender (shopEmailIdentity), under the seller's name like the order
 * emails, and the cut-off has the Lambdas' limits.
 */
function shopSettingsDeps(ses: SESClient, env: LambdaEnv) {
  const settings = parseEnv(shopEnvSchema, env);
  return {
    tableName: settings.ORDERS_TABLE_NAME,
    ...shopEmailIdentity(ses, settings),
    merchantEmail: settings.MERCHANT_EMAIL,
    cutoffHours: settings.DISPATCH_CUTOFF_HOURS,
    shopId: settings.SHOP_ID,
  };
}

/**
 * The local stack: `npm start`'s stand-ins, or others named by ORDERS_LOCAL_* variables, with the
 * local stage's settings unless the variables local/local-shop.ts reads say otherwise.
 */
export function localTarget(env: Env, now: () => Date = () => new Date()): Target {
  const dynamo = env.ORDERS_LOCAL_DYNAMODB_ENDPOINT ?? LOCAL_DEFAULTS.dynamoEndpoint;
  const sesEndpoint = env.ORDERS_LOCAL_SES_ENDPOINT ?? LOCAL_DEFAULTS.sesEndpoint;
  const stripeBase = env.ORDERS_LOCAL_STRIPE_API_BASE ?? LOCAL_DEFAULTS.stripeApiBase;
  const client = createDocumentClient({ region: LOCAL_DEFAULTS.region, endpoint: dynamo });
  const ses = createSesClient({ region: LOCAL_DEFAULTS.region, endpoint: sesEndpoint });
  const { tableName, ...shop } = shopSettingsDeps(ses, {
    ORDERS_TABLE_NAME: env.ORDERS_LOCAL_TABLE ?? LOCAL_DEFAULTS.tableName,
    SES_FROM_ADDRESS: env.SES_FROM_ADDRESS ?? LOCAL_STAGE_SETTINGS.senderEmail,
    MERCHANT_EMAIL: env.MERCHANT_EMAIL ?? LOCAL_STAGE_SETTINGS.merchantEmail,
    SHOP_NAME: env.SHOP_NAME ?? LOCAL_STAGE_SETTINGS.shopName,
    SELLER_NAME: env.SELLER_NAME ?? LOCAL_STAGE_SETTINGS.sellerName,
    SELLER_ADDRESS: env.SELLER_ADDRESS ?? LOCAL_STAGE_SETTINGS.sellerAddress,
    SELLER_EMAIL: env.SELLER_EMAIL ?? LOCAL_STAGE_SETTINGS.sellerEmail,
    SELLER_COMPANY_NUMBER: env.SELLER_COMPANY_NUMBER,
    SELLER_VAT_NUMBER: env.SELLER_VAT_NUMBER,
    DISPATCH_CUTOFF_HOURS: env.DISPATCH_CUTOFF_HOURS,
    // As local/local-shop.ts sets it.
    SHOP_ID: env.SHOP_ID ?? 'LiveAquatics-local',
  });
  return {
    description: `local stack (DynamoDB ${dynamo}, table ${tableName}; SES ${sesEndpoint}; Stripe ${stripeBase})`,
    actor: `local operator (${env.USER ?? env.USERNAME ?? userInfo().username})`,
    weather: {
      forecast: {
        url: env.ORDERS_LOCAL_FORECAST_URL ?? LOCAL_DEFAULTS.forecastUrl,
        timeoutMs: FORECAST_TIMEOUT_MS,
      },
      dispatchPostcode: postcodeInAddress(shop.seller.address),
    },
    deps: {
      table: { client, tableName },
      ...shop,
      stripe: createStripeClient(env.STRIPE_SECRET_KEY ?? LOCAL_DEFAULTS.stripeSecretKey, {
        apiBase: stripeBase,
      }),
      siteUrl: env.ORDERS_LOCAL_SITE_URL ?? LOCAL_DEFAULTS.siteUrl,
      now,
    },
    close() {
      client.destroy();
      ses.destroy();
    },
  };
}

/** The stack of a stage, as infra names it. */
export function stackName(stage: string): string {
  return `LiveAquatics-${stage}`;
}

const STAGE_PATTERN = /^[a-z][a-z0-9-]{0,20}$/;

/** The fulfilment key's secret document: a secret (`sk_`) or restricted (`rk_`) key. */
const secretSchema = z.object({ stripeSecretKey: z.string().check(z.regex(/^(sk|rk)_(test|live)_/)) });

/** What a failed AWS call means for the operator, in a sentence they can act on. */
function explainAwsError(error: unknown, stack: string, region: string): never {
  const name = error instanceof Error ? error.name : '';
  if (
    name === 'CredentialsProviderError' ||
    /credential/i.test(error instanceof Error ? error.message : '')
  ) {
    throw new RefusedError(
      'No AWS credentials found. Sign in first (for example `aws sso login --profile shop` and `export AWS_PROFILE=shop`), then run the command again.',
      { cause: error },
    );
  }
  if (name === 'ValidationError') {
    throw new RefusedError(
      `No stack ${stack} in ${region} for these credentials: check --stage (and AWS_REGION / --region).`,
      { cause: error },
    );
  }
  if (name === 'AccessDeniedException' || name === 'AccessDenied') {
    throw new RefusedError(
      `Your AWS credentials may not read ${stack}: ${error instanceof Error ? error.message : ''}`,
      { cause: error },
    );
  }
  throw error;
}

/** A deployed stage's stack, read with the operator's credentials: its name, region and outputs. */
export interface StackOutputs {
  stack: string;
  region: string;
  /** The output's value; refuses when the stack has none (deployed before it existed). */
  output(key: string): string;
}

/**
 * The outputs of a stage's stack (CloudFormation DescribeStacks), the one way the commands find
 * a deployed stage's parts.
 * @throws RefusedError for a malformed stage, missing credentials, or no such stack.
 */
export async function readStackOutputs(options: {
  stage: string;
  region: string | undefined;
}): Promise<StackOutputs> {
  if (!STAGE_PATTERN.test(options.stage))
    throw new RefusedError(`"${options.stage}" is not a stage name (for example dev or prod).`);
  const region = options.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'eu-west-2';
  const stack = stackName(options.stage);
  const cloudFormation = new CloudFormationClient({ region });
  // The one DescribeStacks reader (setup and doctor read through it too); here a missing stack
  // or credentials become words the operator can act on.
  let found: Map<string, string> | undefined;
  try {
    found = await describeStackOutputs(cloudFormation, stack);
  } catch (error) {
    explainAwsError(error, stack, region);
  } finally {
    cloudFormation.destroy();
  }
  if (found === undefined) {
    throw new RefusedError(
      `No stack ${stack} in ${region} for these credentials: check --stage (and AWS_REGION / --region).`,
    );
  }
  const outputs = found;
  return {
    stack,
    region,
    output(key) {
      const value = outputs.get(key);
      if (!value)
        throw new RefusedError(`Stack ${stack} has no output ${key}: deploy the current version first.`);
      return value;
    },
  };
}

/**
 * A deployed stage: the stack's outputs name the table, the site and the Stripe secret, and the
 * webhook function's own environment gives the sender, seller details and merchant address, so
 * the commands' emails come from exactly where the shop's own emails do.
 */
export async function deployedTarget(
  options: { stage: string; region: string | undefined },
  now: () => Date = () => new Date(),
): Promise<Target> {
  const { stack, region, output } = await readStackOutputs(options);

  const lambda = new LambdaClient({ region });
  const secrets = new SecretsManagerClient({ region });
  const sts = new STSClient({ region });
  try {
    // The operator's own identity, for the history of every order this run changes.
    const { Arn: actor } = await sts.send(new GetCallerIdentityCommand({}));
    if (!actor)
      throw new RefusedError('AWS did not say who these credentials belong to (STS GetCallerIdentity).');
    const config = await lambda.send(
      new GetFunctionConfigurationCommand({ FunctionName: output('StripeWebhookFunctionName') }),
    );
    const secret = await secrets.send(new GetSecretValueCommand({ SecretId: output('StripeSecretName') }));
    const key = secretSchema.safeParse(JSON.parse(secret.SecretString ?? '{}'));
    if (!key.success)
      throw new RefusedError(`The secret ${output('StripeSecretName')} holds no stripeSecretKey.`);
    const client = createDocumentClient({ region });
    const ses = createSesClient({ region });
    const { tableName: _webhookTable, ...shop } = shopSettingsDeps(ses, config.Environment?.Variables ?? {});
    const tableName = output('OrdersTableName');
    return {
      description: `stage ${options.stage} (stack ${stack}, ${region}, table ${tableName}, ${/^(sk|rk)_live_/.test(key.data.stripeSecretKey) ? 'LIVE Stripe' : 'Stripe test mode'})`,
      actor,
      // The free API unless the stage's functions name another (a commercial key's host); the
      // CLI reads no key: a deployed stage's daily check is what uses it.
      weather: {
        forecast: {
          url: config.Environment?.Variables?.FORECAST_API_URL ?? 'https://api.open-meteo.com',
          timeoutMs: FORECAST_TIMEOUT_MS,
        },
        dispatchPostcode: postcodeInAddress(shop.seller.address),
      },
      deps: {
        table: { client, tableName },
        ...shop,
        stripe: createStripeClient(key.data.stripeSecretKey),
        siteUrl: output('SiteUrl').replace(/\/+$/, ''),
        now,
      },
      close() {
        client.destroy();
        ses.destroy();
      },
    };
  } catch (error) {
    if (error instanceof RefusedError) throw error;
    explainAwsError(error, stack, region);
  } finally {
    lambda.destroy();
    secrets.destroy();
    sts.destroy();
  }
}
