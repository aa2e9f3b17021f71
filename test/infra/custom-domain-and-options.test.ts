import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ShopStack } from '../../infra/lib/shop-stack';
import { CUSTOM_DOMAIN_CONTEXT, environmentOf, logicalIdOf, synthShop } from './support';

/*
 * The stack with every optional setting turned the other way, synthesised once: a custom domain in
 * a Route 53 zone (which is also the sender's domain), live mode, no reserved concurrency, and a
 * separate alarm address.
 */
describe('custom domain and options', () => {
  let stack: ShopStack;
  let template: Template;
  let dataTemplate: Template;

  beforeAll(() => {
    ({ stack, template, dataTemplate } = synthShop({
      ...CUSTOM_DOMAIN_CONTEXT,
      stripeLivemode: 'true',
      reservedConcurrency: 'false',
      sesIdentity: 'domain',
      alarmEmail: 'alerts@example.com',
    }));
  });

  describe('custom domain', () => {
    let distribution: Record<string, unknown>;
    beforeAll(() => {
      distribution =
        template.toJSON().Resources[logicalIdOf(stack.website.distribution)].Properties.DistributionConfig;
    });

    it('serves the domain with its ACM certificate, SNI and the 2025 TLS 1.2 policy', () => {
      expect(distribution).toMatchObject({
        Aliases: ['shop.example.co.uk'],
        ViewerCertificate: {
          AcmCertificateArn: CUSTOM_DOMAIN_CONTEXT.certificateArn,
          MinimumProtocolVersion: 'TLSv1.2_2025',
          SslSupportMethod: 'sni-only',
        },
      });
    });

    it('needs no acknowledgement of the default-certificate TLS rule (CFR4)', () => {
      const acks = stack.website.distribution.node.metadata.map((m) => JSON.stringify(m.data));
      expect(acks.join(' ')).not.toContain('AwsSolutions-CFR4');
    });

    it('writes IPv4 and IPv6 alias records in the hosted zone', () => {
      for (const type of ['A', 'AAAA']) {
        template.hasResourceProperties('AWS::Route53::RecordSet', {
          Name: 'shop.example.co.uk.',
          Type: type,
          HostedZoneId: CUSTOM_DOMAIN_CONTEXT.hostedZoneId,
          AliasTarget: Match.objectLike({ DNSName: Match.anyValue() }),
        });
      }
    });

    it('allows only the site origin to call the API cross-origin', () => {
      template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
        CorsConfiguration: {
          AllowOrigins: ['https://shop.example.co.uk'],
          AllowMethods: ['GET', 'POST'],
          AllowHeaders: ['content-type', 'idempotency-key', 'authorization'],
        },
      });
    });

    it('uses the domain for the site URL and the webhook URL', () => {
      const outputs = template.toJSON().Outputs;
      expect(outputs.SiteUrl.Value).toBe('https://shop.example.co.uk');
      expect(outputs.StripeWebhookUrl.Value).toBe('https://shop.example.co.uk/functions/v1/stripe-webhook');
      const checkoutEnv = environmentOf(template, stack.functions.createCheckout);
      expect(checkoutEnv.SITE_URL).toBe('https://shop.example.co.uk');
    });

    it('verifies the sender domain with Easy DKIM records in the zone, so none are outputs', () => {
      dataTemplate.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'shop.example.co.uk' });
      expect(
        Object.keys(dataTemplate.findResources('AWS::Route53::RecordSet', { Properties: { Type: 'CNAME' } })),
      ).toHaveLength(3);
      expect(Object.keys(dataTemplate.toJSON().Outputs).filter((key) => key.startsWith('Dkim'))).toEqual([]);
    });
  });

  it('runs the webhook in live mode when stripeLivemode is true', () => {
    const {
      shopStatus: _noStripe,
      weatherNotice: _forecastOnly,
      orderPage: _tableOnly,
      ...stripeFunctions
    } = stack.functions;
    for (const shopFunction of Object.values(stripeFunctions)) {
      const variables = environmentOf(template, shopFunction);
      expect(variables.STRIPE_LIVEMODE).toBe('true');
    }
  });

  it('reserves no concurrency when the account cannot spare it', () => {
    const shopFunctions = template.findResources('AWS::Lambda::Function', {
      Properties: { Runtime: 'nodejs24.x' },
    });
    // The eight shop functions (the admin API, the weather notice and the order page among them) and the origin-verify authorizer.
    expect(Object.keys(shopFunctions)).toHaveLength(9);
    for (const resource of Object.values(shopFunctions)) {
      expect(resource.Properties.ReservedConcurrentExecutions).toBeUndefined();
    }
  });

  it('sends alarms to alarmEmail when it is set', () => {
    dataTemplate.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'alerts@example.com',
    });
  });
});
