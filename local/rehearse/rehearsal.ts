import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { CreateTableCommand, type CreateTableCommandInput, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { z } from 'zod';
import { generateVapidKeys } from '../../lambdas/lib/web-push';
import { adminConfigSchema } from '../../shared/admin-config';
import { VAPID_SECRET_JSON_KEYS } from '../../shared/merchant-push';
import { PUBLIC_API_ROUTES } from '../../shared/public-routes';
import { startForecastStandIn } from '../forecast-stand-in';
import {
  LOCAL_MERCHANT,
  type LocalSignIn,
  type LocalUser,
  signInHandle,
  startIdentityProvider,
} from '../identity-provider';
import { startPushStandIn } from '../push-stand-in';
import { closeServer, listen, startStoreStandIns } from '../stand-in-servers';
import { createSiteFiles } from '../static-site';
import { type StripeSimulator, startStripeSimulator } from '../stripe-simulator/server';
import { type Assembly, mentionedIds, REHEARSAL_ACCOUNT, readAssembly, resourcesOfType } from './assembly';
import { type AwsGate, startAwsGate } from './aws-gate';
import { localiser, readBehaviours, serveDistribution, siteAssetDir } from './distribution';
import { type FunctionSpec, type RunningFunction, startFunction } from './function-host';
import { createHttpApi } from './http-api';
import { readAppClient } from './identity';
import { findSchedule, rateMs, readSchedules, type Schedule, startControlServer } from './schedules';

/** The simulator's keys: local values, never used outside this machine. */
export const REHEARSAL_STRIPE = {
  secretKey: 'sk_test_rehearsal',
  webhookSecret: 'whsec_rehearsal',
} as const;

export interface RehearsalOptions {
  /** A synthesised cloud assembly (cdk.out). */
  assemblyDir: string;
  stage?: string;
  /** The shop (CloudFront's stand-in). 0 picks a free port. */
  port: number;
  dynamoPort: number;
  sesPort: number;
  simulatorPort: number;
  identityProviderPort: number;
  /** The secrets extension's port; undefined means the template's (PARAMETERS_SECRETS_EXTENSION_HTTP_PORT). */
  extensionPort?: number;
  adminUsers?: readonly LocalUser[];
  /** The control port (schedules' run-now); 0 or undefined picks a free one. */
  controlPort?: number;
  /**
   * The viewer address CloudFront passes: the socket's (default), or one of its own per connection
   * (the browser suite: its tests are different customers, all from 127.0.0.1, and one address
   * would hold the suite's every checkout against the per-client limit of open holds).
   */
  viewerPerConnection?: boolean;
  /** The Open-Meteo stand-in's port (`npm start`'s LOCAL_FORECAST_PORT); 0 or undefined picks a free one. */
  forecastPort?: number;
  /** The push-service stand-in's port (`npm start`'s LOCAL_PUSH_PORT); 0 or undefined picks a free one. */
  pushPort?: number;
  /**
   * The weather check's clock, as `npm start`'s LOCAL_WEATHER_NOW: the admin API's weather check,
   * the weather notice and the forecast stand-in run at this instant (local/weather-clock.ts).
   */
  weatherNow?: Date | undefined;
  /**
   * The Stripe simulator signs its webhooks on the host's clock, as Stripe does whatever a test clock
   * says: for tests that move Stripe's clock (a standing order's renewals) while the shop keeps the real one.
   */
  stripeSignsOnHostClock?: boolean;
  /**
   * SETTINGS_MAX_AGE_MS for every function, which the template never sets (5 s): the browser
   * suite's short one, so a spec need not wait 5 s after each settings write.
   */
  settingsMaxAgeMs?: number | undefined;
  log: (line: string) => void;
}

export interface Rehearsal {
  url: string;
  dynamoUrl: string;
  sesUrl: string;
  simulator: StripeSimulator;
  identityProvider: LocalSignIn;
  assembly: Assembly;
  /** The orders table, as the app stack's output names it (what `npm run orders` reads). */
  ordersTableName: string;
  /** The functions' MERCHANT_EMAIL: where the new-order notices go. */
  merchantEmail: string;
  /** The control port (schedules' run-now): see schedules.ts. */
  controlUrl: string;
  /** The Open-Meteo stand-in the functions' FORECAST_API_URL points at (POST /__set sets a place's day). */
  forecastUrl: string;
  /** The push-service stand-in the merchant's devices subscribe at (GET /pushes lists what it took). */
  pushUrl: string;
  /** The template's scheduled rules and their target functions. */
  schedules: readonly Schedule[];
  /**
   * A secret's value as the functions read it here, by logical id or its construct part
   * (`OrderPageSecret`): what a test needs to seal a link as the shop does.
   */
  secretValue(name: string): string | undefined;
  /** Runs a rule's target now (logical id, or its construct part), as EventBridge would at its next tick. */
  runSchedule(rule: string): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * What each of the template's secrets holds here: a Stripe key document where its description
 * names one (the stage's Stripe secrets), else the generated string Secrets Manager would make.
 */
function localSecretValue(description: unknown): string {
  const key = /JSON \{"(\w+)"/.exec(typeof description === 'string' ? description : '')?.[1];
  if (key === 'stripeSecretKey') return JSON.stringify({ stripeSecretKey: REHEARSAL_STRIPE.secretKey });
  if (key === 'stripeWebhookSecret')
    return JSON.stringify({ stripeWebhookSecret: REHEARSAL_STRIPE.webhookSecret });
  // The VAPID pair, as setup makes one (ADR 0056): the rehearsal's own, for its push stand-in.
  if (key === VAPID_SECRET_JSON_KEYS.publicKey) {
    const pair = generateVapidKeys();
    return JSON.stringify({
      [VAPID_SECRET_JSON_KEYS.publicKey]: pair.publicKey,
      [VAPID_SECRET_JSON_KEYS.privateKey]: pair.privateKey,
    });
  }
  // Another JSON secret (the Open-Meteo key) starts empty, as setup leaves it until an operator sets
  // one; a generated secret (the order page's) is a random string, as CloudFormation makes it.
  if (key) return JSON.stringify({ [key]: '' });
  return randomBytes(24).toString('hex');
}

/**
 * The shop served from a synthesised cloud assembly alone: CloudFront's behaviours, the HTTP API's
 * routes and authorizers, each function's bundle in a process of its own with the template's
 * environment, every AWS call checked against the function's role, and the reconciler's schedule.
 * The stand-ins (dynalite, SES, Stripe simulator, identity provider) are those of `npm start`.
 */
export async function startRehearsal(options: RehearsalOptions): Promise<Rehearsal> {
  const closers: Closers = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
  };
  try {
    const assembly = readAssembly(options.assemblyDir, options.stage);
    const stores = await startStoreStandIns(options, closers);
    await createTables(assembly, stores.dynamoUrl);
    const { secrets, secretIds } = readSecrets(assembly);
    // The shop's port first: the identity provider's callback and the webhook's URL are on it.
    const front = await openFront(options.port, closers);
    const url = front.url;
    const standIns = await startServiceStandIns(options, assembly, url, secrets, stores, closers);
    const { identityProvider, adminUsers, simulator, forecast, push } = standIns;
    // Managed login's address in a function's environment (the admin's session routes) is the stand-in's.
    const localise = localiser(assembly, url, identityProvider.url);
    const specs = functionSpecs(assembly, options, localise, standIns);
    const functions = await startFunctions(specs, options.log, closers);
    front.serveWith(
      serveDistribution({
        behaviours: readBehaviours(assembly, secrets, localise),
        serveApi: await createHttpApi({ assembly, functions, identityProvider, log: options.log }),
        site: createSiteFiles(siteAssetDir(assembly)),
        adminConfig: adminConfigSchema.parse({
          signInUrl: identityProvider.url,
          clientId: identityProvider.clientId,
        }),
        viewerPerConnection: options.viewerPerConnection,
        log: options.log,
      }),
    );
    const { schedules, controlUrl, runRule } = await startSchedules(assembly, functions, options, closers);
    const app = assembly.app;
    return {
      url,
      ...stores,
      simulator,
      identityProvider: signInHandle(identityProvider, adminUsers),
      assembly,
      ordersTableName: assembly.resolveString(app.name, app.template.Outputs.OrdersTableName?.Value),
      merchantEmail: specs.map((spec) => spec.env.MERCHANT_EMAIL).find((email) => email !== undefined) ?? '',
      controlUrl,
      forecastUrl: forecast.url,
      pushUrl: push.url,
      schedules,
      secretValue: (name) => {
        const id =
          [...secretIds.keys()].find((candidate) => candidate === name) ??
          [...secretIds.keys()].find((candidate) => candidate.replace(/[0-9A-F]{8}$/, '') === name);
        const arn = id === undefined ? undefined : secretIds.get(id);
        return arn === undefined ? undefined : secrets.get(arn);
      },
      runSchedule: (name) => {
        const schedule = findSchedule(schedules, name);
        if (!schedule) return Promise.reject(new Error(`No schedule ${name} in the template`));
        return runRule(schedule);
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** What to close when the rehearsal stops, in the order things started (closed in reverse). */
type Closers = Array<() => Promise<void>>;

/** Every table of every stack, as its template defines it. */
async function createTables(assembly: Assembly, dynamoUrl: string): Promise<void> {
  const dynamoClient = new DynamoDBClient({
    region: assembly.region,
    endpoint: dynamoUrl,
    credentials: { accessKeyId: 'rehearsal', secretAccessKey: 'rehearsal' },
  });
  for (const stack of assembly.stacks.values()) {
    for (const [id, table] of Object.entries(stack.template.Resources)) {
      if (table.Type !== 'AWS::DynamoDB::Table') continue;
      const props = table.Properties;
      const input: CreateTableCommandInput = {
        TableName: id,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: z
          .array(z.object({ AttributeName: z.string(), AttributeType: z.enum(['S', 'N', 'B']) }))
          .parse(props.AttributeDefinitions),
        KeySchema: z
          .array(z.object({ AttributeName: z.string(), KeyType: z.enum(['HASH', 'RANGE']) }))
          .parse(props.KeySchema),
        GlobalSecondaryIndexes: z
          .array(
            z.object({
              IndexName: z.string(),
              KeySchema: z.array(z.object({ AttributeName: z.string(), KeyType: z.enum(['HASH', 'RANGE']) })),
              Projection: z.object({
                ProjectionType: z.enum(['ALL', 'KEYS_ONLY', 'INCLUDE']),
                NonKeyAttributes: z.array(z.string()).optional(),
              }),
            }),
          )
          .optional()
          .parse(props.GlobalSecondaryIndexes),
      };
      await dynamoClient.send(new CreateTableCommand(input));
    }
  }
  dynamoClient.destroy();
}

/** Each secret's value here by its ARN, and each secret's ARN by its logical id. */
function readSecrets(assembly: Assembly) {
  const secrets = new Map<string, string>();
  const secretIds = new Map<string, string>();
  for (const stack of assembly.stacks.values()) {
    for (const [id, secret] of Object.entries(stack.template.Resources)) {
      if (secret.Type !== 'AWS::SecretsManager::Secret') continue;
      const arn = assembly.resolveString(stack.name, { Ref: id });
      secrets.set(arn, localSecretValue(secret.Properties.Description));
      secretIds.set(id, arn);
    }
  }
  return { secrets, secretIds };
}

/** The shop's server, listening before what it serves exists: until then it answers 503. */
async function openFront(port: number, closers: Closers) {
  let serve: (req: IncomingMessage, res: ServerResponse) => Promise<void> = async (_req, res) => {
    res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
    res.end(JSON.stringify({ error: 'The rehearsal is starting.' }));
  };
  const front = createServer((req, res) => void serve(req, res));
  const listening = await listen(front, 'Shop', port);
  closers.push(() => closeServer(front));
  return {
    url: `http://localhost:${listening}`,
    serveWith(handler: typeof serve): void {
      serve = handler;
    },
  };
}

type ServiceStandIns = Awaited<ReturnType<typeof startServiceStandIns>>;

/** The identity provider, Stripe, Open-Meteo and the AWS gate the functions call. */
async function startServiceStandIns(
  options: RehearsalOptions,
  assembly: Assembly,
  url: string,
  secrets: ReadonlyMap<string, string>,
  stores: { dynamoUrl: string; sesUrl: string },
  closers: Closers,
) {
  const log = options.log;
  // The template's app client (its id is the JWT authorizer's audience) and its merchants' group.
  const client = readAppClient(assembly, url);
  const adminUsers = options.adminUsers ?? [
    { email: LOCAL_MERCHANT.email, password: LOCAL_MERCHANT.password, groups: client.groups },
  ];
  const identityProvider = await startIdentityProvider({
    port: options.identityProviderPort,
    clientId: client.clientId,
    redirectUris: client.callbackUrls,
    logoutUris: client.logoutUrls,
    scopes: client.scopes,
    flows: client.flows,
    refreshTokens: client.refreshTokens,
    users: adminUsers,
  });
  closers.push(() => identityProvider.close());

  const simulator = await startStripeSimulator({
    port: options.simulatorPort,
    webhook: { url: `${url}${PUBLIC_API_ROUTES.stripeWebhook.path}`, secret: REHEARSAL_STRIPE.webhookSecret },
    ...(options.stripeSignsOnHostClock && { signingNow: Date.now }),
    log,
  });
  closers.push(() => simulator.close());

  // Open-Meteo, as the simulator is Stripe: this machine has no network, and tests set the weather.
  const { weatherNow } = options;
  const forecast = await startForecastStandIn(options.forecastPort ?? 0, () => weatherNow ?? new Date());
  closers.push(() => forecast.close());
  // A browser's push service, as the forecast's: the functions may post to it over http.
  const push = await startPushStandIn(options.pushPort ?? 0);
  closers.push(() => push.close());

  const gate: AwsGate = await startAwsGate({
    assembly,
    ...stores,
    secrets,
    extensionPort: options.extensionPort,
    log,
  });
  closers.push(() => gate.close());
  return { identityProvider, adminUsers, simulator, forecast, push, gate };
}

/** Each Node.js function, from its bundle, with exactly its template's environment. */
function functionSpecs(
  assembly: Assembly,
  options: RehearsalOptions,
  localise: (name: string, value: string) => string,
  { gate, simulator, forecast, push, identityProvider }: ServiceStandIns,
): FunctionSpec[] {
  const specs: FunctionSpec[] = [];
  for (const [id, fn] of resourcesOfType(assembly, 'AWS::Lambda::Function')) {
    const props = fn.Properties;
    if (!String(props.Runtime).startsWith('nodejs')) continue;
    const code = z.object({ S3Key: z.string() }).safeParse(props.Code);
    const bundleDir = code.success ? assembly.assetDir(code.data.S3Key) : undefined;
    if (bundleDir === undefined) throw new Error(`${id}: its code is not an asset of ${assembly.dir}`);
    const env = templateEnvironment(assembly, props.Environment, localise);
    // The user-pool API (sign out everywhere) is the identity stand-in's too, outside the gate.
    if (env.ADMIN_USER_POOL_ID !== undefined) env.COGNITO_ENDPOINT = identityProvider.url;
    if (env.FORECAST_API_URL !== undefined) env.FORECAST_API_URL = forecast.url;
    if (env.VAPID_SECRET_ID !== undefined) env.PUSH_LOCAL_ORIGIN = push.url;
    const roleId = mentionedIds(props.Role)[0] ?? id;
    specs.push({
      name: id,
      bundleDir,
      handler: z.string().parse(props.Handler),
      // Lambda's default when the template sets none.
      timeoutSeconds: z.number().default(3).parse(props.Timeout),
      weatherNow: options.weatherNow,
      env: {
        ...env,
        ...(options.extensionPort !== undefined && {
          PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: String(gate.extensionPort),
        }),
        ...(options.settingsMaxAgeMs !== undefined && {
          SETTINGS_MAX_AGE_MS: String(options.settingsMaxAgeMs),
        }),
        // What the Lambda runtime sets; the credentials name the role, so the gate knows who calls.
        AWS_REGION: assembly.region,
        AWS_DEFAULT_REGION: assembly.region,
        AWS_LAMBDA_FUNCTION_NAME: id,
        AWS_ACCESS_KEY_ID: gate.accessKeyFor(roleId),
        AWS_SECRET_ACCESS_KEY: 'rehearsal',
        AWS_SESSION_TOKEN: gate.sessionTokenFor(roleId),
        // The stand-ins, where the SDK and the Stripe client look for an endpoint.
        ...gate.endpoints,
        STRIPE_API_BASE: simulator.url,
        // Lambda runs Node 24; the SDK's notice about this machine's Node 20 is not the function's.
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      },
    });
  }
  return specs;
}

/** A function's template environment, resolved for this machine. */
function templateEnvironment(
  assembly: Assembly,
  environment: unknown,
  localise: (name: string, value: string) => string,
): Record<string, string> {
  const variables = z
    .record(z.string(), z.unknown())
    .parse(z.object({ Variables: z.unknown() }).optional().parse(environment)?.Variables ?? {});
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(variables)) {
    // The distribution's domain is this server, managed login's the identity stand-in.
    env[name] = localise(name, assembly.resolveString(assembly.app.name, value));
  }
  return env;
}

async function startFunctions(
  specs: readonly FunctionSpec[],
  log: (line: string) => void,
  closers: Closers,
): Promise<Map<string, RunningFunction>> {
  const functions = new Map<string, RunningFunction>();
  const started = await Promise.all(specs.map((spec) => startFunction(spec, log)));
  for (const running of started) {
    functions.set(running.name, running);
    closers.push(() => running.close());
  }
  return functions;
}

/**
 * The schedules: each rule's Lambda target, invoked with EventBridge's scheduled event. Rates tick
 * here as in AWS; a cron (the weather notice's 18:30 UTC) runs when asked, on the control port.
 */
async function startSchedules(
  assembly: Assembly,
  functions: ReadonlyMap<string, RunningFunction>,
  options: Pick<RehearsalOptions, 'controlPort' | 'log'>,
  closers: Closers,
) {
  const { log } = options;
  const schedules = readSchedules(assembly);
  const runRule = (schedule: Schedule): Promise<unknown> => {
    const target = functions.get(schedule.target);
    if (!target) return Promise.reject(new Error(`${schedule.rule}: no function ${schedule.target}`));
    return target.invoke(schedule.input ?? scheduledEvent(assembly.region, schedule.rule));
  };
  const control = await startControlServer({ port: options.controlPort ?? 0, schedules, run: runRule });
  closers.push(() => closeServer(control.server));
  for (const schedule of schedules) {
    const every = rateMs(schedule.expression);
    const when = every === undefined ? 'on request' : `every ${every / 60_000} min and on request`;
    log(
      `schedule ${schedule.rule} ${schedule.expression}${schedule.enabled ? '' : ' (disabled)'} → ${schedule.target}: ${when}, POST ${control.url}/__rehearse/schedules/${schedule.rule}/run`,
    );
    if (every === undefined || !schedule.enabled) continue;
    const timer = setInterval(() => {
      runRule(schedule).catch((error: unknown) => {
        log(`${schedule.rule}: ${error instanceof Error ? error.message : String(error)}`);
      });
    }, every);
    closers.push(async () => clearInterval(timer));
  }
  return { schedules, controlUrl: control.url, runRule };
}

/** EventBridge's event for a scheduled rule's target. */
function scheduledEvent(region: string, rule: string) {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: REHEARSAL_ACCOUNT,
    time: new Date().toISOString(),
    region,
    resources: [`arn:aws:events:${region}:${REHEARSAL_ACCOUNT}:rule/${rule}`],
    detail: {},
  };
}
