import { describe, expect, it } from 'vitest';
import { parseShopConfig, SHOP_CONFIG_KEYS, ShopConfigError } from '../../infra/lib/config';
import { createShopApp, stageEnvironment } from '../../infra/lib/shop-app';
import { CUSTOM_DOMAIN_CONTEXT, cdkJsonContext, SKIP_BUNDLING, tempDir } from './support';

/** cdk.json's defaults, limited to the shop's own keys. */
function defaults(): Record<string, unknown> {
  const context = cdkJsonContext();
  return Object.fromEntries(SHOP_CONFIG_KEYS.map((key) => [key, context[key]]));
}

function errorOf(raw: Record<string, unknown>): string {
  try {
    parseShopConfig(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(ShopConfigError);
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error('expected the config to be rejected');
}

describe('shop config', () => {
  it('accepts the cdk.json defaults, so npm run synth works on a fresh clone', () => {
    const config = parseShopConfig(defaults());

    expect(config).toMatchObject({
      stage: 'dev',
      stripeLivemode: false,
      dispatchCutoffHours: 36,
      reservedConcurrency: false,
      sesIdentity: 'domain',
      waf: false,
      monthlyBudgetUsd: 20,
      shopName: 'Live Aquatics',
    });
    expect(config.domainName).toBeUndefined();
  });

  it.each([
    'stage',
    'senderEmail',
    'merchantEmail',
    'sellerName',
    'sellerAddress',
    'sellerEmail',
    'stripeLivemode',
  ])('names the missing key %s and says where to set it', (key) => {
    const message = errorOf({ ...defaults(), [key]: undefined });

    expect(message).toContain(`- ${key}: missing`);
    expect(message).toContain('cdk.json');
    expect(message).toContain('--context');
  });

  it('names every bad key at once, with what was expected', () => {
    const message = errorOf({ ...defaults(), senderEmail: 'not-an-email', stage: 'Prod!' });

    expect(message).toMatch(/- senderEmail: expected an email address/);
    expect(message).toMatch(/- stage: expected lower-case letters/);
  });

  it('reads command-line strings (--context stripeLivemode=true) as booleans and numbers', () => {
    const config = parseShopConfig({
      ...defaults(),
      stripeLivemode: 'true',
      reservedConcurrency: 'true',
      dispatchCutoffHours: '48',
    });

    expect(config.stripeLivemode).toBe(true);
    expect(config.reservedConcurrency).toBe(true);
    expect(config.dispatchCutoffHours).toBe(48);
  });

  describe('the dispatch cut-off: one limit, six days, the one the Lambdas and the site check too', () => {
    it('accepts 0 and 144 hours', () => {
      expect(parseShopConfig({ ...defaults(), dispatchCutoffHours: 0 }).dispatchCutoffHours).toBe(0);
      expect(parseShopConfig({ ...defaults(), dispatchCutoffHours: '144' }).dispatchCutoffHours).toBe(144);
    });

    it.each([145, 150, -1, 36.5, 'soon'])('refuses %s, naming the key and the limit', (hours) => {
      expect(errorOf({ ...defaults(), dispatchCutoffHours: hours })).toContain(
        '- dispatchCutoffHours: expected a whole number of hours from 0 to 144',
      );
    });

    it('fails synthesis with 150, before any construct is built', () => {
      expect(() =>
        createShopApp({
          context: { ...cdkJsonContext(), ...SKIP_BUNDLING, dispatchCutoffHours: 150 },
          outdir: tempDir('shop-cdk-out-'),
        }),
      ).toThrow('- dispatchCutoffHours: expected a whole number of hours from 0 to 144');
    });
  });

  describe("the seller's claims: the spec's unless the stage sets its own", () => {
    it("are the spec's trial-run sentence and £12.00 against £9.75 for 3 bottles in cdk.json's defaults", () => {
      expect(parseShopConfig(defaults())).toMatchObject({
        trialRunNotice: 'This is a trial run.',
        promotionReferencePence: 1200,
        promotionWording: '£9.75 for 3 bottles',
      });
    });

    it("reads the stage's block and command-line strings, off included", () => {
      const { config } = createShopApp({
        context: {
          ...cdkJsonContext(),
          ...SKIP_BUNDLING,
          trialRunNotice: 'off',
          stages: { dev: { promotionReferencePence: '1100', promotionWording: 'Now £9.75 for 3 bottles' } },
        },
        outdir: tempDir('shop-cdk-out-'),
      });
      expect(config).toMatchObject({
        trialRunNotice: false,
        promotionReferencePence: 1100,
        promotionWording: 'Now £9.75 for 3 bottles',
      });
    });

    it('fails synthesis with a reference price not above the £9.75 it is compared with, or wording too long', () => {
      expect(() =>
        createShopApp({
          context: { ...cdkJsonContext(), ...SKIP_BUNDLING, promotionReferencePence: '975' },
          outdir: tempDir('shop-cdk-out-'),
        }),
      ).toThrow(
        '- promotionReferencePence: 975 pence (£9.75) is not above the price it is compared with, 975 pence (£9.75 for 3 bottles)',
      );
      expect(errorOf({ ...defaults(), promotionWording: `£9.75 ${'x'.repeat(60)}` })).toContain(
        '- promotionWording: expected text of 1 to 60 characters that states the price charged, £9.75',
      );
    });
  });

  it('checks the seller with the limits the Lambdas use, naming the key', () => {
    expect(errorOf({ ...defaults(), sellerName: 'x'.repeat(201) })).toContain(
      '- sellerName: expected text of 1 to 200 characters',
    );
    expect(errorOf({ ...defaults(), shopName: 'x'.repeat(101) })).toContain(
      '- shopName: expected text of 1 to 100 characters',
    );
    expect(parseShopConfig({ ...defaults(), sellerPhone: '0117 496 0000' }).sellerPhone).toBe(
      '0117 496 0000',
    );
  });

  it('rejects a Stripe mode that is neither true nor false', () => {
    expect(errorOf({ ...defaults(), stripeLivemode: 'yes please' })).toMatch(/- stripeLivemode:/);
  });

  it('treats empty strings as unset and defaults the alarm address to nothing (the stack uses the merchant)', () => {
    const config = parseShopConfig({ ...defaults(), alarmEmail: '', domainName: '', sellerVatNumber: ' ' });

    expect(config.alarmEmail).toBeUndefined();
    expect(config.domainName).toBeUndefined();
    expect(config.sellerVatNumber).toBeUndefined();
  });

  it('accepts a custom domain with a us-east-1 certificate and its hosted zone', () => {
    const config = parseShopConfig({ ...defaults(), ...CUSTOM_DOMAIN_CONTEXT });

    expect(config.domainName).toBe('shop.example.co.uk');
    expect(config.hostedZoneName).toBe('shop.example.co.uk');
  });

  it('requires the certificate with the domain, and only from us-east-1', () => {
    expect(errorOf({ ...defaults(), domainName: 'shop.example.co.uk' })).toMatch(
      /- certificateArn: is required when domainName is set/,
    );
    expect(
      errorOf({
        ...defaults(),
        domainName: 'shop.example.co.uk',
        certificateArn: 'arn:aws:acm:eu-west-2:123456789012:certificate/11111111-2222-3333-4444-555555555555',
      }),
    ).toMatch(/- certificateArn: expected an ACM certificate ARN in us-east-1/);
  });

  it('rejects half a hosted zone, and a zone that does not contain the domain', () => {
    expect(errorOf({ ...defaults(), ...CUSTOM_DOMAIN_CONTEXT, hostedZoneName: undefined })).toMatch(
      /- hostedZoneName: hostedZoneId and hostedZoneName go together/,
    );
    expect(errorOf({ ...defaults(), ...CUSTOM_DOMAIN_CONTEXT, hostedZoneName: 'other.example' })).toMatch(
      /- hostedZoneName: must be shop.example.co.uk or a parent of it/,
    );
  });

  it('stops the CDK app before any construct is built when a key is missing', () => {
    expect(() =>
      createShopApp({
        context: { ...cdkJsonContext(), ...SKIP_BUNDLING, merchantEmail: undefined },
        outdir: tempDir('shop-cdk-out-'),
      }),
    ).toThrow(/merchantEmail: missing/);
  });

  describe('placeholders', () => {
    it('are allowed in the dev and local stages, so synth works on a fresh clone', () => {
      expect(parseShopConfig({ ...defaults(), stage: 'local' }).senderEmail).toBe('orders@example.com');
    });

    it('are refused in any other stage, naming each key', () => {
      const message = errorOf({ ...defaults(), stage: 'prod' });

      for (const key of ['senderEmail', 'merchantEmail', 'sellerEmail', 'sellerName', 'sellerAddress']) {
        expect(message).toMatch(new RegExp(`- ${key}: .*placeholder`));
      }
    });

    it.each(['orders@shop.example', 'orders@example.org', 'orders@mail.example.co.uk', 'orders@shop.test'])(
      'refuses %s as a production address',
      (address) => {
        expect(errorOf({ ...realShop(), senderEmail: address })).toMatch(/- senderEmail: .*placeholder/);
      },
    );

    it('accepts real details in production', () => {
      expect(parseShopConfig(realShop()).senderEmail).toBe('orders@daphnia-direct.co.uk');
    });
  });

  it('turns the WAF on outside dev and local unless told otherwise', () => {
    expect(parseShopConfig(defaults()).waf).toBe(false);
    expect(parseShopConfig(realShop()).waf).toBe(true);
    expect(parseShopConfig({ ...realShop(), waf: 'false' }).waf).toBe(false);
  });

  it('checks the account and region of a stage', () => {
    expect(errorOf({ ...defaults(), account: '1234' })).toMatch(
      /- account: expected a 12-digit AWS account id/,
    );
    expect(errorOf({ ...defaults(), region: 'London' })).toMatch(/- region: expected an AWS region/);
    expect(parseShopConfig({ ...defaults(), account: '123456789012', region: 'eu-west-2' })).toMatchObject({
      account: '123456789012',
      region: 'eu-west-2',
    });
  });

  it('takes the selected stage\'s block under "stages" over the top-level keys', () => {
    const { stage: _stage, ...prodSettings } = realShop();
    const { config, env } = createShopApp({
      context: {
        ...cdkJsonContext(),
        ...SKIP_BUNDLING,
        stage: 'prod',
        stages: {
          prod: { ...prodSettings, account: '210987654321', region: 'eu-west-1' },
          test: { region: 'us-west-2' },
        },
      },
      outdir: tempDir('shop-cdk-out-'),
      processEnv: { CDK_DEFAULT_ACCOUNT: '111111111111', CDK_DEFAULT_REGION: 'eu-central-1' },
    });

    expect(config.senderEmail).toBe('orders@daphnia-direct.co.uk');
    expect(env).toEqual({ account: '210987654321', region: 'eu-west-1' });
  });

  it("deploys to the CLI profile's account and region when the stage names none, else London", () => {
    expect(
      stageEnvironment({}, { CDK_DEFAULT_ACCOUNT: '111111111111', CDK_DEFAULT_REGION: 'eu-central-1' }),
    ).toEqual({
      account: '111111111111',
      region: 'eu-central-1',
    });
    expect(stageEnvironment({}, {})).toEqual({ account: undefined, region: 'eu-west-2' });
  });
});

/** A production stage with real-looking details. */
function realShop(): Record<string, unknown> {
  return {
    ...defaults(),
    stage: 'prod',
    senderEmail: 'orders@daphnia-direct.co.uk',
    merchantEmail: 'owner@daphnia-direct.co.uk',
    sellerName: 'Daphnia Direct Ltd',
    sellerAddress: '4 Pond Lane, Norwich NR1 1AA',
    sellerEmail: 'hello@daphnia-direct.co.uk',
  };
}
