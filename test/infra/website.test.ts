import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  contentSecurityPolicy,
  inlineScriptHashes,
  inlineStyleHashes,
} from '../../infra/lib/constructs/website';
import type { ShopStack } from '../../infra/lib/shop-stack';
import { PUBLIC_API_PATH_PATTERN as API_PATH_PATTERN } from '../../shared/public-routes';
import { fakeWebBuild, logicalIdOf, statementsOfRole, synthShop } from './support';

/** The CSP hash of the fake build's inlined style, `body{color:red}`. */
const FAKE_STYLE_HASH = "'sha256-FcQqt3aNlV7AZnGV4zkQRVeCeJOxbMPnQSx258L803E='";
/** The packing slips' inline style, which the admin page opens from a blob under the site's policy. */
const PACKING_SLIPS_HASH = "'sha256-0Zhc3Em0fZF0VygA+vpt5Dca6Cg+Fn5hEt+ZxL8L9HQ='";

/** AWS managed cache policy ids (CloudFront documentation). */
const CACHING_OPTIMIZED = '658327ea-f89d-4fab-a63d-7e88639e58f6';
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
/** AWS managed origin request policy AllViewerExceptHostHeader (CloudFront documentation). */
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

interface Behavior {
  PathPattern?: string;
  TargetOriginId: string;
  ViewerProtocolPolicy: string;
  CachePolicyId: string;
  OriginRequestPolicyId?: unknown;
  ResponseHeadersPolicyId: unknown;
  AllowedMethods?: string[];
  FunctionAssociations?: Array<{ EventType: string; FunctionARN: unknown }>;
}

