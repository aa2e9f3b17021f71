import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { createShopApp } from '../../infra/lib/shop-app';
import { cdkJsonContext, environmentOf, tempDir } from './support';

/** `npm run synth -- -c stage=prod -c sellerName=…`: a production stage with every seller key set. */
const PROD_CONTEXT = {
  stage: 'prod',
  waf: 'false',
  shopName: 'Daphnia Direct',
  senderEmail: 'orders@daphnia-direct.co.uk',
  merchantEmail: 'owner@daphnia-direct.co.uk',
  sellerName: 'Daphnia Direct Ltd',
  sellerAddress: '4 Pond Lane, Norwich NR1 1AA',
  sellerEmail: 'hello@daphnia-direct.co.uk',
  sellerPhone: '01603 496000',
  sellerCompanyNumber: '09876543',
  sellerVatNumber: 'GB987654321',
  dispatchCutoffHours: '48',
  trialRunNotice: 'Our first season: thank you for trying us!',
  promotionReferencePence: '1100',
  promotionWording: 'Launch offer: £9.75 for 3 bottles',
};

/** Every HTML and JS file under `dir`, by path relative to it. */
function pagesAndScripts(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (/\.(html|js)$/.test(entry)) files.set(entry, readFileSync(join(dir, entry), 'utf8'));
  }
  return files;
}

// The site is built by the CDK app from the same context as the Lambdas' environment: no second
// set of settings (VITE_*) to keep in step.
describe("synthesis builds the site with the stage's settings", () => {
  let outdir: string;
  let siteDir: string;
  let webhookEnvironment: Record<string, unknown>;

  beforeAll(() => {
    outdir = tempDir('shop-cdk-out-');
    const { stack, app } = createShopApp({
      // Bundling on for the app stack, as `cdk synth` and `cdk deploy` do.
      context: { ...cdkJsonContext(), ...PROD_CONTEXT, 'aws:cdk:bundling-stacks': ['LiveAquatics-prod'] },
      outdir,
      processEnv: {},
    });
    app.synth();
    siteDir = stack.siteDir;
    webhookEnvironment = environmentOf(Template.fromStack(stack), stack.functions.stripeWebhook);
  }, 240_000);

  it('uploads pages and scripts that carry the seller and none of the local test seller', () => {
    // What the stack uploads: the staged copy of the build in the cloud assembly.
    const uploaded = readdirSync(outdir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name.startsWith('asset.'))
      .map((entry) => join(outdir, entry.name))
      .filter((dir) => readdirSync(dir).includes('contact.html'));
    expect(uploaded).toHaveLength(1);
    const files = pagesAndScripts(uploaded[0] ?? '');
    const everything = [...files.values()].join('\n');

    for (const page of [
      'index.html',
      'contact.html',
      'terms.html',
      'privacy.html',
      '404.html',
      'success.html',
    ]) {
      expect(files.get(page), page).toContain('Daphnia Direct Ltd');
    }
    expect(files.get('contact.html')).toContain('4 Pond Lane, Norwich NR1 1AA');
    expect(files.get('contact.html')).toContain('hello@daphnia-direct.co.uk');
    expect(files.get('contact.html')).toContain('01603 496000');
    expect(files.get('contact.html')).toContain('09876543');
    expect(files.get('contact.html')).toContain('GB987654321');
    expect(files.get('index.html')).toContain('<title>Live Aquatics Order</title>');
    expect(
      [...files].filter(([name, text]) => name.startsWith('assets/') && text.includes('Daphnia Direct Ltd')),
    ).not.toHaveLength(0);
    for (const local of [
      'Live Aquatics (local test shop)',
      'Test Street',
      'Testville',
      'live-aquatics.test',
    ]) {
      expect(everything).not.toContain(local);
    }
  });

  it("words the terms with the stage's cut-off, the one the Lambdas get", () => {
    const terms = readFileSync(join(siteDir, 'terms.html'), 'utf8');
    // 48 hours before a Monday's dispatch: the Saturday's first minute, not the default Saturday noon.
    expect(terms).toContain('orders placed after Saturday 00:00 before a Monday dispatch');
    expect(terms).not.toContain('Saturday 12:00');
    expect(webhookEnvironment).toMatchObject({
      DISPATCH_CUTOFF_HOURS: '48',
      SELLER_NAME: 'Daphnia Direct Ltd',
    });
  });

  it("shows the stage's own trial-run sentence and promotion on the prerendered order page, and not the spec's", () => {
    const index = readFileSync(join(siteDir, 'index.html'), 'utf8');
    expect(index).toContain(
      'Our first season: thank you for trying us! Daphnia are live, natural stock, so the number in each bottle can vary from the estimate shown.',
    );
    expect(index).toContain('£11.00</s>');
    expect(index).toContain('Launch offer: £9.75 for 3 bottles');
    expect(index).not.toContain('This is a trial run.');
    expect(index).not.toContain('£12.00');
  });

  it('builds it in the cloud assembly, beside the templates', () => {
    expect(siteDir).toBe(join(outdir, 'site-prod'));
  });
});
