import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ShopEdgeStack } from '../../infra/lib/edge-stack';
import type { ShopStack } from '../../infra/lib/shop-stack';
import { PUBLIC_API_ROUTES } from '../../shared/public-routes';
import { logicalIdOf, statementsOfRole, synthShop } from './support';

/*
 * Abuse resistance in the default production configuration: a WAF with per-client rate limits in
 * front of CloudFront (us-east-1), and an API that answers only requests that came through it.
 */
const PROD = {
  stage: 'prod',
  stripeLivemode: 'true',
  senderEmail: 'orders@daphnia-direct.co.uk',
  merchantEmail: 'owner@daphnia-direct.co.uk',
  sellerName: 'Daphnia Direct Ltd',
  sellerAddress: '4 Pond Lane, Norwich NR1 1AA',
  sellerEmail: 'hello@daphnia-direct.co.uk',
};

describe('abuse resistance (prod)', () => {
  let stack: ShopStack;
  let edge: ShopEdgeStack;
  let template: Template;
  let edgeTemplate: Template;

  beforeAll(() => {
    const synthesised = synthShop(PROD);
    ({ stack, template } = synthesised);
    const built = synthesised.edge;
    if (built === undefined) throw new Error('prod has the WAF by default');
    edge = built;
    edgeTemplate = Template.fromStack(edge);
  });

  describe('WAF', () => {
    it('is its own stack in us-east-1, the only region CloudFront takes web ACLs from', () => {
      expect([edge.stackName, edge.region]).toEqual(['LiveAquatics-prod-Edge', 'us-east-1']);
      edgeTemplate.hasResourceProperties('AWS::WAFv2::WebACL', {
        Name: 'LiveAquatics-prod',
        Scope: 'CLOUDFRONT',
        DefaultAction: { Allow: {} },
      });
    });

    it('limits each client to 10 create-checkouts a minute, matched on the URL-decoded, lower-cased path (create%2Dcheckout counts), answering 429', () => {
      const rules = Object.values(edgeTemplate.findResources('AWS::WAFv2::WebACL'))[0]?.Properties.Rules;
      expect(rules[0]).toMatchObject({
        Name: 'CheckoutPerClient',
        Priority: 0,
        Action: { Block: { CustomResponse: { ResponseCode: 429 } } },
        Statement: {
          RateBasedStatement: {
            Limit: 10,
            EvaluationWindowSec: 60,
            AggregateKeyType: 'IP',
            ScopeDownStatement: {
              ByteMatchStatement: {
                FieldToMatch: { UriPath: {} },
                PositionalConstraint: 'EXACTLY',
                SearchString: '/functions/v1/create-checkout',
                TextTransformations: [
                  { Priority: 0, Type: 'URL_DECODE' },
                  { Priority: 1, Type: 'LOWERCASE' },
                ],
              },
            },
          },
        },
      });
    });

    it("limits each client to 600 requests in 5 minutes overall, never counting Stripe's webhook calls", () => {
      const rules = Object.values(edgeTemplate.findResources('AWS::WAFv2::WebACL'))[0]?.Properties.Rules;
      expect(rules[1]).toMatchObject({
        Name: 'AllPerClient',
        Action: { Block: { CustomResponse: { ResponseCode: 429 } } },
        Statement: {
          RateBasedStatement: {
            Limit: 600,
            EvaluationWindowSec: 300,
            AggregateKeyType: 'IP',
            ScopeDownStatement: {
              NotStatement: {
                Statement: {
                  ByteMatchStatement: {
                    SearchString: '/functions/v1/stripe-webhook',
                    TextTransformations: [
                      { Priority: 0, Type: 'URL_DECODE' },
                      { Priority: 1, Type: 'LOWERCASE' },
                    ],
                  },
                },
              },
            },
          },
        },
      });
      expect(rules.map((r: { Name: string }) => r.Name)).toEqual([
        'CheckoutPerClient',
        'AllPerClient',
        'AmazonIpReputationList',
        'OrderPagePerClient',
      ]);
    });

    it('limits each client to 20 order page requests a minute (the read and the correction), answering 429', () => {
      const rules = Object.values(edgeTemplate.findResources('AWS::WAFv2::WebACL'))[0]?.Properties.Rules;
      const orderPath = (path: string) => ({
        ByteMatchStatement: {
          FieldToMatch: { UriPath: {} },
          PositionalConstraint: 'EXACTLY',
          SearchString: path,
          TextTransformations: [
            { Priority: 0, Type: 'URL_DECODE' },
            { Priority: 1, Type: 'LOWERCASE' },
          ],
        },
      });
      expect(rules[3]).toEqual({
        Name: 'OrderPagePerClient',
        Priority: 3,
        Action: { Block: { CustomResponse: { ResponseCode: 429 } } },
        Statement: {
          RateBasedStatement: {
            Limit: 20,
            EvaluationWindowSec: 60,
            AggregateKeyType: 'IP',
            ScopeDownStatement: {
              OrStatement: {
                Statements: [
                  orderPath('/functions/v1/order-page'),
                  orderPath('/functions/v1/order-page/address'),
                  orderPath('/functions/v1/order-page/standing-order'),
                ],
              },
            },
          },
        },
        VisibilityConfig: {
          CloudWatchMetricsEnabled: true,
          MetricName: 'LiveAquatics-prod-OrderPagePerClient',
          SampledRequestsEnabled: true,
        },
      });
    });

    it('is attached to the distribution through a cross-region stack output', () => {
      const distribution = template.toJSON().Resources[logicalIdOf(stack.website.distribution)].Properties;
      expect(distribution.DistributionConfig.WebACLId).toEqual({
        'Fn::GetStackOutput': {
          StackName: 'LiveAquatics-prod-Edge',
          Region: 'us-east-1',
          OutputName: expect.stringMatching(/^PublishOutputFnGetAttWebAcl/),
        },
      });
    });

    it('is off in dev, which needs no acknowledgement of CFR2 anywhere else', () => {
      const dev = synthShop();
      expect(dev.edge).toBeUndefined();
      const devDistribution = dev.template.toJSON().Resources[logicalIdOf(dev.stack.website.distribution)];
      expect(devDistribution.Properties.DistributionConfig.WebACLId).toBeUndefined();
    });
  });

  describe('the API only through CloudFront', () => {
    it('sends the origin-verify secret as a header on the API origin, resolved at deploy time', () => {
      const origins =
        template.toJSON().Resources[logicalIdOf(stack.website.distribution)].Properties.DistributionConfig
          .Origins;
      const api = origins.find((o: { CustomOriginConfig?: unknown }) => o.CustomOriginConfig !== undefined);
      expect(api.OriginCustomHeaders).toEqual([
        {
          HeaderName: 'x-origin-verify',
          HeaderValue: {
            'Fn::Join': [
              '',
              [
                '{{resolve:secretsmanager:',
                { Ref: expect.stringMatching(/^OriginVerifySecret/) },
                ':SecretString:::}}',
              ],
            ],
          },
        },
      ]);
    });

    it('checks every public route with the origin-verify authorizer, cached 5 minutes per origin-verify value and viewer address; the admin routes with the merchant sign-in', () => {
      const authorizers = Object.entries(template.findResources('AWS::ApiGatewayV2::Authorizer'));
      const ofType = (type: string) => authorizers.filter(([, a]) => a.Properties.AuthorizerType === type);
      expect([ofType('REQUEST').length, ofType('JWT').length, authorizers.length]).toEqual([1, 1, 2]);
      const [authorizerId, authorizer] = ofType('REQUEST')[0] ?? [];
      expect(authorizer?.Properties).toMatchObject({
        AuthorizerType: 'REQUEST',
        AuthorizerPayloadFormatVersion: '2.0',
        EnableSimpleResponses: true,
        // The answer's context (the viewer's address, for the access log) is cached with it.
        IdentitySource: ['$request.header.x-origin-verify', '$request.header.cloudfront-viewer-address'],
        AuthorizerResultTtlInSeconds: 300,
      });
      const [jwtId] = ofType('JWT')[0] ?? [];
      const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route'));
      const isAdmin = (route: (typeof routes)[number]) =>
        String(route.Properties.RouteKey).includes(' /functions/v1/admin/');
      const isSession = (route: (typeof routes)[number]) =>
        String(route.Properties.RouteKey).includes(' /functions/v1/admin/session/');
      expect([routes.filter((r) => !isAdmin(r)).length, routes.filter(isAdmin).length]).toEqual([7, 31]);
      expect(routes.filter(isSession).length).toBe(3);
      for (const route of routes) {
        // The admin Lambda makes the origin check itself: a route takes one authorizer, but the
        // session routes, whose credential is their cookie (ADR 0055), checked by the Lambda.
        expect(route.Properties).toMatchObject(
          isSession(route)
            ? { AuthorizationType: 'NONE' }
            : isAdmin(route)
              ? { AuthorizationType: 'JWT', AuthorizerId: { Ref: jwtId } }
              : { AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: authorizerId } },
        );
      }
    });

    it("forwards CloudFront's viewer address on every public route, since API Gateway refuses (401) a request without it", () => {
      const behaviours: Array<{ PathPattern: string; OriginRequestPolicyId: string }> =
        template.toJSON().Resources[logicalIdOf(stack.website.distribution)].Properties.DistributionConfig
          .CacheBehaviors;
      // CloudFront takes the first pattern that matches; each public route falls to /functions/v1/*.
      const patternOf = (path: string) =>
        behaviours.find((b) => new RegExp(`^${b.PathPattern.replaceAll('*', '.*')}$`).test(path))
          ?.PathPattern;
      expect(Object.values(PUBLIC_API_ROUTES).map((route) => [route.path, patternOf(route.path)])).toEqual([
        ['/functions/v1/create-checkout', '/functions/v1/*'],
        ['/functions/v1/checkout-status', '/functions/v1/*'],
        ['/functions/v1/stripe-webhook', '/functions/v1/*'],
        ['/functions/v1/shop-status', '/functions/v1/*'],
        ['/functions/v1/order-page', '/functions/v1/*'],
        ['/functions/v1/order-page/address', '/functions/v1/*'],
        ['/functions/v1/order-page/standing-order', '/functions/v1/*'],
      ]);
      // AWS's managed AllViewerExceptHostHeader, which adds CloudFront's viewer headers, the
      // viewer's address (CloudFront-Viewer-Address) among them, to every viewer header but Host.
      expect(behaviours.find((b) => b.PathPattern === '/functions/v1/*')?.OriginRequestPolicyId).toBe(
        'b689b0a8-53d0-40ab-baf2-68738e2966ac',
      );
    });

    it('lets only the authorizer and the admin API (which checks the origin itself) read the origin-verify secret', () => {
      // The secret's logical ID from before the stack was split into constructs: a new one replaces it.
      const secretRef = JSON.stringify({ Ref: 'OriginVerifySecret1DED2FB3' });
      const readers = [...Object.entries(stack.functions), ['originVerifier', stack.originVerifier] as const]
        .filter(([, fn]) =>
          JSON.stringify(statementsOfRole(template, logicalIdOf(fn.role))).includes(secretRef),
        )
        .map(([name]) => name);
      expect(readers).toEqual(['adminApi', 'originVerifier']);
    });
  });
});
