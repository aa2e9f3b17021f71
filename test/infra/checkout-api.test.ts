import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ACCESS_LOG_FIELDS,
  API_ROUTE_NAMES,
  DEFAULT_ROUTE_THROTTLES,
  DEFAULT_STAGE_THROTTLE,
  routeKeyOf,
} from '../../infra/lib/constructs/checkout-api';
import type { ShopStack } from '../../infra/lib/shop-stack';
import { PUBLIC_API_ROUTES } from '../../shared/public-routes';
import { logicalIdOf, synthShop } from './support';

describe('CheckoutApi', () => {
  let stack: ShopStack;
  let template: Template;

  beforeAll(() => {
    ({ stack, template } = synthShop());
  });

  it('is named after its stage, so two stages are told apart in the console and CLI', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      Name: 'LiveAquatics-dev',
      ProtocolType: 'HTTP',
    });
  });

  it('has exactly the seven public routes of the contract, each on its function through a payload 2.0 proxy', () => {
    const routes = template.findResources('AWS::ApiGatewayV2::Route');
    expect(
      Object.values(routes)
        .map((r) => r.Properties.RouteKey)
        // The admin routes are the merchant's, behind their own authorizer (merchant-admin.test.ts).
        .filter((key) => !String(key).includes('/functions/v1/admin/'))
        .sort(),
    ).toEqual([
      'GET /functions/v1/checkout-status',
      'GET /functions/v1/order-page',
      'GET /functions/v1/shop-status',
      'POST /functions/v1/create-checkout',
      'POST /functions/v1/order-page/address',
      'POST /functions/v1/order-page/standing-order',
      'POST /functions/v1/stripe-webhook',
    ]);

    // Each route's handler is the stack function of the same name; the page's three share one.
    for (const name of API_ROUTE_NAMES) {
      const functionName =
        name === 'orderPageAddress' || name === 'orderPageStandingOrder' ? 'orderPage' : name;
      template.hasResourceProperties('AWS::ApiGatewayV2::Integration', {
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
        IntegrationUri: { 'Fn::GetAtt': [logicalIdOf(stack.functions[functionName].function), 'Arn'] },
      });
      template.hasResourceProperties('AWS::ApiGatewayV2::Route', {
        RouteKey: routeKeyOf(name),
        Target: Match.anyValue(),
      });
    }
  });

  it("puts the order page's two routes behind the origin-verify authorizer, as checkout's", () => {
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route'));
    const authorizerOf = (key: string) => {
      const route = routes.find((r) => r.Properties.RouteKey === key);
      return [route?.Properties.AuthorizationType, route?.Properties.AuthorizerId];
    };
    const checkout = authorizerOf('POST /functions/v1/create-checkout');
    expect(checkout[0]).toBe('CUSTOM');
    expect(checkout[1]).toEqual({ Ref: expect.stringMatching(/OriginVerify/) });
    expect(authorizerOf('GET /functions/v1/order-page')).toEqual(checkout);
    expect(authorizerOf('POST /functions/v1/order-page/address')).toEqual(checkout);
  });

  it('lets API Gateway invoke each function only for its own route', () => {
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'apigateway.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [logicalIdOf(stack.functions.stripeWebhook.function), 'Arn'] },
      SourceArn: {
        'Fn::Join': ['', Match.arrayWith([`/*/*${PUBLIC_API_ROUTES.stripeWebhook.path}`])],
      },
    });
  });

  describe('throttling', () => {
    it('API throttling on every route, through the stage default', () => {
      template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
        StageName: '$default',
        AutoDeploy: true,
        DefaultRouteSettings: {
          ThrottlingRateLimit: DEFAULT_STAGE_THROTTLE.rateLimit,
          ThrottlingBurstLimit: DEFAULT_STAGE_THROTTLE.burstLimit,
        },
      });
    });

    it('API throttling: an explicit limit on each route, the lowest on checkout', () => {
      const stage = Object.values(template.findResources('AWS::ApiGatewayV2::Stage'))[0];
      const settings = stage?.Properties.RouteSettings;
      expect(settings).toEqual({
        'POST /functions/v1/create-checkout': { ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 },
        'GET /functions/v1/checkout-status': { ThrottlingRateLimit: 30, ThrottlingBurstLimit: 60 },
        'POST /functions/v1/stripe-webhook': { ThrottlingRateLimit: 40, ThrottlingBurstLimit: 80 },
        'GET /functions/v1/shop-status': { ThrottlingRateLimit: 30, ThrottlingBurstLimit: 60 },
        'GET /functions/v1/order-page': { ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 },
        'POST /functions/v1/order-page/address': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
        'POST /functions/v1/order-page/standing-order': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
      });
      const checkout = DEFAULT_ROUTE_THROTTLES.createCheckout;
      for (const other of [
        DEFAULT_STAGE_THROTTLE,
        DEFAULT_ROUTE_THROTTLES.checkoutStatus,
        DEFAULT_ROUTE_THROTTLES.stripeWebhook,
        DEFAULT_ROUTE_THROTTLES.shopStatus,
      ]) {
        expect(checkout.rateLimit).toBeLessThan(other.rateLimit);
        expect(checkout.burstLimit).toBeLessThan(other.burstLimit);
      }
    });

    it('creates the stage after its routes, since route settings name them', () => {
      const stage = template.toJSON().Resources[logicalIdOf(stack.api.stage)];
      for (const name of API_ROUTE_NAMES) {
        expect(stage.DependsOn).toContain(logicalIdOf(stack.api.routes[name]));
      }
    });
  });

  describe('access logs', () => {
    it('writes one JSON line per request to a log group kept three months', () => {
      template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
        AccessLogSettings: {
          DestinationArn: { 'Fn::GetAtt': [logicalIdOf(stack.api.accessLogs), 'Arn'] },
          Format: JSON.stringify(ACCESS_LOG_FIELDS),
        },
      });
      expect(template.toJSON().Resources[logicalIdOf(stack.api.accessLogs)].Properties.RetentionInDays).toBe(
        90,
      );
    });

    it('logs the route and status (for the webhook 5xx alarm) but no path, query or headers', () => {
      expect(ACCESS_LOG_FIELDS).toMatchObject({
        requestId: '$context.requestId',
        routeKey: '$context.routeKey',
        status: '$context.status',
      });
      const values = Object.values(ACCESS_LOG_FIELDS).join(' ');
      expect(values).not.toMatch(/\$context\.(path|querystring|requestOverride)|header/i);
    });

    it("logs the viewer's address from the origin-verify authorizer's context beside CloudFront's edge", () => {
      const stage = Object.values(template.findResources('AWS::ApiGatewayV2::Stage'))[0];
      expect(JSON.parse(stage?.Properties.AccessLogSettings.Format)).toMatchObject({
        sourceIp: '$context.identity.sourceIp',
        viewerAddress: '$context.authorizer.viewerAddress',
      });
    });
  });

  describe('CORS', () => {
    it('has none on the cloudfront.net name: the site calls the API on its own origin', () => {
      const api = template.toJSON().Resources[logicalIdOf(stack.api.httpApi)];
      expect(api.Properties.CorsConfiguration).toBeUndefined();
      expect(api.Properties.ProtocolType).toBe('HTTP');
    });
  });
});
