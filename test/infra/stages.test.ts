import { Stack } from 'aws-cdk-lib';
import { type Template, Template as Templates } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { createShopApp } from '../../infra/lib/shop-app';
import { cdkJsonContext, fakeWebBuild, SKIP_BUNDLING, tempDir } from './support';

/*
 * Two stages of the shop in one AWS account and region: every name that must be unique in an
 * account (and region) has to differ between them, or the second deploy fails.
 */

const ACCOUNT = '123456789012';

/** Real-looking details: only the dev and local stages may deploy the cdk.json placeholders. */
const SHOP = {
  senderEmail: 'orders@daphnia-direct.co.uk',
  merchantEmail: 'owner@daphnia-direct.co.uk',
  sellerName: 'Daphnia Direct Ltd',
  sellerAddress: '4 Pond Lane, Norwich NR1 1AA',
  sellerEmail: 'hello@daphnia-direct.co.uk',
  account: ACCOUNT,
  region: 'eu-west-2',
};

/**
 * Where each resource type keeps a name that is unique per account (and region, or global for
 * CloudFront and Budgets). CDK generates most of them from the construct path, which starts with
 * the stack name; the shop sets a few itself.
 */
const UNIQUE_NAME_PATHS: Readonly<Record<string, readonly string[]>> = {
  'AWS::ApiGatewayV2::Api': ['Name'],
  'AWS::Budgets::Budget': ['Budget', 'BudgetName'],
  'AWS::SES::EmailIdentity': ['EmailIdentity'],
  'AWS::SES::ConfigurationSet': ['Name'],
  'AWS::SecretsManager::Secret': ['Name'],
  'AWS::DynamoDB::Table': ['TableName'],
  'AWS::Logs::LogGroup': ['LogGroupName'],
  'AWS::Lambda::Function': ['FunctionName'],
  'AWS::IAM::Role': ['RoleName'],
  'AWS::SNS::Topic': ['TopicName'],
  'AWS::S3::Bucket': ['BucketName'],
  'AWS::CloudFront::Function': ['Name'],
  'AWS::CloudFront::ResponseHeadersPolicy': ['ResponseHeadersPolicyConfig', 'Name'],
  'AWS::CloudFront::OriginRequestPolicy': ['OriginRequestPolicyConfig', 'Name'],
  'AWS::CloudFront::OriginAccessControl': ['OriginAccessControlConfig', 'Name'],
  'AWS::CloudWatch::Alarm': ['AlarmName'],
  'AWS::Events::Rule': ['Name'],
  'AWS::WAFv2::WebACL': ['Name'],
};

function stagesInOneAccount(stages: ReadonlyArray<Record<string, unknown>>): Stack[] {
  const siteDir = fakeWebBuild();
  return stages.flatMap((stage) => {
    const { app } = createShopApp({
      context: { ...cdkJsonContext(), ...SKIP_BUNDLING, ...SHOP, ...stage },
      siteDir,
      outdir: tempDir('shop-cdk-out-'),
      processEnv: {},
    });
    return app.node.children.filter((child) => Stack.isStack(child));
  });
}

/** `Type name` for every named resource, with the literal name (CloudFormation-generated names are unique anyway). */
function namesIn(template: Template): string[] {
  return Object.values(
    template.toJSON().Resources as Record<string, { Type: string; Properties?: unknown }>,
  ).flatMap((resource) => {
    const path = UNIQUE_NAME_PATHS[resource.Type];
    if (path === undefined) return [];
    let value: unknown = resource.Properties;
    for (const key of path) {
      value =
        typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
    }
    return typeof value === 'string' ? [`${resource.Type} ${value}`] : [];
  });
}

function clashes(stacks: readonly Stack[]): string[] {
  const names = [
    ...stacks.map((stack) => `stack ${stack.stackName}`),
    ...stacks.flatMap((stack) => namesIn(Templates.fromStack(stack))),
  ];
  return names.filter((name, index) => names.indexOf(name) !== index);
}

describe('two stages in one account', () => {
  it('synthesise every stack of both, with no name two of them would claim', () => {
    const stacks = stagesInOneAccount([
      { stage: 'prod', stripeLivemode: 'true' },
      // The sender is already verified by prod in this account and region: test uses it as is.
      { stage: 'test', sesIdentity: 'existing' },
    ]);

    expect(stacks.map((s) => `${s.stackName} ${s.region}`).sort()).toEqual(
      [
        'LiveAquatics-prod eu-west-2',
        'LiveAquatics-prod-Data eu-west-2',
        'LiveAquatics-prod-Edge us-east-1',
        'LiveAquatics-test eu-west-2',
        'LiveAquatics-test-Edge us-east-1',
        'LiveAquatics-test-Data eu-west-2',
      ].sort(),
    );
    for (const stack of stacks) {
      expect(stack.account, stack.stackName).toBe(ACCOUNT);
    }
    expect(clashes(stacks)).toEqual([]);
  });

  it('names what must be unique after the stage', () => {
    const names = stagesInOneAccount([{ stage: 'prod' }]).flatMap((stack) =>
      namesIn(Templates.fromStack(stack)),
    );

    expect(names).toEqual(
      expect.arrayContaining([
        'AWS::ApiGatewayV2::Api LiveAquatics-prod',
        'AWS::Budgets::Budget LiveAquatics-prod',
        'AWS::SES::EmailIdentity daphnia-direct.co.uk',
        'AWS::WAFv2::WebACL LiveAquatics-prod',
      ]),
    );
  });

  it('would clash on the SES identity if both stages created it (hence sesIdentity=existing)', () => {
    const stacks = stagesInOneAccount([{ stage: 'prod' }, { stage: 'test' }]);

    expect(clashes(stacks)).toEqual(['AWS::SES::EmailIdentity daphnia-direct.co.uk']);
  });
});
