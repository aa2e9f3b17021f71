import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Validations } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ESM_REQUIRE_BANNER } from '../../infra/lib/constructs/lambda-bundle';
import type { ShopDataStack } from '../../infra/lib/data-stack';
import { createShopApp } from '../../infra/lib/shop-app';
import type { ShopStack } from '../../infra/lib/shop-stack';
import { cdkJsonContext, fakeWebBuild, logicalIdOf, SKIP_BUNDLING, tempDir } from './support';

/*
 * The one place the app is synthesised as the CLI does it: cdk.json context, real esbuild bundles
 * of all four functions, and cdk-nag's AWS Solutions pack as a validation plugin that throws on any
 * finding nobody acknowledged.
 */

const reportSchema = z.object({
  pluginReports: z.array(
    z.object({ summary: z.unknown().optional(), violations: z.array(z.unknown()).default([]) }).passthrough(),
  ),
});

interface Acknowledgement {
  path: string;
  id: string;
  reason: string;
}

function acknowledgementsIn(root: IConstruct): Acknowledgement[] {
  return root.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) =>
        Object.entries(z.record(z.string(), z.string()).parse(entry.data)).map(([id, reason]) => ({
          path: construct.node.path,
          id: id.replace(/^Annotation::/, ''),
          reason,
        })),
      ),
  );
}

