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
 * The site's CSP: the inlined stylesheet and starter script allowed by hash, never 'unsafe-inline'.
 * Stripe's Checkout opens by navigation (which CSP does not govern), so no Stripe origin is listed;
 * `connectOrigins`: the admin's sign-in token endpoint.
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

/** The CSP hashes of the build's `<style>` elements: exactly the styles this build inlined. */
export function inlineStyleHashes(siteDir: string): string[] {
  return inlineHashes(siteDir, /<style>([\s\S]*?)<\/style>/g);
}

/** The CSP hashes of the build's inline `<script>`s (without `src`). */
export function inlineScriptHashes(siteDir: string): string[] {
  return inlineHashes(siteDir, /<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g);
}

/** Styles allowed by hash: the build's, and those of blob documents the pages open (they keep the policy). */
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
 * Every viewer header but Host (API Gateway answers only to its own), so `cloudfront-viewer-address`
 * reaches the authorizer, which names it as an identity source: else every public route is a 401
 * (ADR 0032). AWS's managed policy, because CloudFront refuses `Authorization` in our own and
 * create-checkout reads it. CloudFront sets the origin-verify header over any viewer's of that name.
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
  /** Inline styles of blob documents the pages open (the admin's packing slips). @default none */
  readonly openedDocumentStyles?: readonly string[];
  /**
   * Files the stack writes beside the build at deploy ({@link Website.deployJsonFile}): served as
   * files, not the 404 page, and kept by the build's upload. @default none
   */
  readonly deployTimeFiles?: readonly string[];
}

/** The Vite build in a private bucket behind CloudFront, the API on its origin, real 404s. */
export class Website extends Construct {
  readonly bucket: Bucket;
  readonly logsBucket: Bucket;
  readonly distribution: Distribution;
  readonly responseHeadersPolicy: ResponseHeadersPolicy;
  /** Headers of pages whose URL is their secret (`/order/<token>`): no referrer, not indexed. */
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
        // The admin API first (CloudFront takes the first match), so its bearer reaching the origin
        // uncached holds whatever becomes of the shop's API behaviour.
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
    // Two uploads for two Cache-Controls; hashed assets first and never pruned, so a page loaded
    // before a deploy still finds its files. Own role and log group, not AWS's managed basic role.
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
    const record = { zone: domain.hostedZone, recordName: domain.domainName, target };
    new ARecord(this, 'AliasA', record);
    new AaaaRecord(this, 'AliasAaaa', record);
  }

  /**
   * Writes `path` as JSON at deploy, after the build: its values may be tokens CloudFormation
   * resolves, so no second build of the site. `no-cache`, so a redeploy is read at once.
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

  /** BucketDeployment's wildcard grants cannot be narrowed from outside: acknowledged on this role only. */
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

/** Every upload shares one function and its first CLI layer; later ones add a layer deployed for nothing. */
function removeUnusedCliLayer(deployment: BucketDeployment): void {
  if (!deployment.node.tryRemoveChild('AwsCliLayer')) {
    throw new Error('Website: a later upload no longer adds its own AWS CLI layer; remove this workaround');
  }
}

/** The invalidation actions BucketDeployment grants its role, on every distribution (`*`). */
const INVALIDATION_ACTIONS = new Set(['cloudfront:CreateInvalidation', 'cloudfront:GetInvalidation']);

interface DeploymentRoleProps extends RoleProps {
  /** The one distribution the deployment invalidates. */
  readonly distributionArn: string;
}

/** CDK's deployment role: BucketDeployment's invalidation grant on `*` narrowed to the one distribution. */
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
