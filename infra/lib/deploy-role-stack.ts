import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import {
  type IOidcProvider,
  OidcProviderNative,
  PolicyStatement,
  Role,
  WebIdentityPrincipal,
} from 'aws-cdk-lib/aws-iam';
import type { Construct, Node } from 'constructs';
import { z } from 'zod';
import { acknowledgeNag, nagValue } from './nag';

/** GitHub Actions' OIDC issuer: its tokens' `iss`, and the prefix of the trust policy's condition keys. */
export const GITHUB_OIDC_ISSUER = 'token.actions.githubusercontent.com';

/** The audience aws-actions/configure-aws-credentials asks GitHub to put in the token. */
export const GITHUB_OIDC_AUDIENCE = 'sts.amazonaws.com';

/** The GitHub environment whose required reviewers gate the prod deploy (.github/workflows/deploy.yml). */
export const PRODUCTION_ENVIRONMENT = 'production';

/** The branch that deploys. */
export const DEPLOY_BRANCH = 'main';

/** The CDK bootstrap roles a deploy goes through; the deploy role may assume these and nothing else. */
export const BOOTSTRAP_ROLE_KINDS = ['deploy', 'file-publishing', 'lookup'] as const;

/** The context key that asks for this stack: `-c deployRole=OWNER/NAME`. */
export const DEPLOY_ROLE_CONTEXT = 'deployRole';

/** The context key naming the account's existing GitHub OIDC provider, when there is one. */
export const GITHUB_OIDC_PROVIDER_CONTEXT = 'githubOidcProviderArn';

const deployRoleContextSchema = z.object({
  repository: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/, {
      error: `expected the GitHub repository as OWNER/NAME, e.g. -c ${DEPLOY_ROLE_CONTEXT}=daphnia-direct/shop`,
    }),
  oidcProviderArn: z
    .string()
    .trim()
    .regex(
      new RegExp(`^arn:aws[a-z-]*:iam::\\d{12}:oidc-provider/${GITHUB_OIDC_ISSUER.replaceAll('.', '\\.')}$`),
      {
        error: `expected the ARN of the account's ${GITHUB_OIDC_ISSUER} OIDC provider`,
      },
    )
    .optional(),
});

/** What the deploy role stack is built from. */
export type DeployRoleSettings = z.infer<typeof deployRoleContextSchema>;

/**
 * The deploy role's settings from context, or undefined when `deployRole` is not given: the
 * stage's own deploys (`npm run deploy`) never create or change the role.
 */
export function readDeployRoleContext(node: Node): DeployRoleSettings | undefined {
  const repository: unknown = node.tryGetContext(DEPLOY_ROLE_CONTEXT);
  if (repository === undefined) return undefined;
  const providerArn: unknown = node.tryGetContext(GITHUB_OIDC_PROVIDER_CONTEXT);
  const parsed = deployRoleContextSchema.safeParse({
    repository,
    oidcProviderArn: providerArn === '' ? undefined : providerArn,
  });
  if (!parsed.success) {
    throw new Error(
      `Invalid deploy role context: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

export interface GitHubDeployRoleStackProps extends StackProps, DeployRoleSettings {}

/**
 * GitHub Actions' deploy role through OIDC (no AWS key in GitHub): main and the `production`
 * environment may assume it, and it may only assume the CDK bootstrap roles. One per account.
 */
export class GitHubDeployRoleStack extends Stack {
  readonly provider: IOidcProvider;
  readonly role: Role;

  constructor(scope: Construct, id: string, props: GitHubDeployRoleStackProps) {
    super(scope, id, props);

    // An account holds one provider per issuer URL: import it when another stack made it.
    this.provider =
      props.oidcProviderArn === undefined
        ? new OidcProviderNative(this, 'GitHubOidcProvider', {
            url: `https://${GITHUB_OIDC_ISSUER}`,
            clientIds: [GITHUB_OIDC_AUDIENCE],
            // No thumbprints: IAM checks GitHub's certificate against its own trusted CAs.
          })
        : OidcProviderNative.fromOidcProviderArn(this, 'GitHubOidcProvider', props.oidcProviderArn);

    this.role = new Role(this, 'DeployRole', {
      description: `GitHub Actions deploys of ${props.repository} (${DEPLOY_BRANCH} and the ${PRODUCTION_ENVIRONMENT} environment)`,
      assumedBy: new WebIdentityPrincipal(this.provider.oidcProviderArn, {
        StringEquals: {
          [`${GITHUB_OIDC_ISSUER}:aud`]: GITHUB_OIDC_AUDIENCE,
          // A job without an environment presents its branch; one in an environment presents that instead.
          [`${GITHUB_OIDC_ISSUER}:sub`]: [
            `repo:${props.repository}:ref:refs/heads/${DEPLOY_BRANCH}`,
            `repo:${props.repository}:environment:${PRODUCTION_ENVIRONMENT}`,
          ],
        },
      }),
    });
    this.role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['sts:AssumeRole'],
        resources: BOOTSTRAP_ROLE_KINDS.map((kind) =>
          this.formatArn({
            service: 'iam',
            region: '',
            resource: 'role',
            resourceName: `cdk-*-${kind}-role-${this.account}-*`,
          }),
        ),
      }),
    );
    const account = nagValue(this.account, 'AWS::AccountId');
    for (const kind of BOOTSTRAP_ROLE_KINDS) {
      acknowledgeNag(
        this.role,
        `AwsSolutions-IAM5[Resource::arn:${nagValue(this.partition, 'AWS::Partition')}:iam::${account}:role/cdk-*-${kind}-role-${account}-*]`,
        `The CDK bootstrap ${kind} role is named cdk-<qualifier>-${kind}-role-<account>-<region>: the wildcards stand for the qualifier and the region (the shop deploys to its region and to us-east-1). Control: only this account's bootstrap roles match, and only this repository's main branch and production environment can assume this role.`,
      );
    }

    new CfnOutput(this, 'DeployRoleArn', {
      value: this.role.roleArn,
      description: 'The GitHub repository variable AWS_DEPLOY_ROLE_ARN',
    });
  }
}
