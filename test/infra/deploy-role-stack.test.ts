import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { createShopApp, type ShopStacks } from '../../infra/lib/shop-app';
import {
  cdkJsonContext,
  fakeWebBuild,
  logicalIdOf,
  SKIP_BUNDLING,
  statementsOfRole,
  tempDir,
} from './support';

/*
 * The role GitHub Actions deploys with: built only when `-c deployRole=OWNER/NAME` asks for it,
 * trusted only by the repository's main branch and production environment through GitHub's OIDC
 * provider, and allowed only to assume the CDK bootstrap roles.
 */

function synth(context: Record<string, unknown>): ShopStacks {
  return createShopApp({
    context: { ...cdkJsonContext(), ...SKIP_BUNDLING, ...context },
    outdir: tempDir('shop-cdk-out-'),
    processEnv: {},
    siteDir: fakeWebBuild(),
  });
}

describe('GitHubDeployRoleStack', () => {
  let created: ShopStacks;
  let template: Template;
  let roleId: string;

  beforeAll(() => {
    created = synth({ deployRole: 'daphnia-direct/shop' });
    if (created.deployRole === undefined) throw new Error('-c deployRole asks for the stack');
    template = Template.fromStack(created.deployRole);
    roleId = logicalIdOf(created.deployRole.role);
  });

  it('is its own stack, LiveAquatics-GitHubDeploy, in the stage account and region', () => {
    expect(created.deployRole?.stackName).toBe('LiveAquatics-GitHubDeploy');
    expect(created.deployRole?.region).toBe('eu-west-2');
  });

  it("creates GitHub's OIDC provider for the sts.amazonaws.com audience", () => {
    template.resourceCountIs('AWS::IAM::OIDCProvider', 1);
    template.hasResourceProperties('AWS::IAM::OIDCProvider', {
      Url: 'https://token.actions.githubusercontent.com',
      ClientIdList: ['sts.amazonaws.com'],
    });
  });

  it("trusts only the repository's main branch and its production environment, through the provider", () => {
    const role = template.toJSON().Resources[roleId].Properties;
    const providerId = Object.keys(template.findResources('AWS::IAM::OIDCProvider'))[0];

    expect(role.AssumeRolePolicyDocument.Statement).toEqual([
      {
        Effect: 'Allow',
        Action: 'sts:AssumeRoleWithWebIdentity',
        Principal: { Federated: { Ref: providerId } },
        Condition: {
          StringEquals: {
            'token.actions.githubusercontent.com:aud': 'sts.amazonaws.com',
            'token.actions.githubusercontent.com:sub': [
              'repo:daphnia-direct/shop:ref:refs/heads/main',
              'repo:daphnia-direct/shop:environment:production',
            ],
          },
        },
      },
    ]);
    expect(role.ManagedPolicyArns).toBeUndefined();
    expect(role.Policies).toBeUndefined();
  });

  it("may only assume this account's CDK deploy, file-publishing and lookup roles", () => {
    const bootstrapRole = (kind: string) => ({
      'Fn::Join': [
        '',
        [
          'arn:aws:iam::',
          { Ref: 'AWS::AccountId' },
          `:role/cdk-*-${kind}-role-`,
          { Ref: 'AWS::AccountId' },
          '-*',
        ],
      ],
    });

    expect(statementsOfRole(template, roleId)).toEqual([
      {
        Effect: 'Allow',
        Action: 'sts:AssumeRole',
        Resource: [bootstrapRole('deploy'), bootstrapRole('file-publishing'), bootstrapRole('lookup')],
      },
    ]);
  });

  it('outputs the role ARN for the repository variable AWS_DEPLOY_ROLE_ARN', () => {
    template.hasOutput('DeployRoleArn', { Value: { 'Fn::GetAtt': [roleId, 'Arn'] } });
  });

  it('passes cdk-nag: synthesis throws on any finding nobody acknowledged', () => {
    expect(() => created.app.synth()).not.toThrow();
  });

  it("uses the account's existing provider when given its ARN, creating none", () => {
    const arn = 'arn:aws:iam::123456789012:oidc-provider/token.actions.githubusercontent.com';
    const imported = synth({ deployRole: 'daphnia-direct/shop', githubOidcProviderArn: arn }).deployRole;
    if (imported === undefined) throw new Error('-c deployRole asks for the stack');
    const importedTemplate = Template.fromStack(imported);

    importedTemplate.resourceCountIs('AWS::IAM::OIDCProvider', 0);
    const role = importedTemplate.toJSON().Resources[logicalIdOf(imported.role)].Properties;
    expect(role.AssumeRolePolicyDocument.Statement[0].Principal).toEqual({ Federated: arn });
  });

  it('is not part of the app without -c deployRole, so a stage deploy never touches it', () => {
    const plain = synth({});

    expect(plain.deployRole).toBeUndefined();
    expect(plain.app.node.children.map((child) => child.node.id)).not.toContain('LiveAquatics-GitHubDeploy');
  });

  it.each([
    ['a repository without an owner', { deployRole: 'shop' }, /OWNER\/NAME/],
    ['a wildcard repository', { deployRole: 'daphnia-direct/*' }, /OWNER\/NAME/],
    [
      "another issuer's provider",
      {
        deployRole: 'daphnia-direct/shop',
        githubOidcProviderArn: 'arn:aws:iam::123456789012:oidc-provider/accounts.google.com',
      },
      /token\.actions\.githubusercontent\.com OIDC provider/,
    ],
  ])('refuses %s, naming what it expects', (_case, context, message) => {
    expect(() => synth(context)).toThrow(message);
  });
});
