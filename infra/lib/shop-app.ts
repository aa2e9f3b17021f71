import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { readShopConfig } from './config';
import { REPO_ROOT } from './paths';
import { ShopStack } from './shop-stack';

/** Options of {@link createShopApp}; the CLI passes none, tests pass context and an output directory. */
export interface CreateShopAppOptions {
  /** Context to start with (the CLI supplies cdk.json and --context through the environment instead). */
  readonly context?: Record<string, unknown>;
  /** Where to write the cloud assembly. @default the CLI's, or a temporary directory */
  readonly outdir?: string;
}

/**
 * Builds the shop's CDK app: validated config, one stack, and cdk-nag's AWS Solutions checks as a
 * validation plugin, so synthesis fails on any finding that has not been acknowledged with a reason.
 */
export function createShopApp(options: CreateShopAppOptions = {}): { app: App; stack: ShopStack } {
  const app = new App({ context: options.context, outdir: options.outdir });
  const config = readShopConfig(app.node);
  // Environment-agnostic: the stack deploys to the account and region of the operator's AWS
  // profile, and synthesis needs no credentials.
  const stack = new ShopStack(app, `LiveAquatics-${config.stage}`, {
    config,
    repoRoot: REPO_ROOT,
    description: `Live Aquatics shop (${config.stage}): website, checkout API, Stripe webhook, orders, email, alarms`,
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
  return { app, stack };
}
