import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CloudFormationClient,
  CloudFormationServiceException,
  DescribeStacksCommand,
} from '@aws-sdk/client-cloudformation';
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminListGroupsForUserCommand,
  CognitoIdentityProviderClient,
  ListUsersInGroupCommand,
  UserNotFoundException,
  UsernameExistsException,
} from '@aws-sdk/client-cognito-identity-provider';
import {
  GetSecretValueCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import {
  GetIdentityDkimAttributesCommand,
  GetIdentityVerificationAttributesCommand,
  SESClient,
} from '@aws-sdk/client-ses';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { ListSubscriptionsByTopicCommand, SNSClient } from '@aws-sdk/client-sns';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { mockClient } from 'aws-sdk-client-mock';
import Stripe from 'stripe';
import * as z from 'zod/mini';
import { createDocumentClient } from '../../lambdas/lib/aws';
import { createStripeClient } from '../../lambdas/lib/stripe';
import { type LocalShop, startLocalShop } from '../../local/local-shop';
import type { DoctorCommandDeps } from '../../ops/doctor';
import type { SetupDeps } from '../../ops/setup';
import { createStageAwsClients } from '../../ops/stage-aws';
import { HANDLED_WEBHOOK_EVENTS } from '../../shared/stripe-webhook-events';

/*
 * A deployed stage, as `npm run setup` and `npm run doctor` see it, on this machine: the local
 * stack (startLocalShop: the real handlers, dynalite, the SES stand-in, the Stripe simulator)
 * answers the HTTP checks and holds the Stripe account; SES's GetAccount goes to the SES
 * stand-in; CloudFormation, Secrets Manager, Cognito, STS, SES identities and SNS, which no
 * stand-in here runs, answer from recorded responses over an in-memory account (aws-sdk-client-mock).
 */

export const ACCOUNT = '123456789012';
export const REGION = 'eu-west-2';
export const STAGE = 'prod';
export const USER_POOL = 'eu-west-2_Merchants1';
/** The local shop's table (local/local-shop.ts), standing in for the stage's. */
export const ORDERS_TABLE = 'live-aquatics-orders';
export const TOPIC = `arn:aws:sns:${REGION}:${ACCOUNT}:LiveAquatics-prod-Alarms`;
export const SECRETS = {
  checkout: 'LiveAquatics-prod-StripeCheckoutKey',
  fulfilment: 'LiveAquatics-prod-StripeFulfilmentKey',
  webhook: 'LiveAquatics-prod-StripeWebhookSigningSecret',
  openMeteo: 'LiveAquatics-prod-OpenMeteoKey',
  vapid: 'LiveAquatics-prod-VapidKeys',
};
/** The simulator's keys: any sk_test_/rk_test_ key works there (a restricted one not configured may do everything). */
export const STRIPE_KEY = 'sk_test_operator';
/** The functions' keys: restricted, as setup requires. */
export const CHECKOUT_KEY = 'rk_test_shopcheckout';
export const FULFILMENT_KEY = 'rk_test_shopfulfilment';

/** What the in-memory AWS account holds; tests change it to break one thing. */
export interface AccountState {
  bootstrapped: boolean;
  deployed: boolean;
  /** Secret id → SecretString (CloudFormation's random placeholder until put). */
  secrets: Map<string, string>;
  puts: string[];
  /** Username → groups. */
  users: Map<string, string[]>;
  sesVerified: boolean;
  sesProduction: boolean;
  alarmConfirmed: boolean;
  /** The operator's credentials may not read the stage's stacks. */
  stacksDenied: boolean;
}

export function healthyAccount(): AccountState {
  return {
    bootstrapped: true,
    deployed: true,
    secrets: new Map(Object.values(SECRETS).map((id) => [id, 'RandomPlaceholderNotJson'])),
    puts: [],
    users: new Map(),
    sesVerified: true,
    sesProduction: true,
    alarmConfirmed: true,
    stacksDenied: false,
  };
}

export interface StageHarness {
  shop: LocalShop;
  state: AccountState;
  cdkJsonPath: string;
  cdkCalls: string[][];
  /** The API's own address (ApiOriginUrl): a stand-in answering 403 like API Gateway without the origin header. */
  originUrl: string;
  /** The origin the shop's payment pages are on (the simulator's). */
  checkoutOrigin: string;
  /** Dependencies of setup/doctor over all of it; `overrides` replace some. */
  deps(overrides?: Partial<SetupDeps>): SetupDeps & DoctorCommandDeps;
  lines: string[];
  close(): Promise<void>;
}

export async function startStageHarness(): Promise<StageHarness> {
  const webRoot = mkdtempSync(join(tmpdir(), 'stage-site-'));
  // The spec's claims as the prerendered order page carries them, which doctor reads back.
  writeFileSync(
    join(webRoot, 'index.html'),
    '<!doctype html><title>Live Aquatics</title><s class="product-card__was">£12.00</s> <span class="product-card__promo">£9.75 for 3 bottles</span><li>This is a trial run. Daphnia are live, natural stock.</li>',
  );
  const shop = await startLocalShop({
    port: 0,
    dynamoPort: 0,
    sesPort: 0,
    simulatorPort: 0,
    dataDir: undefined,
    webRoot,
    stripe: undefined,
    log: () => undefined,
  });
  const simulator = shop.simulator;
  if (simulator === undefined) throw new Error('the local shop runs the Stripe simulator');
  // API Gateway behind CloudFront: what its own address answers to a request without the origin header.
  const origin = await listen(
    createServer((_request, response) => {
      response.writeHead(403, { 'content-type': 'application/json' });
      response.end('{"message":"Forbidden"}');
    }),
  );
  const cdkJsonPath = join(mkdtempSync(join(tmpdir(), 'stage-cdk-')), 'cdk.json');
  copyFileSync(new URL('../../cdk.json', import.meta.url), cdkJsonPath);

  const harness: StageHarness = {
    shop,
    state: healthyAccount(),
    cdkJsonPath,
    cdkCalls: [],
    originUrl: origin.url,
    checkoutOrigin: `http://localhost:${simulator.port}`,
    lines: [],
    deps: (overrides = {}) => ({
      out: (line) => harness.lines.push(line),
      env: {},
      nodeVersion: '20.20.2',
      aws: (region) => ({
        ...createStageAwsClients(region),
        sesv2: new SESv2Client({
          region,
          endpoint: shop.sesUrl,
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }),
        dynamo: createDocumentClient({ region, endpoint: shop.dynamoUrl }),
      }),
      stripe: (key) => createStripeClient(key, { apiBase: simulator.url, maxNetworkRetries: 0 }),
      fetch,
      now: () => new Date(),
      checkoutOrigin: harness.checkoutOrigin,
      events: HANDLED_WEBHOOK_EVENTS,
      apiVersion: Stripe.API_VERSION,
      cdkJsonPath,
      prompt: undefined,
      runCdk: async (args) => {
        harness.cdkCalls.push([...args]);
        if (args[0] === 'bootstrap') harness.state.bootstrapped = true;
        if (args[0] === 'deploy') harness.state.deployed = true;
        return 0;
      },
      ...overrides,
    }),
    async close() {
      for (const mock of mocks) mock.restore();
      await new Promise((resolve) => origin.server.close(resolve));
      await shop.close();
    },
  };

  const outputs = (): Record<string, string> => ({
    SiteUrl: shop.url,
    ApiUrl: `${shop.url}/functions/v1`,
    ApiOriginUrl: origin.url,
    DistributionDomainName: 'd111111abcdef8.cloudfront.net',
    StripeWebhookUrl: `${shop.url}/functions/v1/stripe-webhook`,
    AlarmTopicArn: TOPIC,
    AdminUserPoolId: USER_POOL,
    OrdersTableName: ORDERS_TABLE,
    StripeCheckoutKeySecretName: SECRETS.checkout,
    StripeFulfilmentKeySecretName: SECRETS.fulfilment,
    StripeWebhookSigningSecretName: SECRETS.webhook,
    OpenMeteoKeySecretName: SECRETS.openMeteo,
    VapidKeySecretName: SECRETS.vapid,
  });
  const missingStack = (name: string) =>
    new CloudFormationServiceException({
      name: 'ValidationError',
      $fault: 'client',
      $metadata: {},
      message: `Stack with id ${name} does not exist`,
    });

  const cloudFormation = mockClient(CloudFormationClient);
  cloudFormation.on(DescribeStacksCommand).callsFake(({ StackName }: { StackName?: string }) => {
    const name = StackName ?? '';
    if (name === 'CDKToolkit') {
      if (!harness.state.bootstrapped) throw missingStack(name);
      return { Stacks: [{ StackName: name, StackStatus: 'CREATE_COMPLETE', CreationTime: new Date() }] };
    }
    if (harness.state.stacksDenied)
      throw new CloudFormationServiceException({
        name: 'AccessDenied',
        $fault: 'client',
        $metadata: {},
        message: `User: arn:aws:iam::${ACCOUNT}:user/operator is not authorized to perform: cloudformation:DescribeStacks on resource: ${name}`,
      });
    if (!harness.state.deployed || !name.startsWith('LiveAquatics-')) throw missingStack(name);
    const all = Object.entries(outputs()).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue }));
    return {
      Stacks: [{ StackName: name, StackStatus: 'UPDATE_COMPLETE', CreationTime: new Date(), Outputs: all }],
    };
  });

  const sts = mockClient(STSClient);
  sts.on(GetCallerIdentityCommand).resolves({
    Account: ACCOUNT,
    Arn: `arn:aws:iam::${ACCOUNT}:user/operator`,
    UserId: 'AIDAOPERATOR',
  });

  const secrets = mockClient(SecretsManagerClient);
  secrets.on(GetSecretValueCommand).callsFake(({ SecretId }: { SecretId?: string }) => ({
    SecretString: harness.state.secrets.get(SecretId ?? ''),
  }));
  secrets.on(PutSecretValueCommand).callsFake(({ SecretId = '', SecretString = '' }) => {
    harness.state.secrets.set(SecretId, SecretString);
    harness.state.puts.push(SecretId);
    if (SecretId === SECRETS.webhook) {
      // What the deployed stage does with it: the webhook reads it at its next cold start, and
      // Stripe signs with the endpoint's secret.
      const { stripeWebhookSecret } = z
        .object({ stripeWebhookSecret: z.string() })
        .parse(JSON.parse(SecretString));
      process.env.STRIPE_WEBHOOK_SECRET = stripeWebhookSecret;
      simulator.setWebhook({ url: `${shop.url}/functions/v1/stripe-webhook`, secret: stripeWebhookSecret });
    }
    return { ARN: `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:${SecretId}`, VersionId: 'v' };
  });

  const ses = mockClient(SESClient);
  ses
    .on(GetIdentityVerificationAttributesCommand)
    .callsFake(({ Identities = [] }: { Identities?: string[] }) => ({
      VerificationAttributes: Object.fromEntries(
        Identities.filter((identity) => !identity.includes('@')).map((identity) => [
          identity,
          {
            VerificationStatus: harness.state.sesVerified ? 'Success' : 'Pending',
            VerificationToken: undefined,
          },
        ]),
      ),
    }));
  ses.on(GetIdentityDkimAttributesCommand).callsFake(({ Identities = [] }: { Identities?: string[] }) => ({
    DkimAttributes: Object.fromEntries(
      Identities.map((identity) => [
        identity,
        {
          DkimEnabled: true,
          DkimVerificationStatus: harness.state.sesVerified ? 'Success' : 'Pending',
          DkimTokens: ['tokenone', 'tokentwo', 'tokenthree'],
        },
      ]),
    ),
  }));

  const sns = mockClient(SNSClient);
  sns.on(ListSubscriptionsByTopicCommand).callsFake(() => ({
    Subscriptions: [
      {
        TopicArn: TOPIC,
        Protocol: 'email',
        Endpoint: 'alarms@daphnia-direct.co.uk',
        SubscriptionArn: harness.state.alarmConfirmed ? `${TOPIC}:0b5c6f0e` : 'PendingConfirmation',
      },
    ],
  }));

  const cognito = mockClient(CognitoIdentityProviderClient);
  cognito.on(AdminCreateUserCommand).callsFake(({ Username = '' }) => {
    if (harness.state.users.has(Username))
      throw new UsernameExistsException({ message: 'User account already exists.', $metadata: {} });
    harness.state.users.set(Username, []);
    return { User: { Username, Enabled: true } };
  });
  cognito.on(AdminListGroupsForUserCommand).callsFake(({ Username = '' }) => {
    const groups = harness.state.users.get(Username);
    if (groups === undefined)
      throw new UserNotFoundException({ message: 'User does not exist.', $metadata: {} });
    return { Groups: groups.map((GroupName) => ({ GroupName })) };
  });
  cognito.on(AdminAddUserToGroupCommand).callsFake(({ Username = '', GroupName = '' }) => {
    harness.state.users.set(Username, [...(harness.state.users.get(Username) ?? []), GroupName]);
    return {};
  });
  cognito.on(ListUsersInGroupCommand).callsFake(({ GroupName = '' }) => ({
    Users: [...harness.state.users]
      .filter(([, groups]) => groups.includes(GroupName))
      .map(([Username]) => ({ Username, Enabled: true })),
  }));
  const mocks = [cloudFormation, sts, secrets, ses, sns, cognito];

  setSesAccount(true);
  return harness;

  /** The SES stand-in answers GetAccount from this variable, read at each request. */
  function setSesAccount(production: boolean): void {
    process.env.AWS_SES_ACCOUNT = JSON.stringify({
      DedicatedIpAutoWarmupEnabled: false,
      Details: {
        AdditionalContactEmailAddresses: [],
        ContactLanguage: 'EN',
        MailType: 'TRANSACTIONAL',
        ReviewDetails: { CaseId: 'case-1', Status: production ? 'GRANTED' : 'PENDING' },
        UseCaseDescription: 'Order confirmations',
        WebsiteURL: 'https://daphnia-direct.co.uk',
      },
      EnforcementStatus: 'HEALTHY',
      ProductionAccessEnabled: production,
      SendingEnabled: true,
      SendQuota: { Max24HourSend: 50000, MaxSendRate: 14, SentLast24Hours: 0 },
      SuppressionAttributes: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
    });
  }
}

