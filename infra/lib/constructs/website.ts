import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DefaultStackSynthesizer, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CachedMethods,
  CachePolicy,
  Function as CloudFrontFunction,
  Distribution,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import {
  type AddToPrincipalPolicyResult,
  PolicyStatement,
  Role,
  type RoleProps,
  ServicePrincipal,
} from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { AaaaRecord, ARecord, type IHostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { CloudFrontTarget } from 'aws-cdk-lib/aws-route53-targets';
import { BlockPublicAccess, Bucket, BucketEncryption, CfnBucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import {
  BucketDeployment,
  type BucketDeploymentProps,
  CacheControl,
  Source,
} from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { ADMIN_API_PREFIX } from '../../../shared/admin-api-paths';
import { PUBLIC_API_PATH_PATTERN } from '../../../shared/public-routes';
import { SITE_PAGE_PREFIXES, SITE_PAGES } from '../../../shared/site-routes';
import { acknowledgeNag, nagValue } from '../nag';
import { describeSiteDir, spaRoutingFunctionCode } from './spa-routing';

/** The admin API's CloudFront behaviour: caching off, every viewer header but Host forwarded. */
export const ADMIN_API_PATH_PATTERN = `${ADMIN_API_PREFIX}*`;

/**
 * The site's Content-Security-Policy. The Vite build inlines no asset as a data: URL
 * (vite.config.ts); its one stylesheet is inlined into each page and allowed by hash
 * (`styleHashes`, from {@link inlineStyleHashes}), and so is the one inline script, the starter
 * of the pages that paint before their script runs (`scriptHashes`, from
 * {@link inlineScriptHashes}): never 'unsafe-inline'. The API is on the same
 * origin. Stripe's hosted Checkout opens in a new tab by script (a navigation, which CSP does not
 * govern), never through a form post, so no Stripe origin is listed. `connectOrigins` are the
 * other origins the page may fetch from: the admin page's sign-in, whose token endpoint it calls.
 */
export function contentSecurityPolicy(
  styleHashes: readonly string[],
  connectOrigins: readonly string[] = [],
  scriptHashes: readonly string[] = [],
): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...scriptHashes.map((hash) => `'${hash}'`)].join(' '),
    ["style-src 'self'", ...styleHashes.map((hash) => `'${hash}'`)].join(' '),
    "img-src 'self'",
    "font-src 'self'",
    ["connect-src 'self'", ...connectOrigins].join(' '),
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
    'upgrade-insecure-requests',
  ].join('; ');
}

/**
 * The CSP hashes (`sha256-<base64>`) of every `<style>` element in the build's HTML files, sorted
 * and without repeats: the policy then allows exactly the styles this build inlined.
 */
export function inlineStyleHashes(siteDir: string): string[] {
  return inlineHashes(siteDir, /<style>([\s\S]*?)<\/style>/g);
}

/**
 * The CSP hashes of every inline `<script>` (one without `src`) in the build's HTML files, sorted
 * and without repeats: the policy then runs exactly the scripts this build inlined.
 */
export function inlineScriptHashes(siteDir: string): string[] {
  return inlineHashes(siteDir, /<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g);
}

/**
 * Every style the site's policy allows by hash: the build's inlined ones and those of documents
 * the pages open themselves from a blob (which keep the opening page's policy), sorted.
 */
export function policyStyleHashes(siteDir: string, openedDocumentStyles: readonly string[] = []): string[] {
  return [...new Set([...inlineStyleHashes(siteDir), ...openedDocumentStyles.map(cspHash)])].sort();
}

/** The CSP source expression of an inline element's text: `sha256-<base64>`. */
function cspHash(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}

function inlineHashes(siteDir: string, element: RegExp): string[] {
  const hashes = new Set<string>();
  for (const file of readdirSync(siteDir).filter((name) => name.endsWith('.html'))) {
    const html = readFileSync(join(siteDir, file), 'utf8');
    for (const [, text = ''] of html.matchAll(element)) {
      hashes.add(cspHash(text));
    }
  }
  return [...hashes].sort();
}

/** Features the shop never uses, switched off for any script that ends up on the page. */
export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=()';

