import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { CreateTableCommand, type CreateTableCommandInput, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { z } from 'zod';
import { generateVapidKeys } from '../../lambdas/lib/web-push';
import { ADMIN_CONFIG_PATH, adminConfigSchema } from '../../shared/admin-config';
import { VAPID_SECRET_JSON_KEYS } from '../../shared/merchant-push';
import { PUBLIC_API_ROUTES } from '../../shared/public-routes';
import { startForecastStandIn } from '../forecast-stand-in';
import { LOCAL_MERCHANT, type LocalUser, startIdentityProvider } from '../identity-provider';
import { startPushStandIn } from '../push-stand-in';
import { closeServer, listen, startStoreStandIns } from '../stand-in-servers';
import { createSiteFiles } from '../static-site';
import { type StripeSimulator, startStripeSimulator } from '../stripe-simulator/server';
import { type Assembly, mentionedIds, REHEARSAL_ACCOUNT, readAssembly, resourcesOfType } from './assembly';
import { type AwsGate, startAwsGate } from './aws-gate';
import {
  type CfResponse,
  type CloudFrontFunction,
  loadCloudFrontFunction,
  viewerRequestEvent,
} from './cloudfront-function';
import { type FunctionSpec, type RunningFunction, startFunction } from './function-host';
import { createHttpApi } from './http-api';
import { readAppClient } from './identity';
import {
  applyResponseHeaders,
  type ResponseHeadersPolicy,
  readResponseHeadersPolicy,
} from './response-headers';
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
  log: (line: string) => void;
}

