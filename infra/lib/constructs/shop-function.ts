import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AssetHashType, Duration, RemovalPolicy } from 'aws-cdk-lib';
import { type IGrantable, type IPrincipal, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  Architecture,
  Code,
  Function as LambdaFunction,
  ParamsAndSecretsLayerVersion,
  ParamsAndSecretsLogLevel,
  ParamsAndSecretsVersions,
  Runtime,
} from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { EsbuildBundling, LAMBDA_HANDLER } from './lambda-bundle';

/**
 * The Parameters and Secrets Lambda Extension: secrets over localhost with no SDK in the bundle
 * (lambdas/lib/secrets-extension.ts assumes its default port).
 */
export const SECRETS_EXTENSION = ParamsAndSecretsLayerVersion.fromVersion(ParamsAndSecretsVersions.V1_0_103, {
  cacheEnabled: true,
  // The functions keep their own copy per cold start; the extension's TTL only bounds how long a
  // rolled key takes to reach a new container of a warm sandbox.
  secretsManagerTtl: Duration.minutes(5),
  logLevel: ParamsAndSecretsLogLevel.WARN,
});

export interface ShopFunctionProps {
  /** Repository root: entry, lockfile and tsconfig are resolved from here. */
  readonly repoRoot: string;
  /** Handler file relative to the repository root, e.g. `lambdas/handlers/create-checkout/handler.ts`; it exports `handler`. */
  readonly entry: string;
  /** One line for the console and the alarm names. */
  readonly description: string;
  /** Behind the HTTP API: under its 30 s and above Stripe's own timeout, so a slow Stripe is a clean 502. */
  readonly timeout: Duration;
  /** Memory in MB (CPU scales with it). @default 256 */
  readonly memorySize?: number;
  /** Reserved for and capped at this function; `undefined`: unreserved (accounts with a quota of 10). */
  readonly reservedConcurrentExecutions?: number;
  /** Non-secret configuration (docs/architecture.md); secrets are read from Secrets Manager. */
  readonly environment: Readonly<Record<string, string>>;
  /** False for a function that reads no secret (shop-status): no secrets extension layer. @default true */
  readonly readsSecrets?: boolean;
  /** How long its logs are kept. @default one month */
  readonly logRetention?: RetentionDays;
  /** Lambda's own retries of an asynchronous invocation (0 to 2). @default Lambda's default, 2 */
  readonly retryAttempts?: number;
}

/**
 * One shop Lambda with the team's defaults: Node.js 24 on arm64, bundled by the local esbuild (no
 * Docker) into minified ESM with source maps, its own log group, and a role that starts with nothing
 * but that log group. Template-only tests skip bundling with `aws:cdk:bundling-stacks: []`.
 */
export class ShopFunction extends Construct implements IGrantable {
  readonly function: LambdaFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;
  readonly grantPrincipal: IPrincipal;

  constructor(scope: Construct, id: string, props: ShopFunctionProps) {
    super(scope, id);

    this.logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      // Kept after the stack is deleted (they may explain what went wrong), not after a failed
      // first create, which would otherwise leave a log group that blocks nothing but costs.
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });

    // An explicit role instead of the default one, which would attach the AWS managed
    // AWSLambdaBasicExecutionRole (logs:* on every log group in the account).
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: props.description,
    });
    this.logGroup.grantWrite(this.role);
    this.grantPrincipal = this.role;

    const entry = join(props.repoRoot, props.entry);
    // CDK's constructor check for a missing entry, as NodejsFunction made it (bundling may be skipped).
    if (!existsSync(entry)) throw new Error(`Lambda entry not found: ${entry}`);
    this.function = new LambdaFunction(this, 'Function', {
      description: props.description,
      // Bundled by lambda-bundle.ts (minified ESM, lazy chunks, the SDK inside, maps for offline
      // use); the asset is hashed by its output, as NodejsFunction hashes its own.
      code: Code.fromAsset(props.repoRoot, {
        assetHashType: AssetHashType.OUTPUT,
        bundling: new EsbuildBundling(entry),
      }),
      handler: LAMBDA_HANDLER,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 256,
      timeout: props.timeout,
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      retryAttempts: props.retryAttempts,
      paramsAndSecrets: props.readsSecrets === false ? undefined : SECRETS_EXTENSION,
      role: this.role,
      logGroup: this.logGroup,
      // No --enable-source-maps: parsing them costs 13–23 % of a cold load. They ship beside the code
      // for `npm run map-stack-trace` (ADR 0015).
      environment: props.environment,
    });
  }
}