describe('cdk-nag AwsSolutions on the whole app', () => {
  let stack: ShopStack;
  let data: ShopDataStack;
  let assemblyDir: string;

  beforeAll(() => {
    const created = createShopApp({
      context: cdkJsonContext(),
      siteDir: fakeWebBuild(),
      outdir: tempDir('shop-cdk-out-'),
      processEnv: {},
    });
    stack = created.stack;
    data = created.data;
    // Throws with the full report if any finding is unacknowledged.
    assemblyDir = created.app.synth().directory;
  }, 120_000);

  it('cdk-nag AwsSolutions checks pass: no unacknowledged finding, error or warning', () => {
    const report = reportSchema.parse(
      JSON.parse(readFileSync(join(assemblyDir, 'validation-report.json'), 'utf8')),
    );
    expect(report.pluginReports.flatMap((r) => r.violations)).toEqual([]);
  });

  it('cdk-nag acknowledgements: only these, each naming the rule and the control that makes it safe', () => {
    const acks = [...acknowledgementsIn(stack), ...acknowledgementsIn(data)];
    // The deployment function's id carries a fixed UUID of aws-cdk-lib's.
    const named = acks.map((a) =>
      `${a.path} ${a.id}`.replace(/CDKBucketDeployment[0-9A-F]{32}/, 'CDKBucketDeployment<uuid>'),
    );
    expect(named.sort()).toEqual(
      [
        'LiveAquatics-dev-Data/OrderPageSecret AwsSolutions-SMG4',
        'LiveAquatics-dev-Data/ForecastKey/OpenMeteoKey AwsSolutions-SMG4',
        'LiveAquatics-dev-Data/StripeSecrets/StripeCheckoutKey AwsSolutions-SMG4',
        'LiveAquatics-dev-Data/StripeSecrets/StripeFulfilmentKey AwsSolutions-SMG4',
        'LiveAquatics-dev-Data/StripeSecrets/StripeWebhookSigningSecret AwsSolutions-SMG4',
        'LiveAquatics-dev-Data/VapidKey/VapidKeys AwsSolutions-SMG4',
        ...[
          'Api/HttpApi AwsSolutions-APIG4',
          'OriginVerify/Secret AwsSolutions-SMG4',
          'Website/Distribution AwsSolutions-CFR1',
          'Website/Distribution AwsSolutions-CFR2',
          'Website/Distribution AwsSolutions-CFR4',
          'Website/LogsBucket AwsSolutions-S1',
          'Website/DeploymentRole AwsSolutions-IAM5[Action::s3:Abort*]',
          'Website/DeploymentRole AwsSolutions-IAM5[Action::s3:DeleteObject*]',
          'Website/DeploymentRole AwsSolutions-IAM5[Action::s3:GetBucket*]',
          'Website/DeploymentRole AwsSolutions-IAM5[Action::s3:GetObject*]',
          'Website/DeploymentRole AwsSolutions-IAM5[Action::s3:List*]',
          `Website/DeploymentRole AwsSolutions-IAM5[Resource::<${logicalIdOf(stack.website.bucket)}.Arn>/*]`,
          'Website/DeploymentRole AwsSolutions-IAM5[Resource::arn:aws:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-eu-west-2/*]',
        ].map((ack) => `LiveAquatics-dev/${ack}`),
        'LiveAquatics-dev/Custom::CDKBucketDeployment<uuid> AwsSolutions-L1',
        'LiveAquatics-dev/MerchantAdmin/Merchants AwsSolutions-COG2',
        'LiveAquatics-dev/MerchantAdmin/Merchants AwsSolutions-COG8',
      ].sort(),
    );
    for (const ack of acks) {
      expect(ack.reason, `${ack.path} ${ack.id}`).toMatch(/Controls?:/);
    }
  });

  it('acknowledges nothing on the shop functions, their roles, the table or the API stage', () => {
    const guarded = [
      ...Object.values(stack.functions),
      data.orders,
      stack.api.stage,
      data.email,
      data.alarms,
      stack.monitoring,
    ].map((c) => c.node.path);
    for (const ack of [...acknowledgementsIn(stack), ...acknowledgementsIn(data)]) {
      expect(
        guarded.some((path) => ack.path.startsWith(path)),
        ack.path,
      ).toBe(false);
    }
  });

  describe('real Lambda bundles', () => {
    const bundleOf = (name: keyof ShopStack['functions']): string => {
      const resource = JSON.parse(readFileSync(join(assemblyDir, stack.templateFile), 'utf8')).Resources[
        logicalIdOf(stack.functions[name].function)
      ];
      const hash = z
        .string()
        .parse(resource.Properties.Code.S3Key)
        .replace(/\.zip$/, '');
      return join(assemblyDir, `asset.${hash}`);
    };

    it.each(['createCheckout', 'checkoutStatus', 'stripeWebhook', 'reconcileOrders'] as const)(
      'bundles %s into minified ESM with the require banner and a source map',
      (name) => {
        const dir = bundleOf(name);
        const code = readFileSync(join(dir, 'index.mjs'), 'utf8');

        expect(code.startsWith(ESM_REQUIRE_BANNER)).toBe(true);
        expect(code).toMatch(/export\s*\{[^}]*\bhandler\b/);
        expect(existsSync(join(dir, 'index.mjs.map'))).toBe(true);
        // Minified: long lines (only template literals keep their line breaks).
        expect(code.length / code.split('\n').length).toBeGreaterThan(1000);
        expect(statSync(join(dir, 'index.mjs')).size).toBeLessThan(5 * 1024 * 1024);
        expect(code).not.toMatch(/sk_live_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9]{10,}/);
      },
    );

    it('bundles each function from its own entry: four packages, each with its own handler', () => {
      // A log line only each handler writes (every bundle carries the route table's paths).
      const marks = {
        createCheckout: '"Checkout Session created"',
        checkoutStatus: '"Checkout status answered"',
        stripeWebhook: '"Delayed payment waiting for the bank"',
        reconcileOrders: 'Reconciliation finished',
      } as const;
      const dirs = Object.keys(marks).map((name) => bundleOf(name as keyof typeof marks));
      expect(new Set(dirs).size).toBe(4);
      for (const [name, mark] of Object.entries(marks)) {
        const dir = bundleOf(name as keyof typeof marks);
        const chunks = existsSync(join(dir, 'chunks')) ? readdirSync(join(dir, 'chunks')) : [];
        const code = [join(dir, 'index.mjs'), ...chunks.map((f) => join(dir, 'chunks', f))]
          .filter((file) => file.endsWith('.mjs'))
          .map((file) => readFileSync(file, 'utf8'))
          .join('\n');
        expect(code, name).toContain(mark);
        for (const [other, otherMark] of Object.entries(marks)) {
          if (other !== name && other !== 'reconcileOrders' && name !== 'reconcileOrders') {
            expect(code, `${name} carries ${other}`).not.toContain(otherMark);
          }
        }
      }
    });

    it("create-checkout's package loads the DynamoDB client at start, the SES client only through the requests-mode writer's import()", () => {
      const dir = bundleOf('createCheckout');
      const chunksOf = (code: string, pattern: RegExp) =>
        [...code.matchAll(pattern)].map((match) => join(dir, match[1] ?? ''));
      const staticImports = /(?:from|import)\s*"\.\/(chunks\/[\w-]+\.mjs)"/g;
      // The files Node reads with index.mjs: it and its static imports, transitively.
      const atStart = new Set([join(dir, 'index.mjs')]);
      for (const file of atStart) {
        for (const chunk of chunksOf(readFileSync(file, 'utf8'), staticImports)) atStart.add(chunk);
      }
      const index = readFileSync(join(dir, 'index.mjs'), 'utf8');
      const onDemand = chunksOf(index, /import\("\.\/(chunks\/request-writer-[\w-]+\.mjs)"\)/g);

      expect(onDemand).toHaveLength(1);
      expect(existsSync(onDemand[0] ?? '')).toBe(true);
      expect(atStart.has(onDemand[0] ?? '')).toBe(false);
      const loadedAtStart = [...atStart].map((file) => readFileSync(file, 'utf8')).join('\n');
      // Booleans, so a failure names the client instead of printing the bundle.
      expect(loadedAtStart.includes('@aws-sdk/client-dynamodb'), 'DynamoDB client at start').toBe(true);
      expect(loadedAtStart.includes('@aws-sdk/client-ses'), 'SES client at start').toBe(false);
      const everything = readdirSync(join(dir, 'chunks'))
        .map((name) => readFileSync(join(dir, 'chunks', name), 'utf8'))
        .join('\n');
      expect(everything).toContain('@aws-sdk/client-ses');
    });

    it.each(['createCheckout', 'checkoutStatus', 'stripeWebhook', 'reconcileOrders'] as const)(
      'loads the %s bundle as a module without "Dynamic require" errors and exports handler',
      async (name) => {
        const module: unknown = await import(pathToFileURL(join(bundleOf(name), 'index.mjs')).href);
        expect(z.object({ handler: z.function() }).safeParse(module).success).toBe(true);
      },
    );
  });

  it('fails synthesis on a finding nobody acknowledged', () => {
    const { app, stack: sentinelStack } = createShopApp({
      context: { ...cdkJsonContext(), ...SKIP_BUNDLING },
      siteDir: fakeWebBuild(),
      outdir: tempDir('shop-cdk-out-'),
      processEnv: {},
    });
    // A bucket that allows plain HTTP and has no access logs.
    new Bucket(sentinelStack, 'UnacknowledgedSentinel');

    expect(() => app.synth()).toThrow(/AwsSolutions-S10/);
  }, 60_000);
});
