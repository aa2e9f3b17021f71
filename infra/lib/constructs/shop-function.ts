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
 * The AWS Parameters and Secrets Lambda Extension, through which the functions read their
 * secrets over localhost with no AWS SDK in the bundle (lambdas/lib/secrets-extension.ts). CDK
 * picks the layer ARN of the stack's region and architecture. The port is the extension's
 * default, which the code also assumes when PARAMETERS_SECRETS_EXTENSION_HTTP_PORT is unset.
 */
export const SECRETS_EXTENSION = ParamsAndSecretsLayerVersion.fromVersion(ParamsAndSecretsVersions.V1_0_103, {
  cacheEnabled: true,
  // The functions keep their own copy per cold start; the extension's TTL only bounds how long a
  // rolled key takes to reach a new container of a warm sandbox.
  secretsManagerTtl: Duration.minutes(5),
  logLevel: ParamsAndSecretsLogLevel.WARN,
});

/** Props of {@link ShopFunction}. */
export interface ShopFunctionProps {
  /** Repository root: entry, lockfile and tsconfig are resolved from here. */
  readonly repoRoot: string;
  /** Handler file relative to the repository root, e.g. `lambdas/handlers/create-checkout/handler.ts`; it exports `handler`. */
  readonly entry: string;
  /** One line for the console and the alarm names. */
  readonly description: string;
  /**
   * Hard limit per invocation. Functions behind the HTTP API must stay under its 30 s integration
   * limit and above the Stripe client's own timeout, so the handler maps a Stripe timeout to a
   * clean 502 before Lambda kills it.
   */
  readonly timeout: Duration;
  /** Memory in MB (CPU scales with it). @default 256 */
  readonly memorySize?: number;
  /**
   * Concurrency reserved for, and capped at, this function; `undefined` leaves it in the unreserved
   * pool (needed on accounts whose whole quota is 10).
   */
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
 * One shop Lambda with the team's defaults: Node.js 24 on arm64, bundled by the local esbuild
 * (no Docker; lambda-bundle.ts) into minified ESM, with chunks for code loaded on demand and
 * source maps for offline use, its own log group with retention, and its own role that starts
 * with nothing but writing to that log group. Callers add exactly what the function touches with
 * `grant*`.
 *
 * Bundling runs during synthesis. Tests that only inspect the template skip it with CDK's own
 * context flag, `aws:cdk:bundling-stacks: []` (the entry file must still exist: the constructor
 * checks it); `npm run synth` and the cdk-nag test bundle for real, so a broken entry fails there.
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
      // No NODE_OPTIONS=--enable-source-maps: Node would parse the maps on every cold start (13–23 %
      // of the load). They still ship beside the code, so `npm run map-stack-trace` maps a logged
      // trace offline with the exact version's maps (ADR 0015).
      environment: props.environment,
    });
  }
}