/**
 * What the API behaviour forwards: every viewer header but Host (API Gateway answers only to its
 * own host name), every cookie and the query string, plus CloudFront's own viewer headers such as
 * `cloudfront-viewer-address`, the viewer's IP and port (API Gateway sees only CloudFront's). The
 * API's authorizer names that header among its identity sources: were it not forwarded, API
 * Gateway would answer 401 on every public route (ADR 0032).
 * AWS's managed policy, because CloudFront refuses `Authorization` in a policy of our own and
 * create-checkout reads it when a public key is set: without it every checkout would answer 401.
 * With caching disabled nothing is cached, so nothing is shared between viewers. The origin-verify
 * header is the origin's own custom header: CloudFront sets it over any viewer header of that name.
 */
const API_ORIGIN_REQUEST_POLICY = OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER;

/** Hashed build files never change under the same name. */
const IMMUTABLE_CACHE = [
  CacheControl.setPublic(),
  CacheControl.maxAge(Duration.days(365)),
  CacheControl.immutable(),
];
/** Pages and root files: browsers revalidate every time, the edge keeps them until the next deploy invalidates. */
const REVALIDATE_CACHE = [
  CacheControl.setPublic(),
  CacheControl.maxAge(Duration.seconds(0)),
  CacheControl.sMaxAge(Duration.days(1)),
  CacheControl.mustRevalidate(),
];

/** Custom domain of the site. */
export interface WebsiteDomain {
  /** e.g. `shop.example.co.uk`. */
  readonly domainName: string;
  /** ACM certificate for `domainName`, in us-east-1. */
  readonly certificate: ICertificate;
  /** When given, the stack writes the A/AAAA alias records; otherwise point DNS at the distribution yourself. */
  readonly hostedZone?: IHostedZone;
}

/** Props of {@link Website}. */
export interface WebsiteProps {
  /** Absolute path of the built site (Vite's output); must contain index.html. */
  readonly siteDir: string;
  /** Host name of the HTTP API, served under `/functions/v1/*` on the same origin. */
  readonly apiOriginDomainName: string;
  /** @default the distribution's cloudfront.net name, without a custom domain */
  readonly domain?: WebsiteDomain;
  /** A header CloudFront adds to every API request, which the API checks (its origin-verify authorizer). */
  readonly apiOriginHeader?: { readonly name: string; readonly value: string };
  /** ARN of a us-east-1 WAF web ACL for the distribution. @default no WAF */
  readonly webAclArn?: string;
  /** Other origins the pages may fetch from (CSP connect-src), e.g. the admin's managed login. @default none */
  readonly connectOrigins?: readonly string[];
  /**
   * Inline styles of documents the pages open themselves from a blob, which keep the page's
   * policy (the admin's packing slips): allowed by hash like the build's own. @default none
   */
  readonly openedDocumentStyles?: readonly string[];
  /**
   * Paths of files the stack writes beside the build when it deploys ({@link Website.deployJsonFile}),
   * e.g. `/admin-config.json`: served as files, not as the 404 page, and kept by the build's upload.
   * @default none
   */
  readonly deployTimeFiles?: readonly string[];
}

/**
 * The shop's front door: the Vite build in a private bucket behind CloudFront (origin access
 * control), the API on the same origin, security headers on every response, and real 404s for
 * unknown paths. Deploying the stack uploads the build and invalidates the cache.
 */
export class Website extends Construct {
  readonly bucket: Bucket;
  readonly logsBucket: Bucket;
  readonly distribution: Distribution;
  readonly responseHeadersPolicy: ResponseHeadersPolicy;
  /**
   * The headers of pages whose URL is a secret of their own (`/order/<token>`): the site's, but no
   * referrer at all and not indexed.
   */
  readonly privatePageHeadersPolicy: ResponseHeadersPolicy;
  readonly routingFunction: CloudFrontFunction;
  /** `https://` origin of the shop, no trailing slash. */
  readonly siteUrl: string;
  private readonly deployTimeFiles: readonly string[];
  private readonly pagesUpload: BucketDeployment;
  private readonly uploadSettings: Pick<BucketDeploymentProps, 'destinationBucket' | 'role' | 'logGroup'>;