describe('Website', () => {
  let stack: ShopStack;
  let template: Template;
  let config: Record<string, unknown> & {
    DefaultCacheBehavior: Behavior;
    CacheBehaviors: Behavior[];
    Origins: Array<{
      Id: string;
      DomainName: unknown;
      OriginAccessControlId?: unknown;
      CustomOriginConfig?: unknown;
    }>;
  };

  beforeAll(() => {
    ({ stack, template } = synthShop({ cognitoDomainPrefix: 'live-aquatics-admin-dev' }));
    config =
      template.toJSON().Resources[logicalIdOf(stack.website.distribution)].Properties.DistributionConfig;
  });

  describe('site bucket', () => {
    it('S3: all public access blocked, objects owned by the bucket, access logged', () => {
      const bucket = template.toJSON().Resources[logicalIdOf(stack.website.bucket)].Properties;
      expect(bucket).toMatchObject({
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
        },
        LoggingConfiguration: { DestinationBucketName: { Ref: logicalIdOf(stack.website.logsBucket) } },
      });
    });

    it('S3: TLS enforced, readable only by this distribution through origin access control', () => {
      const bucketId = logicalIdOf(stack.website.bucket);
      const policies = Object.values(
        template.findResources('AWS::S3::BucketPolicy', { Properties: { Bucket: { Ref: bucketId } } }),
      );
      expect(policies).toHaveLength(1);
      const statements = policies[0]?.Properties.PolicyDocument.Statement;
      expect(statements).toHaveLength(2);
      expect(statements[0]).toMatchObject({
        Effect: 'Deny',
        Action: 's3:*',
        Principal: { AWS: '*' },
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      });
      expect(statements[1]).toMatchObject({
        Effect: 'Allow',
        Action: 's3:GetObject',
        Principal: { Service: 'cloudfront.amazonaws.com' },
        Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/*']] },
      });
      // Only requests signed for this distribution: another distribution cannot read the bucket.
      expect(JSON.stringify(statements[1].Condition.StringEquals['AWS:SourceArn'])).toContain(
        `":distribution/",{"Ref":"${logicalIdOf(stack.website.distribution)}"}`,
      );
    });

    it('is the S3 origin, signed with SigV4 origin access control (no legacy OAI)', () => {
      template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
        OriginAccessControlConfig: {
          OriginAccessControlOriginType: 's3',
          SigningBehavior: 'always',
          SigningProtocol: 'sigv4',
        },
      });
      const s3Origin = config.Origins.find((o) => o.OriginAccessControlId !== undefined);
      expect(s3Origin?.DomainName).toEqual({
        'Fn::GetAtt': [logicalIdOf(stack.website.bucket), 'RegionalDomainName'],
      });
      expect(s3Origin).toMatchObject({ S3OriginConfig: { OriginAccessIdentity: '' } });
    });
  });

  describe('security headers', () => {
    it('CloudFront security headers: HSTS for two years, the CSP, nosniff, DENY framing, a referrer policy keeping session_id on the site', () => {
      template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
        ResponseHeadersPolicyConfig: {
          SecurityHeadersConfig: {
            StrictTransportSecurity: {
              AccessControlMaxAgeSec: 63072000,
              IncludeSubdomains: true,
              Override: true,
            },
            ContentSecurityPolicy: {
              ContentSecurityPolicy: Match.stringLikeRegexp(
                `style-src 'self' ${PACKING_SLIPS_HASH} ${FAKE_STYLE_HASH};`.replace(/[+/]/g, '\\$&'),
              ),
              Override: true,
            },
            ContentTypeOptions: { Override: true },
            FrameOptions: { FrameOption: 'DENY', Override: true },
            // Keeps ?session_id=... of the success page off every other site.
            ReferrerPolicy: { ReferrerPolicy: 'same-origin', Override: true },
          },
        },
      });
    });

    it("CloudFront CSP: default-src 'self', object-src 'none', base-uri 'none', frame-ancestors 'none', the inlined style by hash, nothing unsafe", () => {
      const policy: unknown =
        template.toJSON().Resources[logicalIdOf(stack.website.responseHeadersPolicy)].Properties
          .ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy;
      expect(policy).toBe(
        [
          "default-src 'self'",
          "script-src 'self'",
          // The packing slips' stylesheet (opened by the admin page) and the build's inlined one, sorted.
          `style-src 'self' ${PACKING_SLIPS_HASH} ${FAKE_STYLE_HASH}`,
          // Every image is a file of the build (Vite's assetsInlineLimit is 0): no data: URLs.
          "img-src 'self'",
          "font-src 'self'",
          // The API is on the site's own origin; the admin page gets its tokens from managed login.
          "connect-src 'self' https://live-aquatics-admin-dev.auth.eu-west-2.amazoncognito.com",
          // The payment page opens in a new tab by script; no form is ever posted to Stripe.
          "form-action 'self'",
          "frame-ancestors 'none'",
          "base-uri 'none'",
          "object-src 'none'",
          'upgrade-insecure-requests',
        ].join('; '),
      );
      expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    });

    it('CSP style hashes: one per distinct <style> of any page, sorted; none for a build without inline styles', () => {
      const site = fakeWebBuild(['index.html', '404.html', 'success.html', 'assets/index-abc123.js']);
      writeFileSync(
        join(site, 'success.html'),
        '<style>p{margin:0}</style><p>x</p><style>body{color:red}</style>',
      );
      expect(inlineStyleHashes(site)).toEqual([
        'sha256-FcQqt3aNlV7AZnGV4zkQRVeCeJOxbMPnQSx258L803E=',
        'sha256-QRQPRLGyxt3RJiKpYNjpkgHcmHU2PywsfL2e8oI0LQA=',
      ]);
      const unstyled = fakeWebBuild(['index.html']);
      writeFileSync(join(unstyled, 'index.html'), '<!doctype html><title>Not built yet</title>');
      expect(inlineStyleHashes(unstyled)).toEqual([]);
      expect(contentSecurityPolicy([])).toContain("style-src 'self';");
    });

    it('CSP script hashes: one per distinct inline <script> of any page, none for a script with a src', () => {
      const site = fakeWebBuild(['index.html', 'success.html', 'assets/index-abc123.js']);
      writeFileSync(
        join(site, 'success.html'),
        '<script type="module">start()</script><script type="module" crossorigin src="/assets/index-abc123.js"></script>',
      );
      writeFileSync(
        join(site, 'index.html'),
        '<script type="module" src="/assets/index-abc123.js"></script>',
      );

      expect(inlineScriptHashes(site)).toEqual(['sha256-DIm7WJS6ZKDYe5qFLPy+h4JFI9Bol5QmYC57mt3Fb00=']);
      expect(contentSecurityPolicy([], [], inlineScriptHashes(site))).toContain(
        "script-src 'self' 'sha256-DIm7WJS6ZKDYe5qFLPy+h4JFI9Bol5QmYC57mt3Fb00=';",
      );
      expect(contentSecurityPolicy([])).toContain("script-src 'self';");
    });

    it("the deployed CSP runs a build's inline starter by its hash, and no other inline script", () => {
      const site = fakeWebBuild(['index.html', 'success.html', 'assets/index-abc123.js']);
      writeFileSync(
        join(site, 'success.html'),
        '<style>body{color:red}</style><script type="module">start()</script>',
      );
      const { stack: withStarter } = synthShop(
        { cognitoDomainPrefix: 'live-aquatics-admin-dev' },
        { siteDir: site },
      );

      const policy: unknown =
        Template.fromStack(withStarter).toJSON().Resources[
          logicalIdOf(withStarter.website.responseHeadersPolicy)
        ].Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy
          .ContentSecurityPolicy;

      expect(policy).toContain("; script-src 'self' 'sha256-DIm7WJS6ZKDYe5qFLPy+h4JFI9Bol5QmYC57mt3Fb00=';");
    });

    it('CloudFront security headers on every response: the site behaviour and the API behaviour alike', () => {
      const policy = { Ref: logicalIdOf(stack.website.responseHeadersPolicy) };
      const privatePage = { Ref: logicalIdOf(stack.website.privatePageHeadersPolicy) };
      expect(config.DefaultCacheBehavior.ResponseHeadersPolicyId).toEqual(policy);
      expect(config.CacheBehaviors.map((b) => [b.PathPattern, b.ResponseHeadersPolicyId])).toEqual([
        ['/functions/v1/admin/*', policy],
        ['/functions/v1/*', policy],
        ['/order/*', privatePage],
      ]);
    });

    it('serves /order/* as the site (the SPA function, the bucket) with the same policy but no referrer and noindex', () => {
      const order = config.CacheBehaviors.find((b) => b.PathPattern === '/order/*');
      const { ResponseHeadersPolicyId: _site, ...sameAsSite } = config.DefaultCacheBehavior;
      expect(order).toMatchObject(sameAsSite);
      const resources = template.toJSON().Resources;
      const site =
        resources[logicalIdOf(stack.website.responseHeadersPolicy)].Properties.ResponseHeadersPolicyConfig;
      const privatePage =
        resources[logicalIdOf(stack.website.privatePageHeadersPolicy)].Properties.ResponseHeadersPolicyConfig;
      expect(privatePage.SecurityHeadersConfig).toEqual({
        ...site.SecurityHeadersConfig,
        ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
      });
      expect(privatePage.CustomHeadersConfig.Items).toEqual([
        ...site.CustomHeadersConfig.Items,
        { Header: 'X-Robots-Tag', Value: 'noindex, nofollow', Override: true },
      ]);
    });
  });

  describe('routing', () => {
    it('serves the bucket by default, HTTPS only, cached, with the SPA routing function on request and response', () => {
      const fn = { 'Fn::GetAtt': [logicalIdOf(stack.website.routingFunction), 'FunctionARN'] };
      expect(config.DefaultCacheBehavior).toMatchObject({
        ViewerProtocolPolicy: 'redirect-to-https',
        CachePolicyId: CACHING_OPTIMIZED,
        FunctionAssociations: [
          { EventType: 'viewer-request', FunctionARN: fn },
          { EventType: 'viewer-response', FunctionARN: fn },
        ],
      });
      template.hasResourceProperties('AWS::CloudFront::Function', {
        FunctionConfig: { Runtime: 'cloudfront-js-2.0' },
        FunctionCode: Match.stringLikeRegexp('"/favicon.svg":true'),
      });
    });

    it('has no custom error responses, which would rewrite the API 404s into the app', () => {
      expect(config.CustomErrorResponses).toBeUndefined();
    });

    it('sends /functions/v1/* to the HTTP API over TLS 1.2, uncached, without the SPA function', () => {
      // The admin API's own behaviour comes first (test/infra/merchant-admin.test.ts), then this one.
      // The order page's behaviour (/order/*) is the site's.
      expect(config.CacheBehaviors).toHaveLength(3);
      const api = config.CacheBehaviors.find((b) => b.PathPattern === API_PATH_PATTERN);
      expect(api).toMatchObject({
        PathPattern: API_PATH_PATTERN,
        ViewerProtocolPolicy: 'https-only',
        CachePolicyId: CACHING_DISABLED,
        OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
        AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
      });
      expect(api?.FunctionAssociations).toBeUndefined();
      const origin = config.Origins.find((o) => o.Id === api?.TargetOriginId);
      expect(origin).toMatchObject({
        CustomOriginConfig: { OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] },
      });
      expect(JSON.stringify(origin?.DomainName)).toContain(
        `{"Ref":"${logicalIdOf(stack.api.httpApi)}"},".execute-api.`,
      );
    });

    it("forwards every viewer header but Host (Authorization too) and CloudFront's viewer address through AWS's AllViewerExceptHostHeader, no policy of its own", () => {
      // CloudFront refuses Authorization in an origin request policy of our own; the managed one
      // carries it, so create-checkout's public key check sees it.
      expect(config.CacheBehaviors[0]?.OriginRequestPolicyId).toBe(ALL_VIEWER_EXCEPT_HOST_HEADER);
      template.resourceCountIs('AWS::CloudFront::OriginRequestPolicy', 0);
    });
  });

  it('logs viewer requests to the log bucket, which expires them after 90 days', () => {
    expect(config.Logging).toEqual({
      Bucket: { 'Fn::GetAtt': [logicalIdOf(stack.website.logsBucket), 'RegionalDomainName'] },
      Prefix: 'cloudfront/',
    });
    const logs = template.toJSON().Resources[logicalIdOf(stack.website.logsBucket)].Properties;
    expect(logs).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, RestrictPublicBuckets: true },
      LifecycleConfiguration: { Rules: [{ ExpirationInDays: 90, Status: 'Enabled' }] },
    });
  });

  describe('deployment of the build', () => {
    it('uploads hashed assets as immutable and never prunes them', () => {
      template.hasResourceProperties('Custom::CDKBucketDeployment', {
        Include: ['assets/*'],
        Exclude: ['*'],
        Prune: false,
        SystemMetadata: { 'cache-control': 'public, max-age=31536000, immutable' },
        DistributionId: Match.absent(),
      });
    });

    it('uploads the pages revalidating, then invalidates the whole distribution without waiting for it', () => {
      template.hasResourceProperties('Custom::CDKBucketDeployment', {
        // admin-config.json is written at deploy time (test/infra/admin-config.test.ts), not pruned.
        Exclude: ['assets/*', 'admin-config.json'],
        Prune: true,
        SystemMetadata: { 'cache-control': 'public, max-age=0, s-maxage=86400, must-revalidate' },
        DistributionId: { Ref: logicalIdOf(stack.website.distribution) },
        DistributionPaths: ['/*'],
        // Waiting is what fails deploys intermittently (aws/aws-cdk#15891).
        WaitForDistributionInvalidation: false,
      });
    });

    it('may invalidate its own distribution only: no CloudFront grant on every distribution (*)', () => {
      const role = logicalIdOf(stack.website.node.findChild('DeploymentRole'));
      const all = statementsOfRole(template, role);
      const cloudFront = all.filter((statement) => JSON.stringify(statement.Action).includes('cloudfront:'));

      expect(cloudFront).toEqual([
        {
          Effect: 'Allow',
          Action: ['cloudfront:CreateInvalidation', 'cloudfront:GetInvalidation'],
          Resource: {
            'Fn::Join': [
              '',
              [
                'arn:aws:cloudfront::',
                { Ref: 'AWS::AccountId' },
                ':distribution/',
                { Ref: logicalIdOf(stack.website.distribution) },
              ],
            ],
          },
        },
      ]);
      expect(all.map((statement) => statement.Resource)).not.toContain('*');
    });

    it('deploys one AWS CLI layer, the one the shared upload function uses', () => {
      const layers = Object.keys(template.findResources('AWS::Lambda::LayerVersion'));
      expect(layers).toHaveLength(1);
      const uploaders = Object.values(
        template.findResources('AWS::Lambda::Function', { Properties: { Runtime: 'python3.13' } }),
      );
      expect(uploaders).toHaveLength(1);
      expect(uploaders[0]?.Properties.Layers).toEqual([{ Ref: layers[0] }]);
    });
  });

  it('keeps its buckets and log groups when the stack is deleted, not when a first create fails', () => {
    for (const type of ['AWS::S3::Bucket', 'AWS::Logs::LogGroup']) {
      const resources = Object.entries(template.findResources(type));
      expect(resources.length).toBeGreaterThan(0);
      for (const [id, resource] of resources) {
        expect([id, resource.DeletionPolicy, resource.UpdateReplacePolicy]).toEqual([
          id,
          'RetainExceptOnCreate',
          'Retain',
        ]);
      }
    }
  });

  describe('without a custom domain', () => {
    it('is served on its cloudfront.net name', () => {
      expect(config.Aliases).toBeUndefined();
      expect(config.ViewerCertificate).toBeUndefined();
    });
  });
});