/** Puts the SES stand-in's account in or out of the sandbox. */
export function setSesProduction(production: boolean): void {
  const account = JSON.parse(process.env.AWS_SES_ACCOUNT ?? '{}');
  process.env.AWS_SES_ACCOUNT = JSON.stringify({ ...account, ProductionAccessEnabled: production });
}

async function listen(server: Server): Promise<{ server: Server; url: string }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** The flags of an unattended setup of the prod stage, in test mode against the simulator. */
export const SETUP_FLAGS = [
  '--stage',
  STAGE,
  '--region',
  REGION,
  '--yes',
  '--shop-name',
  'Daphnia Direct',
  '--seller-name',
  'Daphnia Direct Ltd',
  '--seller-address',
  '4 Pond Lane, Norwich NR1 1AA',
  '--seller-email',
  'hello@daphnia-direct.co.uk',
  '--sender-email',
  'orders@daphnia-direct.co.uk',
  '--merchant-email',
  'owner@daphnia-direct.co.uk',
  '--alarm-email',
  'alarms@daphnia-direct.co.uk',
  '--checkout-key',
  CHECKOUT_KEY,
  '--fulfilment-key',
  FULFILMENT_KEY,
  // Last, so a test can give another with SETUP_FLAGS.slice(0, -2).
  '--stripe-key',
  STRIPE_KEY,
];

/** SETUP_FLAGS without the functions' keys: an operator who gives only setup's own key. */
export const SETUP_FLAGS_WITHOUT_FUNCTION_KEYS = SETUP_FLAGS.filter(
  (flag, index, all) =>
    ![flag, all[index - 1]].some((name) => name === '--checkout-key' || name === '--fulfilment-key'),
);