  constructor(scope: Construct, id: string, props: WebsiteProps) {
    super(scope, id);

    this.logsBucket = this.createLogsBucket();
    this.bucket = this.createSiteBucket();
    const headers = this.createHeadersPolicies(props);
    this.responseHeadersPolicy = headers.site;
    this.privatePageHeadersPolicy = headers.privatePage;
    this.deployTimeFiles = props.deployTimeFiles ?? [];
    this.routingFunction = this.createRoutingFunction(props.siteDir, this.deployTimeFiles);
    this.distribution = this.createDistribution(props);
    acknowledgeDistributionNags(this.distribution, props);
    const upload = this.uploadBuild(props.siteDir, this.deployTimeFiles);
    this.uploadSettings = upload.settings;
    this.pagesUpload = upload.pages;
    this.addAliasRecords(props.domain);

    this.siteUrl = `https://${props.domain?.domainName ?? this.distribution.distributionDomainName}`;
    this.acknowledgeDeploymentGrants(upload.settings.role);
  }

  private createLogsBucket(): Bucket {
    const bucket = new Bucket(this, 'LogsBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      // CloudFront standard logs are delivered with an ACL grant, so ACLs must stay enabled here.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      // Kept when the stack is deleted, not when its first create fails (nothing to keep then).
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
    acknowledgeNag(
      bucket,
      'AwsSolutions-S1',
      'This is the access-log bucket itself; logging its own writes would log forever. Control: public access blocked, TLS enforced, objects expire after 90 days.',
    );
    return bucket;
  }

  private createSiteBucket(): Bucket {
    return new Bucket(this, 'SiteBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.logsBucket,
      serverAccessLogsPrefix: 'site-bucket/',
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
  }

  /** The site's security headers, and the private pages' (no referrer, not indexed). */
  private createHeadersPolicies(props: WebsiteProps): {
    site: ResponseHeadersPolicy;
    privatePage: ResponseHeadersPolicy;
  } {
    const securityHeaders = (referrerPolicy: HeadersReferrerPolicy) => ({
      contentSecurityPolicy: {
        contentSecurityPolicy: contentSecurityPolicy(
          policyStyleHashes(props.siteDir, props.openedDocumentStyles),
          props.connectOrigins,
          inlineScriptHashes(props.siteDir),
        ),
        override: true,
      },
      strictTransportSecurity: {
        accessControlMaxAge: Duration.days(365 * 2),
        includeSubdomains: true,
        override: true,
      },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
      referrerPolicy: { referrerPolicy, override: true },
      // The legacy XSS auditor is itself an attack surface; "0" turns it off (OWASP advice).
      xssProtection: { protection: false, override: true },
    });
    const permissionsPolicy = { header: 'Permissions-Policy', value: PERMISSIONS_POLICY, override: true };
    const site = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Live Aquatics: security headers on every response',
      // The success page's URL carries session_id; same-origin keeps it off every other site.
      securityHeadersBehavior: securityHeaders(HeadersReferrerPolicy.SAME_ORIGIN),
      customHeadersBehavior: { customHeaders: [permissionsPolicy] },
    });
    // The order page's URL is its key: no referrer even to the shop's own API or a Royal Mail
    // tracking link, and no search engine keeps a link someone pasted publicly.
    const privatePage = new ResponseHeadersPolicy(this, 'PrivatePageHeaders', {
      comment: 'Live Aquatics: pages whose URL is their key (no referrer, not indexed)',
      securityHeadersBehavior: securityHeaders(HeadersReferrerPolicy.NO_REFERRER),
      customHeadersBehavior: {
        customHeaders: [
          permissionsPolicy,
          { header: 'X-Robots-Tag', value: 'noindex, nofollow', override: true },
        ],
      },
    });
    return { site, privatePage };
  }

  private createRoutingFunction(siteDir: string, deployTimeFiles: readonly string[]): CloudFrontFunction {
    const build = describeSiteDir(siteDir);
    return new CloudFrontFunction(this, 'SpaRouting', {
      comment: 'App pages serve index.html; unknown paths serve it with 404',
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(
        spaRoutingFunctionCode({
          appRoutes: SITE_PAGES,
          appRoutePrefixes: SITE_PAGE_PREFIXES,
          rootFiles: [...build.rootFiles, ...deployTimeFiles].sort(),
          staticPrefixes: build.staticPrefixes,
        }),
      ),
    });
  }

