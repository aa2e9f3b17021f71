import { Match, Template } from 'aws-cdk-lib/assertions';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { PublicHostedZone } from 'aws-cdk-lib/aws-route53';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { beforeAll, describe, expect, it } from 'vitest';
import { SEND_EMAIL_ACTIONS, ShopEmail, type ShopEmailProps } from '../../infra/lib/constructs/email';
import { constructStack, logicalIdOf, sesArn } from './support';

function build(props: Partial<ShopEmailProps> = {}) {
  const stack = constructStack();
  const topic = new Topic(stack, 'Problems');
  const email = new ShopEmail(stack, 'Email', {
    senderEmail: 'orders@shop.example.co.uk',
    merchantEmail: 'owner@gmail.example',
    deliveryProblemsTopic: topic,
    ...props,
  });
  const sender = new Role(stack, 'Sender', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
  email.grantSend(sender);
  return { stack, email, topic, template: Template.fromStack(stack) };
}

function senderOf(email: ShopEmail) {
  if (email.senderIdentity === undefined) throw new Error('expected a sender identity');
  return email.senderIdentity;
}

describe('ShopEmail', () => {
  // The tests that only read the default set-up share one stack.
  let defaults: ReturnType<typeof build>;
  beforeAll(() => {
    defaults = build();
  });

  it("verifies the sender's domain by default, and the merchant address (so notices reach it in the sandbox)", () => {
    const { template } = defaults;

    template.resourceCountIs('AWS::SES::EmailIdentity', 2);
    template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'shop.example.co.uk' });
    template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'owner@gmail.example' });
  });

  it('outputs the three Easy DKIM CNAME records for any DNS provider when no Route 53 zone holds the domain', () => {
    const { template, email } = defaults;
    const outputs = template.toJSON().Outputs;
    const sender = email.senderIdentity;
    if (sender === undefined) throw new Error('expected a sender identity');

    for (const n of [1, 2, 3]) {
      expect(outputs[`DkimRecord${n}Name`].Value).toEqual({
        'Fn::GetAtt': [logicalIdOf(sender), `DkimDNSTokenName${n}`],
      });
      expect(outputs[`DkimRecord${n}Value`].Value).toEqual({
        'Fn::GetAtt': [logicalIdOf(sender), `DkimDNSTokenValue${n}`],
      });
    }
    template.resourceCountIs('AWS::Route53::RecordSet', 0);
  });

  it('verifies only the sender address in address mode (a sender on a domain you do not control)', () => {
    const { template } = build({ identityMode: 'address' });

    template.resourceCountIs('AWS::SES::EmailIdentity', 2);
    template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'orders@shop.example.co.uk' });
    expect(Object.keys(template.toJSON().Outputs ?? {})).toEqual([]);
  });

  it('does not verify the merchant twice when it is also the sender, or in the verified domain', () => {
    build({ identityMode: 'address', merchantEmail: 'orders@shop.example.co.uk' }).template.resourceCountIs(
      'AWS::SES::EmailIdentity',
      1,
    );
    build({ merchantEmail: 'owner@shop.example.co.uk' }).template.resourceCountIs(
      'AWS::SES::EmailIdentity',
      1,
    );
  });

  it('creates no identity in existing mode, and may send as the address or its domain, whichever is verified', () => {
    const { template, email } = build({ identityMode: 'existing' });

    template.resourceCountIs('AWS::SES::EmailIdentity', 0);
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: [
          {
            Effect: 'Allow',
            Action: [...SEND_EMAIL_ACTIONS],
            Resource: Match.arrayEquals([
              sesArn(':configuration-set/', { Ref: logicalIdOf(email.configurationSet) }),
              sesArn(':identity/orders@shop.example.co.uk'),
              sesArn(':identity/owner@gmail.example'),
              sesArn(':identity/shop.example.co.uk'),
            ]),
          },
        ],
      },
    });
  });

  it('sends through a configuration set that requires TLS and suppresses bounces and complaints', () => {
    const { template, email } = defaults;

    template.hasResourceProperties('AWS::SES::ConfigurationSet', {
      DeliveryOptions: { TlsPolicy: 'REQUIRE' },
      SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
      ReputationOptions: { ReputationMetricsEnabled: true },
    });
    template.hasResourceProperties('AWS::SES::EmailIdentity', {
      EmailIdentity: 'shop.example.co.uk',
      ConfigurationSetAttributes: { ConfigurationSetName: { Ref: logicalIdOf(email.configurationSet) } },
    });
  });

  it('reports bounces, complaints, rejections and rendering failures to the alarm topic', () => {
    const { template, topic } = defaults;

    template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      EventDestination: {
        Enabled: true,
        MatchingEventTypes: ['bounce', 'complaint', 'reject', 'renderingFailure'],
        SnsDestination: { TopicARN: { Ref: logicalIdOf(topic) } },
      },
    });
  });

  it('grants SendEmail and SendRawEmail on the sender, the merchant and the configuration set, nothing else', () => {
    const { template, email } = defaults;

    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: [
          {
            Effect: 'Allow',
            Action: [...SEND_EMAIL_ACTIONS],
            Resource: Match.arrayEquals([
              sesArn(':configuration-set/', { Ref: logicalIdOf(email.configurationSet) }),
              sesArn(':identity/', { Ref: logicalIdOf(senderOf(email)) }),
              sesArn(':identity/owner@gmail.example'),
            ]),
          },
        ],
      },
    });
    expect(SEND_EMAIL_ACTIONS).toEqual(['ses:SendEmail', 'ses:SendRawEmail']);
  });

  it('verifies the whole domain with Easy DKIM records when it owns the hosted zone', () => {
    const stack = constructStack();
    const zone = PublicHostedZone.fromPublicHostedZoneAttributes(stack, 'Zone', {
      hostedZoneId: 'Z0123456789ABCDEFGHIJ',
      zoneName: 'shop.example.co.uk',
    });
    new ShopEmail(stack, 'Email', {
      senderEmail: 'orders@shop.example.co.uk',
      merchantEmail: 'owner@shop.example.co.uk',
      hostedZone: zone,
    });
    const template = Template.fromStack(stack);

    // The domain covers the merchant's address too: one identity.
    template.resourceCountIs('AWS::SES::EmailIdentity', 1);
    template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'shop.example.co.uk' });
    template.resourceCountIs('AWS::Route53::RecordSet', 3);
    template.hasResourceProperties('AWS::Route53::RecordSet', {
      Type: 'CNAME',
      HostedZoneId: 'Z0123456789ABCDEFGHIJ',
    });
  });
});
