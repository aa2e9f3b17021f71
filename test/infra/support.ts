import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { App, CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { afterAll } from 'vitest';
import { z } from 'zod';
import type { ShopFunction } from '../../infra/lib/constructs/shop-function';
import type { ShopDataStack } from '../../infra/lib/data-stack';
import type { ShopEdgeStack } from '../../infra/lib/edge-stack';
import { REPO_ROOT } from '../../infra/lib/paths';
import { createShopApp } from '../../infra/lib/shop-app';
import type { ShopStack } from '../../infra/lib/shop-stack';

const cdkJsonSchema = z.object({ app: z.string(), context: z.record(z.string(), z.unknown()) });

/** The context the CLI would pass: cdk.json's, so tests see the same feature flags and defaults. */
export function cdkJsonContext(): Record<string, unknown> {
  return cdkJsonSchema.parse(JSON.parse(readFileSync(join(REPO_ROOT, 'cdk.json'), 'utf8'))).context;
}

const tempDirs: string[] = [];

/** A temporary directory, removed after the test file that asked for it. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/** Removes the temporary directories made so far: after each file (test/infra/setup.ts for the infra project). */
export function removeTempDirs(): void {
  for (const dir of tempDirs.splice(0)) {
    rmSync(dir, { recursive: true, force: true });
  }
}

afterAll(removeTempDirs);

/**
 * CDK's own switches for template-only synthesis: skip asset bundling (what the CLI does for
 * stacks outside `--exclusively`) and asset staging (what SAM uses), so no esbuild run and no copy
 * of the 20 MB AWS CLI layer per test stack. Lambda entries must still exist: ShopFunction checks.
 */
export const SKIP_BUNDLING = {
  'aws:cdk:bundling-stacks': [],
  'aws:cdk:disable-asset-staging': true,
} as const;

/** Context overrides that give the stack a custom domain in a Route 53 zone. */
export const CUSTOM_DOMAIN_CONTEXT = {
  domainName: 'shop.example.co.uk',
  certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/11111111-2222-3333-4444-555555555555',
  hostedZoneId: 'Z0123456789ABCDEFGHIJ',
  hostedZoneName: 'shop.example.co.uk',
  senderEmail: 'orders@shop.example.co.uk',
} as const;

/** No credentials in tests: the account stays unresolved unless the context names one. */
export const NO_CLI_ENVIRONMENT = {} as const;

/**
 * The shop's stacks exactly as the CLI builds them (cdk.json context, cdk-nag on), with
 * `overrides` applied and bundling skipped unless asked for. The site is a small fake build
 * (fakeWebBuild) unless `siteDir` names another, so no test waits for Vite. `template` is the app
 * stack's, `dataTemplate` the stateful stack's.
 */
export function synthShop(
  overrides: Record<string, unknown> = {},
  options: { bundle?: boolean; outdir?: string; processEnv?: Record<string, string>; siteDir?: string } = {},
): {
  app: App;
  stack: ShopStack;
  data: ShopDataStack;
  edge: ShopEdgeStack | undefined;
  template: Template;
  dataTemplate: Template;
} {
  const { app, stack, data, edge } = createShopApp({
    context: {
      ...cdkJsonContext(),
      ...(options.bundle === true ? {} : SKIP_BUNDLING),
      ...overrides,
    },
    outdir: options.outdir ?? tempDir('shop-cdk-out-'),
    processEnv: options.processEnv ?? NO_CLI_ENVIRONMENT,
    siteDir: options.siteDir ?? fakeWebBuild(),
  });
  return {
    app,
    stack,
    data,
    edge,
    template: Template.fromStack(stack),
    dataTemplate: Template.fromStack(data),
  };
}

/**
 * How the app stack's template reads `value` (e.g. `{ Ref: '<logical id>' }`) of the data stack:
 * CloudFormation's Fn::GetStackOutput on the output CDK publishes for it (a weak reference, no
 * export), as the cdk.json flag `@aws-cdk/core:defaultCrossStackReferences: weak` asks.
 */
export function fromDataStack(data: ShopDataStack, value: unknown) {
  const outputs: Record<string, { Value: unknown }> = Template.fromStack(data).toJSON().Outputs;
  const outputName = Object.keys(outputs).find(
    (key) => key.startsWith('PublishOutput') && JSON.stringify(outputs[key]?.Value) === JSON.stringify(value),
  );
  if (outputName === undefined) {
    throw new Error(`${data.stackName} publishes no output for ${JSON.stringify(value)}`);
  }
  return { 'Fn::GetStackOutput': { StackName: data.stackName, Region: data.region, OutputName: outputName } };
}

/** A bare stack for testing one construct, with cdk.json's feature flags and no cdk-nag. */
export function constructStack(): Stack {
  const app = new App({
    context: { ...cdkJsonContext(), ...SKIP_BUNDLING },
    outdir: tempDir('shop-cdk-out-'),
  });
  return new Stack(app, 'TestStack');
}

/** Writes a small fake Vite build (index.html, a root file, hashed assets) and returns its path. */
export function fakeWebBuild(
  files: readonly string[] = ['index.html', 'favicon.svg', 'robots.txt', 'assets/index-abc123.js'],
): string {
  const dir = tempDir('shop-web-');
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    // Each page with the inlined stylesheet, as vite.config.ts writes it; its CSP hash is
    // 'sha256-FcQqt3aNlV7AZnGV4zkQRVeCeJOxbMPnQSx258L803E='.
    const html = '<!doctype html><title>x</title><style>body{color:red}</style>';
    writeFileSync(join(dir, file), file.endsWith('.html') ? html : 'x');
  }
  return dir;
}