export interface Rehearsal {
  url: string;
  dynamoUrl: string;
  sesUrl: string;
  simulator: StripeSimulator;
  identityProvider: { url: string; clientId: string; users: readonly LocalUser[] };
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
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
  };
  try {
    const assembly = readAssembly(options.assemblyDir, options.stage);
    const app = assembly.app.name;
    const log = options.log;

    const stores = await startStoreStandIns(options, closers);
    const { dynamoUrl, sesUrl } = stores;

    // Every table of every stack, as its template defines it.
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
                KeySchema: z.array(
                  z.object({ AttributeName: z.string(), KeyType: z.enum(['HASH', 'RANGE']) }),
                ),
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

    // The shop's port first: the identity provider's callback and the webhook's URL are on it.
    let serve: (req: IncomingMessage, res: ServerResponse) => Promise<void> = async (_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end(JSON.stringify({ error: 'The rehearsal is starting.' }));
    };
    const front = createServer((req, res) => void serve(req, res));
    const port = await listen(front, 'Shop', options.port);
    closers.push(() => closeServer(front));
    const url = `http://localhost:${port}`;

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
      webhook: {
        url: `${url}${PUBLIC_API_ROUTES.stripeWebhook.path}`,
        secret: REHEARSAL_STRIPE.webhookSecret,
      },
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
      dynamoUrl,
      sesUrl,
      secrets,
      extensionPort: options.extensionPort,
      log,
    });
    closers.push(() => gate.close());

    // Each Node.js function, from its bundle, with exactly its template's environment.
    const functions = new Map<string, RunningFunction>();
    const specs: FunctionSpec[] = [];
    // Managed login's address in a function's environment (the admin's session routes) is the stand-in's.
    const localise = localiser(assembly, url, identityProvider.url);
    for (const [id, fn] of resourcesOfType(assembly, 'AWS::Lambda::Function')) {
      const props = fn.Properties;
      if (!String(props.Runtime).startsWith('nodejs')) continue;
      const code = z.object({ S3Key: z.string() }).safeParse(props.Code);
      const bundleDir = code.success ? assembly.assetDir(code.data.S3Key) : undefined;
      if (bundleDir === undefined) throw new Error(`${id}: its code is not an asset of ${assembly.dir}`);
      const variables = z
        .record(z.string(), z.unknown())
        .parse(z.object({ Variables: z.unknown() }).optional().parse(props.Environment)?.Variables ?? {});
      const env: Record<string, string> = {};
      for (const [name, value] of Object.entries(variables)) {
        // The distribution's domain is this server: what https://<distribution> is on this machine.
        env[name] = localise(name, assembly.resolveString(app, value));
      }
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
        weatherNow,
        env: {
          ...env,
          ...(options.extensionPort !== undefined && {
            PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: String(gate.extensionPort),
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
    const started = await Promise.all(specs.map((spec) => startFunction(spec, log)));
    for (const running of started) {
      functions.set(running.name, running);
      closers.push(() => running.close());
    }

    const serveApi = await createHttpApi({ assembly, functions, identityProvider, log });
    const behaviours = readBehaviours(assembly, secrets, localise);
    const siteDir = siteAssetDir(assembly);
    const site = createSiteFiles(siteDir);
    const adminConfig = adminConfigSchema.parse({
      signInUrl: identityProvider.url,
      clientId: identityProvider.clientId,
    });

    serve = async (req, res) => {
      const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
      try {
        const behaviour = behaviours.find((candidate) => candidate.matches(pathname));
        applyResponseHeaders(res, behaviour?.responseHeaders);
        if (behaviour && !behaviour.methods.includes(req.method ?? 'GET')) {
          res.writeHead(403, { 'content-type': 'text/plain' });
          res.end('This distribution is not configured to allow the HTTP request method that was used.');
          return;
        }
        const port = req.socket.remotePort ?? 0;
        const address = options.viewerPerConnection
          ? `198.51.100.${port % 250}` // TEST-NET-2: addresses that are nobody's
          : (req.socket.remoteAddress ?? '127.0.0.1');
        if (behaviour?.origin.api) {
          const viewer = `${address}:${port}`;
          const status = await serveApi(req, res, {
            ...behaviour.origin.headers,
            'cloudfront-viewer-address': viewer,
          });
          log(`${req.method} ${pathname} ${status}`);
          return;
        }
        if (pathname === ADMIN_CONFIG_PATH) {
          res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
          res.end(JSON.stringify(adminConfig));
          return;
        }
        await serveBucket(
          req,
          res,
          behaviour?.origin.api === false ? behaviour.origin.functions : {},
          address,
        );
      } catch (error) {
        log(
          `error serving ${req.method} ${pathname}: ${error instanceof Error ? error.message : String(error)}`,
        );
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'Bad gateway' }));
      }
    };

    /**
     * The site bucket behind the behaviour's CloudFront Function, run from the template's code:
     * the function picks the key (SPA routing) and the status the viewer gets.
     */
    const serveBucket = async (
      req: IncomingMessage,
      res: ServerResponse,
      functions: SiteFunctions,
      viewerIp: string,
    ): Promise<void> => {
      const received = viewerRequestEvent(req);
      let request = received;
      if (functions.request) {
        const result = await functions.request.viewerRequest(received, viewerIp);
        if (!('uri' in result)) {
          writeFunctionResponse(res, result);
          return;
        }
        request = result;
      }
      let key: string | undefined;
      try {
        key = decodeURIComponent(request.uri);
      } catch {
        key = undefined;
      }
      const found = key === undefined ? undefined : await site.find(key);
      // Origin access control grants s3:GetObject only: a missing key is S3's 403 AccessDenied, not 404.
      let response: CfResponse = found
        ? {
            statusCode: 200,
            statusDescription: 'OK',
            headers: {
              'cache-control': {
                value: request.uri.startsWith('/assets/')
                  ? 'public, max-age=31536000, immutable'
                  : 'no-cache',
              },
            },
            cookies: {},
          }
        : { statusCode: 403, statusDescription: 'Forbidden', headers: {}, cookies: {} };
      // The viewer-response event carries the request as the viewer sent it, as CloudFront's does.
      if (functions.response)
        response = await functions.response.viewerResponse(received, response, viewerIp);
      const headers = Object.fromEntries(
        Object.entries(response.headers).map(([name, { value }]) => [name, value]),
      );
      if (found) {
        await site.send(req, res, response.statusCode, found, headers);
        return;
      }
      res.writeHead(response.statusCode, { ...headers, 'content-type': 'application/xml' });
      res.end(
        '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>',
      );
    };

    // The schedules: each rule's Lambda target, invoked with EventBridge's scheduled event. Rates
    // tick here as in AWS; a cron (the weather notice's 18:30 UTC) runs when asked, on the control port.
    const schedules = readSchedules(assembly);
    const runRule = (schedule: Schedule): Promise<unknown> => {
      const target = functions.get(schedule.target);
      if (!target) return Promise.reject(new Error(`${schedule.rule}: no function ${schedule.target}`));
      return target.invoke(
        schedule.input ?? {
          version: '0',
          id: randomUUID(),
          'detail-type': 'Scheduled Event',
          source: 'aws.events',
          account: REHEARSAL_ACCOUNT,
          time: new Date().toISOString(),
          region: assembly.region,
          resources: [`arn:aws:events:${assembly.region}:${REHEARSAL_ACCOUNT}:rule/${schedule.rule}`],
          detail: {},
        },
      );
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

    return {
      url,
      ...stores,
      simulator,
      identityProvider: { url: identityProvider.url, clientId: identityProvider.clientId, users: adminUsers },
      assembly,
      ordersTableName: assembly.resolveString(app, assembly.app.template.Outputs.OrdersTableName?.Value),
      merchantEmail: specs.map((spec) => spec.env.MERCHANT_EMAIL).find((email) => email !== undefined) ?? '',
      controlUrl: control.url,
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

/** The folder of the site bucket's deployment asset: what the BucketDeployment copies to S3. */
function siteAssetDir(assembly: Assembly): string {
  for (const [, deployment] of resourcesOfType(assembly, 'Custom::CDKBucketDeployment')) {
    const keys = z.array(z.string()).safeParse(deployment.Properties.SourceObjectKeys);
    for (const key of keys.success ? keys.data : []) {
      const dir = assembly.assetDir(key);
      if (dir !== undefined && existsSync(join(dir, 'index.html'))) return dir;
    }
  }
  throw new Error(`No site asset with an index.html in ${assembly.dir}`);
}

/** The CloudFront Functions a site behaviour associates, by event. */
interface SiteFunctions {
  request?: CloudFrontFunction;
  response?: CloudFrontFunction;
}

/** A response a CloudFront Function made itself (a redirect, say): sent as it is. */
function writeFunctionResponse(res: ServerResponse, response: CfResponse): void {
  const headers = Object.fromEntries(
    Object.entries(response.headers).map(([name, { value }]) => [name, value]),
  );
  res.writeHead(response.statusCode, headers);
  const body = response.body;
  if (body === undefined) res.end();
  else if (typeof body === 'string') res.end(body);
  else res.end(body.encoding === 'base64' ? Buffer.from(body.data, 'base64') : body.data);
}

interface Behaviour {
  matches(pathname: string): boolean;
  methods: readonly string[];
  /** The API's behaviours carry the origin's custom headers; the site bucket's, its functions. */
  origin: { api: true; headers: Readonly<Record<string, string>> } | { api: false; functions: SiteFunctions };
  responseHeaders: ResponseHeadersPolicy | undefined;
}

/** CloudFront's `*` matches any characters, `/` included. */
function pathMatcher(pattern: string): (pathname: string) => boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return (pathname) => new RegExp(`^${source}$`).test(pathname);
}

const behaviourSchema = z.object({
  TargetOriginId: z.string(),
  AllowedMethods: z.array(z.string()).default(['GET', 'HEAD']),
  ResponseHeadersPolicyId: z.unknown().optional(),
  FunctionAssociations: z
    .array(z.object({ EventType: z.enum(['viewer-request', 'viewer-response']), FunctionARN: z.unknown() }))
    .default([]),
});

/**
 * The distribution's cache behaviours in the template's order, the default last: each with its
 * origin (the API's with its custom headers, secrets' dynamic references resolved) and its
 * response headers policy.
 */
function readBehaviours(
  assembly: Assembly,
  secrets: ReadonlyMap<string, string>,
  localise: (name: string, value: string) => string,
): Behaviour[] {
  const [distribution] = resourcesOfType(assembly, 'AWS::CloudFront::Distribution');
  if (!distribution) return [];
  const config = z
    .object({
      CacheBehaviors: z.array(behaviourSchema.extend({ PathPattern: z.string() })).default([]),
      DefaultCacheBehavior: behaviourSchema,
      Origins: z.array(
        z.object({
          Id: z.string(),
          S3OriginConfig: z.unknown().optional(),
          OriginCustomHeaders: z
            .array(z.object({ HeaderName: z.string(), HeaderValue: z.unknown() }))
            .default([]),
        }),
      ),
    })
    .parse(distribution[1].Properties.DistributionConfig);
  const dynamicReference = /^\{\{resolve:secretsmanager:(.+?):SecretString:::\}\}$/;
  const loaded = new Map<string, CloudFrontFunction>();
  const siteFunctions = (props: z.infer<typeof behaviourSchema>): SiteFunctions => {
    const functions: SiteFunctions = {};
    for (const association of props.FunctionAssociations) {
      const key = JSON.stringify(association.FunctionARN);
      const fn = loaded.get(key) ?? loadCloudFrontFunction(assembly, association.FunctionARN);
      loaded.set(key, fn);
      functions[association.EventType === 'viewer-request' ? 'request' : 'response'] = fn;
    }
    return functions;
  };
  const behaviour = (
    matches: (pathname: string) => boolean,
    props: z.infer<typeof behaviourSchema>,
  ): Behaviour => {
    const origin = config.Origins.find((candidate) => candidate.Id === props.TargetOriginId);
    const responseHeaders = readResponseHeadersPolicy(assembly, props.ResponseHeadersPolicyId, localise);
    if (!origin || origin.S3OriginConfig !== undefined) {
      return {
        matches,
        methods: props.AllowedMethods,
        origin: { api: false, functions: siteFunctions(props) },
        responseHeaders,
      };
    }
    const headers: Record<string, string> = {};
    for (const header of origin.OriginCustomHeaders) {
      const value = assembly.resolveString(assembly.app.name, header.HeaderValue);
      const secretArn = dynamicReference.exec(value)?.[1];
      headers[header.HeaderName.toLowerCase()] =
        secretArn === undefined ? value : (secrets.get(secretArn) ?? '');
    }
    return { matches, methods: props.AllowedMethods, origin: { api: true, headers }, responseHeaders };
  };
  return [
    ...config.CacheBehaviors.map((props) => behaviour(pathMatcher(props.PathPattern), props)),
    behaviour(() => true, config.DefaultCacheBehavior),
  ];
}

/**
 * What the template's header values mean on this machine: the Cognito sign-in domain is the
 * identity stand-in, the distribution's domain is this server. A CSP that does not name the
 * sign-in domain names no stand-in either, so what it would block in AWS it blocks here.
 */
function localiser(assembly: Assembly, siteUrl: string, identityProviderUrl: string) {
  const domains = resourcesOfType(assembly, 'AWS::Cognito::UserPoolDomain').map(([, resource]) =>
    assembly.resolveString(assembly.app.name, resource.Properties.Domain),
  );
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const signIn = domains.map(
    (domain) =>
      new RegExp(
        domain.includes('.')
          ? `https://${literal(domain)}`
          : `https://${literal(domain)}\\.auth\\.[a-z0-9-]+\\.amazoncognito\\.com`,
        'g',
      ),
  );
  const identityOrigin = new URL(identityProviderUrl).origin;
  return (name: string, value: string): string => {
    let local = value.replaceAll('https://{{rehearsal:site-domain}}', siteUrl);
    for (const pattern of signIn) local = local.replace(pattern, identityOrigin);
    if (name === 'content-security-policy') {
      // This server is plain http: the directive would send the shop's own files to https.
      local = local
        .split(/;\s*/)
        .filter((directive) => directive.trim() !== 'upgrade-insecure-requests')
        .join('; ');
    }
    return local;
  };
}
