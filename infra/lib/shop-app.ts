import { App, type Environment, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { DEFAULT_REGION } from '../../shared/stage-config';
import { readShopConfig, type ShopConfig } from './config';
import { ShopDataStack } from './data-stack';
import { GitHubDeployRoleStack, readDeployRoleContext } from './deploy-role-stack';
import { ShopEdgeStack } from './edge-stack';
import { REPO_ROOT } from './paths';
import { ShopStack } from './shop-stack';

/** Options of {@link createShopApp}; the CLI passes none, tests pass context and an output directory. */
export interface CreateShopAppOptions {
  /** Context to start with (the CLI supplies cdk.json and --context through the environment instead). */
  readonly context?: Record<string, unknown>;
  /** Where to write the cloud assembly. @default the CLI's, or a temporary directory */
  readonly outdir?: string;
  /** Stands in for process.env when resolving the account and region (CDK_DEFAULT_ACCOUNT/REGION). */
  readonly processEnv?: Readonly<Record<string, string | undefined>>;
  /** A site already built, deployed instead of building one from the stage's settings (tests). */
  readonly siteDir?: string;
}

/** The stacks of one stage, named so that several stages share an account without clashing. */
export interface ShopStacks {
  readonly app: App;
  readonly config: ShopConfig;
  readonly env: Environment;
  /** `LiveAquatics-<stage>-Data`: table, secrets, SES, alarm topic, budget (termination protection). */
  readonly data: ShopDataStack;
  /** `LiveAquatics-<stage>`: website, API, functions, alarms. */
  readonly stack: ShopStack;
  /** `LiveAquatics-<stage>-Edge` in us-east-1: the WAF web ACL, when `waf` is on. */
  readonly edge: ShopEdgeStack | undefined;
  /** `LiveAquatics-GitHubDeploy`: the GitHub Actions deploy role, only with `-c deployRole=OWNER/NAME`. */
  readonly deployRole: GitHubDeployRoleStack | undefined;
}

/**
 * The stage's account and region (config, the CLI's profile, then London). The region is always
 * concrete for the us-east-1 cross-region references; without credentials synthesis still works.
 */
export function stageEnvironment(
  config: Pick<ShopConfig, 'account' | 'region'>,
  processEnv: Readonly<Record<string, string | undefined>>,
): Environment {
  return {
    account: config.account ?? processEnv.CDK_DEFAULT_ACCOUNT,
    region: config.region ?? processEnv.CDK_DEFAULT_REGION ?? DEFAULT_REGION,
  };
}

/** The shop's CDK app for the stage in context, with cdk-nag failing synthesis on unacknowledged findings. */
export function createShopApp(options: CreateShopAppOptions = {}): ShopStacks {
  const app = new App({ context: options.context, outdir: options.outdir });
  const config = readShopConfig(app.node);
  const env = stageEnvironment(config, options.processEnv ?? process.env);
  const prefix = `LiveAquatics-${config.stage}`;

  const data = new ShopDataStack(app, `${prefix}-Data`, {
    env,
    config,
    description: `Live Aquatics shop (${config.stage}): orders table, Stripe secrets, SES, alarm topic, budget`,
  });
  const edge = config.waf
    ? new ShopEdgeStack(app, `${prefix}-Edge`, {
        env,
        stage: config.stage,
        description: `Live Aquatics shop (${config.stage}): AWS WAF web ACL for CloudFront (us-east-1)`,
      })
    : undefined;
  const stack = new ShopStack(app, prefix, {
    env,
    config,
    data,
    webAclArn: edge?.webAcl.attrArn,
    crossRegionReferences: edge !== undefined,
    repoRoot: REPO_ROOT,
    siteDir: options.siteDir,
    description: `Live Aquatics shop (${config.stage}): website, checkout API, Stripe webhook, functions, alarms`,
  });
  const deployRoleSettings = readDeployRoleContext(app.node);
  const deployRole =
    deployRoleSettings === undefined
      ? undefined
      : new GitHubDeployRoleStack(app, 'LiveAquatics-GitHubDeploy', {
          env,
          ...deployRoleSettings,
          description: `Live Aquatics shop: the role GitHub Actions deploys ${deployRoleSettings.repository} with (OIDC, no keys)`,
        });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  return { app, config, env, data, stack, edge, deployRole };
}