/** Logical id of an L2 construct's CloudFormation resource (or of an L1 itself). */
export function logicalIdOf(construct: IConstruct): string {
  const element = construct instanceof CfnElement ? construct : construct.node.defaultChild;
  if (!(element instanceof CfnElement)) {
    throw new Error(`${construct.node.path} has no CloudFormation resource`);
  }
  return Stack.of(element).getLogicalId(element);
}

/** The environment variables of a shop function, as synthesised (references stay CloudFormation objects). */
export function environmentOf(template: Template, shopFunction: ShopFunction): Record<string, unknown> {
  return template.toJSON().Resources[logicalIdOf(shopFunction.function)].Properties.Environment.Variables;
}

/** An SES ARN in the stack's partition, region and account, as `Stack.formatArn` renders it. */
export function sesArn(...suffix: unknown[]) {
  return {
    'Fn::Join': [
      '',
      [
        'arn:',
        { Ref: 'AWS::Partition' },
        ':ses:',
        { Ref: 'AWS::Region' },
        ':',
        { Ref: 'AWS::AccountId' },
        ...suffix,
      ],
    ],
  };
}

const iamStatementSchema = z.object({
  Effect: z.string(),
  Action: z.union([z.string(), z.array(z.string())]),
  Resource: z.unknown(),
  Condition: z.unknown().optional(),
});
export type IamStatement = z.infer<typeof iamStatementSchema>;

const iamPolicySchema = z.object({
  Properties: z.object({
    Roles: z.array(z.object({ Ref: z.string() })),
    PolicyDocument: z.object({ Statement: z.array(iamStatementSchema) }),
  }),
});

/** Every statement of every IAM policy attached to a role. */
export function statementsOfRole(template: Template, roleLogicalId: string): IamStatement[] {
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .map((resource) => iamPolicySchema.parse(resource))
    .filter((policy) => policy.Properties.Roles.some((role) => role.Ref === roleLogicalId))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement);
}

/** The actions of statements, flattened and sorted, for "exactly these" assertions. */
export function actionsOf(statements: readonly IamStatement[]): string[] {
  return statements.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action])).sort();
}