  /** The site from the bucket, the APIs uncached with the origin-verify header, the order page's own headers. */
  private createDistribution(props: WebsiteProps): Distribution {
    const apiBehavior = {
      origin: new HttpOrigin(props.apiOriginDomainName, {
        protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
        originSslProtocols: [OriginSslPolicy.TLS_V1_2],
        customHeaders:
          props.apiOriginHeader === undefined
            ? undefined
            : { [props.apiOriginHeader.name]: props.apiOriginHeader.value },
      }),
      // A POST must not be answered with a redirect: plain HTTP is refused instead.
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: API_ORIGIN_REQUEST_POLICY,
      responseHeadersPolicy: this.responseHeadersPolicy,
    };
    const siteBehavior = {
      origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      cachedMethods: CachedMethods.CACHE_GET_HEAD,
      cachePolicy: CachePolicy.CACHING_OPTIMIZED,
      responseHeadersPolicy: this.responseHeadersPolicy,
      compress: true,
      functionAssociations: [
        { function: this.routingFunction, eventType: FunctionEventType.VIEWER_REQUEST },
        { function: this.routingFunction, eventType: FunctionEventType.VIEWER_RESPONSE },
      ],
    };
    return new Distribution(this, 'Distribution', {
      comment: 'Live Aquatics shop',
      defaultBehavior: siteBehavior,
      additionalBehaviors: {
        // The admin API first (CloudFront takes the first pattern that matches): its own
        // behaviour, so the merchant's `Authorization` bearer reaching the origin on every method,
        // uncached, is stated once for these paths whatever becomes of the shop's API behaviour.
        [ADMIN_API_PATH_PATTERN]: apiBehavior,
        [PUBLIC_API_PATH_PATTERN]: apiBehavior,
        // The order page (`/order/<token>`): the site's behaviour with the private page's headers.
        ...Object.fromEntries(
          SITE_PAGE_PREFIXES.map((prefix) => [
            `${prefix}*`,
            { ...siteBehavior, responseHeadersPolicy: this.privatePageHeadersPolicy },
          ]),
        ),
      },
      // No errorResponses: they apply to every origin and would turn the API's JSON 404s into the app.
      domainNames: props.domain === undefined ? undefined : [props.domain.domainName],
      certificate: props.domain?.certificate,
      // Only meaningful with a custom certificate; the default certificate's policy is fixed.
      minimumProtocolVersion: props.domain === undefined ? undefined : SecurityPolicyProtocol.TLS_V1_2_2025,
      httpVersion: HttpVersion.HTTP2_AND_3,
      webAclId: props.webAclArn,
      // Europe and North America edges: the customers are in the UK, and it is the cheapest class.
      priceClass: PriceClass.PRICE_CLASS_100,
      enableIpv6: true,
      enableLogging: true,
      logBucket: this.logsBucket,
      logFilePrefix: 'cloudfront/',
    });
  }

  private uploadBuild(
    siteDir: string,
    deployTimeFiles: readonly string[],
  ): {
    settings: Pick<BucketDeploymentProps, 'destinationBucket' | 'logGroup'> & { role: Role };
    pages: BucketDeployment;
  } {
    // Two uploads so each kind of file gets the right Cache-Control. Hashed assets first, and never
    // pruned, so a page loaded before a deploy can still fetch the files it references. Both run in
    // CDK's deployment function, given its own role and log group instead of the defaults (which
    // attach the AWS managed AWSLambdaBasicExecutionRole).
    const deploymentLogs = new LogGroup(this, 'DeploymentLogs', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
    const deploymentRole = new DeploymentRole(this, 'DeploymentRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: 'Copies the web build into the site bucket and invalidates CloudFront',
      distributionArn: this.distribution.distributionArn,
    });
    deploymentLogs.grantWrite(deploymentRole);
    const settings = { destinationBucket: this.bucket, role: deploymentRole, logGroup: deploymentLogs };
    const upload = { sources: [Source.asset(siteDir)], ...settings };
    const assets = new BucketDeployment(this, 'DeployAssets', {
      ...upload,
      exclude: ['*'],
      include: ['assets/*'],
      prune: false,
      cacheControl: IMMUTABLE_CACHE,
    });
    const pages = new BucketDeployment(this, 'DeployPages', {
      ...upload,
      // The files written at deploy time are not in the build: excluded, the sync does not prune them.
      exclude: ['assets/*', ...deployTimeFiles.map((path) => path.slice(1))],
      cacheControl: REVALIDATE_CACHE,
      distribution: this.distribution,
      distributionPaths: ['/*'],
      // Do not hold the deploy until CloudFront finishes: waiting is what makes deploys fail
      // intermittently (aws/aws-cdk#15891), and the new pages are served within minutes anyway.
      waitForDistributionInvalidation: false,
    });
    pages.node.addDependency(assets);
    removeUnusedCliLayer(pages);
    return { settings, pages };
  }

