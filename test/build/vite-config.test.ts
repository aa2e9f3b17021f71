import type { ConfigEnv, UserConfig } from 'vite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import viteConfig from '../../vite.config';

const BUILD: ConfigEnv = { command: 'build', mode: 'production' };

function resolve(): UserConfig {
  if (typeof viteConfig !== 'function') throw new Error('vite.config.ts exports no config function');
  const config = viteConfig(BUILD);
  if (config instanceof Promise) throw new Error('vite.config.ts config function is async');
  return config;
}

/** A stage's settings as the CDK app gives them to the build (infra/lib/site-build.ts). */
const POND_LIFE = {
  shopName: '  Pond Life  ',
  sellerName: 'Pond Life Ltd',
  sellerAddress: '2 Mill Lane, Bath BA1 1AA',
  sellerEmail: 'shop@pond-life.co.uk',
  senderEmail: 'orders@pond-life.co.uk',
  merchantEmail: 'owner@pond-life.co.uk',
  dispatchCutoffHours: 48,
};

describe("the web build takes the stage's settings", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('puts the checked settings and seller into the page, not the checks', () => {
    vi.stubEnv('SHOP_STAGE_SETTINGS', JSON.stringify(POND_LIFE));

    const { define } = resolve();

    expect(JSON.parse(String(define?.__SITE_CONFIG__))).toEqual({
      seller: {
        shopName: 'Pond Life',
        name: 'Pond Life Ltd',
        address: '2 Mill Lane, Bath BA1 1AA',
        email: 'shop@pond-life.co.uk',
      },
      dispatchCutoffHours: 48,
      claims: {
        trialRunNotice: 'This is a trial run.',
        promotion: { referencePence: 1200, wording: '£9.75 for 3 bottles' },
      },
    });
  });

  it("puts the stage's own trial-run sentence and promotion into the page, and leaves out a claim turned off", () => {
    vi.stubEnv(
      'SHOP_STAGE_SETTINGS',
      JSON.stringify({
        ...POND_LIFE,
        trialRunNotice: 'Our first season.',
        promotionReferencePence: 1100,
        promotionWording: 'Launch offer: £9.75 for 3 bottles',
      }),
    );
    expect(JSON.parse(String(resolve().define?.__SITE_CONFIG__)).claims).toEqual({
      trialRunNotice: 'Our first season.',
      promotion: { referencePence: 1100, wording: 'Launch offer: £9.75 for 3 bottles' },
    });

    vi.stubEnv(
      'SHOP_STAGE_SETTINGS',
      JSON.stringify({ ...POND_LIFE, trialRunNotice: false, promotionReferencePence: false }),
    );
    expect(JSON.parse(String(resolve().define?.__SITE_CONFIG__)).claims).toEqual({});
  });

  it("builds the local stage's site, with its test seller, when given none", () => {
    vi.stubEnv('SHOP_STAGE_SETTINGS', undefined);

    const { define } = resolve();

    expect(JSON.parse(String(define?.__SITE_CONFIG__))).toMatchObject({
      seller: { name: 'Live Aquatics (local test shop)', address: '1 Test Street, Testville, TE1 1ST' },
      dispatchCutoffHours: 36,
    });
  });

  it('fails the build on a bad value, naming the key and its limit', () => {
    vi.stubEnv('SHOP_STAGE_SETTINGS', JSON.stringify({ ...POND_LIFE, dispatchCutoffHours: 150 }));
    expect(resolve).toThrow('dispatchCutoffHours: expected a whole number of hours from 0 to 144');
    vi.stubEnv('SHOP_STAGE_SETTINGS', JSON.stringify({ ...POND_LIFE, sellerEmail: 'not-an-email' }));
    expect(resolve).toThrow('sellerEmail: expected an email address like orders@shop.example');
    vi.stubEnv('SHOP_STAGE_SETTINGS', JSON.stringify({ ...POND_LIFE, promotionReferencePence: 900 }));
    expect(resolve).toThrow(
      'promotionReferencePence: 900 pence (£9.00) is not above the price it is compared with, 975 pence (£9.75 for 3 bottles)',
    );
  });
});
