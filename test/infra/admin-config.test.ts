import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { runInNewContext } from 'node:vm';
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ShopStack } from '../../infra/lib/shop-stack';
import { logicalIdOf, synthShop } from './support';

/** One BucketDeployment's custom resource, as the template has it. */
const deploymentSchema = z.object({
  Properties: z.object({
    SourceObjectKeys: z.array(z.string()),
    SourceMarkers: z.array(z.record(z.string(), z.unknown())).optional(),
    DestinationBucketName: z.unknown(),
    Prune: z.boolean(),
    Exclude: z.array(z.string()).optional(),
    SystemMetadata: z.record(z.string(), z.string()),
  }),
  DependsOn: z.array(z.string()).optional(),
});
type DeploymentResource = z.infer<typeof deploymentSchema>;

describe('the admin page’s sign-in settings, deployed beside the site', () => {
  let stack: ShopStack;
  let template: Template;
  let outdir: string;
  let deployments: Record<string, DeploymentResource>;
  const deploymentOf = (id: string): DeploymentResource => {
    const found = Object.entries(deployments).find(([logicalId]) => logicalId.startsWith(`Website${id}`));
    if (found === undefined) throw new Error(`no deployment Website${id}`);
    return found[1];
  };

  /** Where the app stack's asset manifest says the asset's files are (staging is off in tests). */
  const assetPath = (hash: string): string => {
    const manifest: unknown = JSON.parse(
      readFileSync(join(outdir, `${stack.stackName}.assets.json`), 'utf8'),
    );
    const path = z
      .object({ files: z.record(z.string(), z.object({ source: z.object({ path: z.string() }) })) })
      .parse(manifest).files[hash]?.source.path;
    if (path === undefined) throw new Error(`no asset ${hash}`);
    return isAbsolute(path) ? path : join(outdir, path);
  };

  beforeAll(() => {
    // Staged, so the file's content is kept in the assembly (CDK removes its own working copy).
    const synth = synthShop({ 'aws:cdk:disable-asset-staging': false });
    ({ stack, template } = synth);
    outdir = synth.app.outdir;
    deployments = z
      .record(z.string(), deploymentSchema)
      .parse(template.findResources('Custom::CDKBucketDeployment'));
  });

  it('writes /admin-config.json with the managed login URL and the app client id, resolved at deploy time', () => {
    const { Properties } = deploymentOf('DeployAdminConfig');
    const [zip = ''] = Properties.SourceObjectKeys;
    const file = readFileSync(join(assetPath(zip.replace(/\.zip$/, '')), 'admin-config.json'), 'utf8');

    expect(Properties.DestinationBucketName).toEqual({ Ref: logicalIdOf(stack.website.bucket) });
    expect(JSON.parse(file)).toEqual({
      signInUrl: 'https://<<marker:0xbaba:0>>.auth.eu-west-2.amazoncognito.com',
      clientId: '<<marker:0xbaba:1>>',
    });
    expect(Properties.SourceMarkers).toEqual([
      {
        '<<marker:0xbaba:0>>': { Ref: logicalIdOf(stack.admin.domain) },
        '<<marker:0xbaba:1>>': { Ref: logicalIdOf(stack.admin.client) },
      },
    ]);
    // A prefix is global to the region: the default carries the account id, so no other shop's clashes.
    expect(template.toJSON().Resources[logicalIdOf(stack.admin.domain)].Properties.Domain).toEqual({
      'Fn::Join': ['', ['live-aquatics-dev-', { Ref: 'AWS::AccountId' }]],
    });
  });

  it('takes the domain prefix from the cognitoDomainPrefix setting, and refuses one Cognito would', () => {
    const chosen = synthShop({ cognitoDomainPrefix: 'daphnia-direct-admin' });
    expect(chosen.template.toJSON().Resources[logicalIdOf(chosen.stack.admin.domain)].Properties.Domain).toBe(
      'daphnia-direct-admin',
    );
    expect(() => synthShop({ cognitoDomainPrefix: 'my-cognito-shop' })).toThrow(
      'Cognito refuses a prefix containing aws, amazon or cognito',
    );
    expect(() => synthShop({ cognitoDomainPrefix: 'Shop_Admin' })).toThrow(
      'expected lower-case letters, digits and dashes',
    );
  });

  it('serves it never cached, and the build’s upload neither overwrites nor prunes it', () => {
    const config = deploymentOf('DeployAdminConfig');
    const pages = deploymentOf('DeployPages');
    const pagesId = Object.keys(deployments).find((id) => id.startsWith('WebsiteDeployPages'));

    expect(config.Properties.SystemMetadata).toEqual({ 'cache-control': 'no-cache' });
    expect(config.Properties.Prune).toBe(false);
    expect(config.DependsOn).toContain(pagesId);
    expect(pages.Properties.Prune).toBe(true);
    expect(pages.Properties.Exclude).toEqual(['assets/*', 'admin-config.json']);
  });

  it('is served as a file by CloudFront, not swallowed by the single-page app’s 404 fallback', () => {
    const code: unknown =
      template.toJSON().Resources[logicalIdOf(stack.website.routingFunction)].Properties.FunctionCode;
    const handler: unknown = runInNewContext(`${String(code)}\nhandler;`, {});
    if (typeof handler !== 'function') throw new Error('the function code defines no handler');
    const request = { method: 'GET', uri: '/admin-config.json', querystring: {}, headers: {} };

    const forwarded = handler({ context: { eventType: 'viewer-request' }, request });
    const response = handler({
      context: { eventType: 'viewer-response' },
      request: forwarded,
      response: { statusCode: 200, statusDescription: 'OK', headers: {} },
    });

    expect(forwarded).toEqual({ method: 'GET', uri: '/admin-config.json', querystring: {}, headers: {} });
    expect(response).toMatchObject({ statusCode: 200 });
  });

  it('lets the pages fetch tokens from managed login (CSP connect-src) and from nowhere else', () => {
    const policy: unknown =
      template.toJSON().Resources[logicalIdOf(stack.website.responseHeadersPolicy)].Properties
        .ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy;

    expect(JSON.stringify(policy)).toContain(
      `connect-src 'self' https://live-aquatics-dev-",{"Ref":"AWS::AccountId"},".auth.eu-west-2.amazoncognito.com`,
    );
  });

  it('refuses to deploy a file the routing and the build’s upload were not told about', () => {
    expect(() => stack.website.deployJsonFile('Other', '/other.json', {})).toThrow(
      'Website: /other.json is not one of deployTimeFiles (/admin-config.json)',
    );
  });
});