  /** The A and AAAA alias records, when the stack owns the domain's hosted zone. */
  private addAliasRecords(domain: WebsiteDomain | undefined): void {
    if (domain?.hostedZone === undefined) return;
    const target = RecordTarget.fromAlias(new CloudFrontTarget(this.distribution));
    new ARecord(this, 'AliasA', {
      zone: domain.hostedZone,
      recordName: domain.domainName,
      target,
    });
    new AaaaRecord(this, 'AliasAaaa', {
      zone: domain.hostedZone,
      recordName: domain.domainName,
      target,
    });
  }

  /**
   * Writes `path` (one of `deployTimeFiles`) as JSON when the stack deploys, after the build's
   * upload. Its values may be tokens, e.g. a user pool client's id, which CloudFormation resolves:
   * the file carries what only exists once the stack does, with no second build of the site. Served
   * `Cache-Control: no-cache`, so a redeploy that changes it is read at once.
   */
  deployJsonFile(id: string, path: string, data: Record<string, unknown>): BucketDeployment {
    if (!this.deployTimeFiles.includes(path)) {
      throw new Error(`Website: ${path} is not one of deployTimeFiles (${this.deployTimeFiles.join(', ')})`);
    }
    const deployment = new BucketDeployment(this, id, {
      ...this.uploadSettings,
      sources: [Source.jsonData(path.slice(1), data)],
      // Only this file: the build's upload owns everything else.
      prune: false,
      cacheControl: [CacheControl.noCache()],
    });
    deployment.node.addDependency(this.pagesUpload);
    removeUnusedCliLayer(deployment);
    return deployment;
  }

  /**
   * The grants BucketDeployment makes to its role use wildcards that cannot be narrowed from
   * outside the construct. Each is acknowledged on this role only, so the shop's own functions
   * stay fully checked.
   */
  private acknowledgeDeploymentGrants(role: Role): void {
    const stack = Stack.of(this);
    const siteBucket = this.bucket.node.defaultChild;
    if (!(siteBucket instanceof CfnBucket)) {
      throw new Error('Website: the site bucket has no CfnBucket');
    }
    const qualifierContext: unknown = stack.node.tryGetContext(BOOTSTRAP_QUALIFIER_CONTEXT);
    const qualifier =
      typeof qualifierContext === 'string' ? qualifierContext : DefaultStackSynthesizer.DEFAULT_QUALIFIER;
    const control =
      'Control: the role belongs to the CDK deployment function alone, which runs only while CloudFormation deploys the stack; no shop code can assume it.';
    const findings: Array<[`AwsSolutions-${string}`, string]> = [
      [
        'AwsSolutions-IAM5[Action::s3:GetObject*]',
        'Reads the staged build from the CDK assets bucket and the site bucket.',
      ],
      ['AwsSolutions-IAM5[Action::s3:GetBucket*]', 'Reads bucket metadata for aws s3 sync.'],
      ['AwsSolutions-IAM5[Action::s3:List*]', 'Lists objects to sync and prune.'],
      ['AwsSolutions-IAM5[Action::s3:DeleteObject*]', 'Prunes files that are no longer in the build.'],
      ['AwsSolutions-IAM5[Action::s3:Abort*]', 'Aborts a failed multipart upload.'],
      [
        `AwsSolutions-IAM5[Resource::<${stack.getLogicalId(siteBucket)}.Arn>/*]`,
        'Writes any object of the site bucket, which holds only the build.',
      ],
      [
        `AwsSolutions-IAM5[Resource::arn:${nagValue(stack.partition, 'AWS::Partition')}:s3:::cdk-${qualifier}-assets-${nagValue(stack.account, 'AWS::AccountId')}-${nagValue(stack.region, 'AWS::Region')}/*]`,
        'Reads the build zip from the CDK bootstrap assets bucket, whose object keys are content hashes.',
      ],
    ];
    for (const [finding, why] of findings) {
      acknowledgeNag(role, finding, `${why} ${control}`);
    }
    for (const child of stack.node.children) {
      if (child.node.id.startsWith('Custom::CDKBucketDeployment')) {
        acknowledgeNag(
          child,
          'AwsSolutions-L1',
          'The BucketDeployment function runtime is chosen and pinned by aws-cdk-lib; it runs only during deployments. Control: it moves with aws-cdk-lib upgrades.',
        );
      }
    }
  }
}

/** The distribution's cdk-nag findings this stage accepts, each with its control. */
function acknowledgeDistributionNags(distribution: Distribution, props: WebsiteProps): void {
  acknowledgeNag(
    distribution,
    'AwsSolutions-CFR1',
    'No geo restriction: Stripe delivers webhooks from outside the UK (mostly the US), and a customer abroad may pay for a UK delivery. Control: the shop only sells to UK postcodes (validated server side) and every API route is throttled.',
  );
  if (props.webAclArn === undefined) {
    acknowledgeNag(
      distribution,
      'AwsSolutions-CFR2',
      'No AWS WAF in this stage (waf=false: dev and local stages, where a web ACL would cost more than the rest of the stack). Controls: API Gateway throttling per route, server-side validation and pricing, Stripe signature checks on the webhook, and AWS Shield Standard on CloudFront. Production stages have the WAF on by default.',
    );
  }
  if (props.domain === undefined) {
    acknowledgeNag(
      distribution,
      'AwsSolutions-CFR4',
      'Without a custom domain the distribution uses the default *.cloudfront.net certificate, whose security policy CloudFront fixes at TLSv1. Control: browsers negotiate TLS 1.2 or 1.3 with CloudFront, HSTS keeps them on HTTPS, and setting domainName and certificateArn switches the policy to TLSv1.2_2025 (docs/deploy-reference.md).',
    );
  }
}

/**
 * Every upload runs in one shared function, which carries the first one's AWS CLI layer; each
 * later BucketDeployment still adds its own layer resource, deployed for nothing: removed.
 */
function removeUnusedCliLayer(deployment: BucketDeployment): void {
  if (!deployment.node.tryRemoveChild('AwsCliLayer')) {
    throw new Error('Website: a later upload no longer adds its own AWS CLI layer; remove this workaround');
  }
}

/** The invalidation actions BucketDeployment grants its role, on every distribution (`*`). */
const INVALIDATION_ACTIONS = new Set(['cloudfront:CreateInvalidation', 'cloudfront:GetInvalidation']);

/** Props of {@link DeploymentRole}. */
interface DeploymentRoleProps extends RoleProps {
  /** The one distribution the deployment invalidates. */
  readonly distributionArn: string;
}

/**
 * The role of CDK's deployment function. BucketDeployment grants it cloudfront:CreateInvalidation
 * and GetInvalidation on `*`, every distribution in the account, and offers no way to narrow that
 * grant; this role narrows it to the one distribution as the grant is added.
 */
class DeploymentRole extends Role {
  private readonly distributionArn: string;

  constructor(scope: Construct, id: string, { distributionArn, ...props }: DeploymentRoleProps) {
    super(scope, id, props);
    this.distributionArn = distributionArn;
  }

  override addToPrincipalPolicy(statement: PolicyStatement): AddToPrincipalPolicyResult {
    const invalidatesAll =
      statement.resources.includes('*') &&
      statement.actions.every((action) => INVALIDATION_ACTIONS.has(action));
    return super.addToPrincipalPolicy(
      invalidatesAll
        ? new PolicyStatement({
            effect: statement.effect,
            actions: statement.actions,
            resources: [this.distributionArn],
          })
        : statement,
    );
  }
}

/** CDK's context key for a non-default bootstrap qualifier. */
const BOOTSTRAP_QUALIFIER_CONTEXT = '@aws-cdk/core:bootstrapQualifier';
