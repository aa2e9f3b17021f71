import { describe, expect, it } from 'vitest';
import {
  readStageSettings,
  STAGE_SETTINGS,
  siteConfigOf,
  stageSettingsSchema,
} from '../../shared/stage-config';

/** A stage's settings as the CDK app passes them to the site build (JSON, numbers as numbers). */
const DAPHNIA = {
  shopName: 'Daphnia Direct',
  sellerName: 'Daphnia Direct Ltd',
  sellerAddress: '4 Pond Lane, Norwich NR1 1AA',
  sellerEmail: 'hello@daphnia-direct.co.uk',
  sellerCompanyNumber: '01234567',
  sellerVatNumber: 'GB123456789',
  senderEmail: 'orders@daphnia-direct.co.uk',
  merchantEmail: 'owner@daphnia-direct.co.uk',
  dispatchCutoffHours: 48,
  publicApiKey: 'pk_public_daphnia',
};

function problemsOf(settings: Record<string, unknown>): string[] {
  const result = stageSettingsSchema.safeParse(settings);
  return result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe("the stage's settings", () => {
  describe('the dispatch cut-off', () => {
    it('takes 0 to 144 whole hours, as numbers or their spellings, 36 when unset or blank', () => {
      expect(stageSettingsSchema.parse({ ...DAPHNIA, dispatchCutoffHours: 0 }).dispatchCutoffHours).toBe(0);
      expect(stageSettingsSchema.parse({ ...DAPHNIA, dispatchCutoffHours: '144' }).dispatchCutoffHours).toBe(
        144,
      );
      expect(
        stageSettingsSchema.parse({ ...DAPHNIA, dispatchCutoffHours: undefined }).dispatchCutoffHours,
      ).toBe(36);
      expect(stageSettingsSchema.parse({ ...DAPHNIA, dispatchCutoffHours: ' ' }).dispatchCutoffHours).toBe(
        36,
      );
    });

    it.each([145, '150', -1, 36.5, 'soon'])('refuses %s, saying the limit', (hours) => {
      expect(problemsOf({ ...DAPHNIA, dispatchCutoffHours: hours })).toEqual([
        'dispatchCutoffHours: expected a whole number of hours from 0 to 144',
      ]);
    });

    it('is the schema the Lambdas read DISPATCH_CUTOFF_HOURS with: one limit', () => {
      expect(STAGE_SETTINGS.dispatchCutoffHours.safeParse('144').success).toBe(true);
      expect(STAGE_SETTINGS.dispatchCutoffHours.safeParse('145').success).toBe(false);
    });
  });

  it('trims text, reads blank optional settings as unset, and names each bad key with its limit', () => {
    const settings = stageSettingsSchema.parse({
      ...DAPHNIA,
      sellerName: '  Daphnia Direct Ltd ',
      sellerPhone: '',
    });
    expect(settings.sellerName).toBe('Daphnia Direct Ltd');
    expect(settings.sellerPhone).toBeUndefined();

    expect(
      problemsOf({ ...DAPHNIA, sellerName: '', sellerAddress: 'x'.repeat(501), senderEmail: 'orders' }),
    ).toEqual([
      'sellerName: expected text of 1 to 200 characters',
      'sellerAddress: expected text of 1 to 500 characters',
      'senderEmail: expected an email address like orders@shop.example',
    ]);
  });

  describe("the seller's claims", () => {
    it("are the spec's texts when unset or blank: the trial-run sentence and £12.00 against £9.75 for 3 bottles", () => {
      for (const unset of [undefined, '', '  ']) {
        const settings = stageSettingsSchema.parse({
          ...DAPHNIA,
          trialRunNotice: unset,
          promotionReferencePence: unset,
          promotionWording: unset,
        });
        expect(settings).toMatchObject({
          trialRunNotice: 'This is a trial run.',
          promotionReferencePence: 1200,
          promotionWording: '£9.75 for 3 bottles',
        });
      }
    });

    it("take the stage's own sentence, reference price (numbers or their spellings) and wording, trimmed", () => {
      const settings = stageSettingsSchema.parse({
        ...DAPHNIA,
        trialRunNotice: ' Our first season: thank you for trying us! ',
        promotionReferencePence: '1100',
        promotionWording: ' Launch offer: £9.75 for 3 bottles ',
      });
      expect(settings).toMatchObject({
        trialRunNotice: 'Our first season: thank you for trying us!',
        promotionReferencePence: 1100,
        promotionWording: 'Launch offer: £9.75 for 3 bottles',
      });
      expect(stageSettingsSchema.parse({ ...DAPHNIA, promotionReferencePence: 976 })).toMatchObject({
        promotionReferencePence: 976,
      });
    });

    it.each([false, 'false', 'off', ' OFF '])('are turned off with %j', (off) => {
      expect(
        stageSettingsSchema.parse({ ...DAPHNIA, trialRunNotice: off, promotionReferencePence: off }),
      ).toMatchObject({ trialRunNotice: false, promotionReferencePence: false });
    });

    it.each([975, '975', 500, 0])(
      'refuse a reference price of %j: not above the £9.75 it is compared with',
      (pence) => {
        expect(problemsOf({ ...DAPHNIA, promotionReferencePence: pence })).toEqual([
          `promotionReferencePence: ${Number(pence)} pence (£${(Number(pence) / 100).toFixed(2)}) is not above the price it is compared with, 975 pence (£9.75 for 3 bottles): a reference price must be higher, and one genuinely charged before (docs/deploy.md)`,
        ]);
      },
    );

    it.each([12.5, '12.00', '£12', -1200, 100_001, true])('refuse a reference price of %j', (pence) => {
      expect(problemsOf({ ...DAPHNIA, promotionReferencePence: pence })).toEqual([
        'promotionReferencePence: expected a whole number of pence above 975 and at most 100000, or false for no promotion',
      ]);
    });

    it('refuse wording that is too long or does not state the £9.75 charged, and a sentence that does not end as one', () => {
      expect(
        problemsOf({
          ...DAPHNIA,
          trialRunNotice: 'A trial run',
          promotionWording: '£8.50 for 3 bottles',
        }),
      ).toEqual([
        'trialRunNotice: expected a sentence of 1 to 200 characters ending in ".", "!" or "?", or false to show none',
        'promotionWording: expected text of 1 to 60 characters that states the price charged, £9.75',
      ]);
      expect(
        problemsOf({
          ...DAPHNIA,
          trialRunNotice: `${'x'.repeat(200)}.`,
          promotionWording: `£9.75 for 3 bottles${'!'.repeat(42)}`,
          promotionReferencePence: 1200,
        }),
      ).toEqual([
        'trialRunNotice: expected a sentence of 1 to 200 characters ending in ".", "!" or "?", or false to show none',
        'promotionWording: expected text of 1 to 60 characters that states the price charged, £9.75',
      ]);
      expect(
        problemsOf({
          ...DAPHNIA,
          trialRunNotice: `${'x'.repeat(199)}.`,
          promotionWording: `£9.75 for 3 bottles${'!'.repeat(41)}`,
        }),
      ).toEqual([]);
    });
  });

  it('gives the site the seller, the cut-off and the public key', () => {
    expect(siteConfigOf(stageSettingsSchema.parse(DAPHNIA))).toEqual({
      seller: {
        shopName: 'Daphnia Direct',
        name: 'Daphnia Direct Ltd',
        address: '4 Pond Lane, Norwich NR1 1AA',
        email: 'hello@daphnia-direct.co.uk',
        phone: undefined,
        companyNumber: '01234567',
        vatNumber: 'GB123456789',
      },
      dispatchCutoffHours: 48,
      publicKey: 'pk_public_daphnia',
      claims: {
        trialRunNotice: 'This is a trial run.',
        promotion: { referencePence: 1200, wording: '£9.75 for 3 bottles' },
      },
    });
  });

  it("gives the site the stage's own claims, and none of a claim turned off", () => {
    const own = stageSettingsSchema.parse({
      ...DAPHNIA,
      trialRunNotice: 'Our first season.',
      promotionReferencePence: 1100,
      promotionWording: 'Now £9.75 for 3 bottles',
    });
    expect(siteConfigOf(own).claims).toEqual({
      trialRunNotice: 'Our first season.',
      promotion: { referencePence: 1100, wording: 'Now £9.75 for 3 bottles' },
    });
    const off = stageSettingsSchema.parse({
      ...DAPHNIA,
      trialRunNotice: false,
      promotionReferencePence: 'off',
    });
    expect(JSON.parse(JSON.stringify(siteConfigOf(off).claims))).toEqual({});
  });

  describe('given to a build (SHOP_STAGE_SETTINGS)', () => {
    it("are the local stage's when unset: the test seller", () => {
      expect(readStageSettings({})).toMatchObject({
        shopName: 'Live Aquatics',
        sellerName: 'Live Aquatics (local test shop)',
        sellerAddress: '1 Test Street, Testville, TE1 1ST',
        sellerEmail: 'hello@live-aquatics.test',
        senderEmail: 'orders@live-aquatics.test',
        dispatchCutoffHours: 36,
      });
    });

    it('are read from JSON and checked with the same schema', () => {
      expect(readStageSettings({ SHOP_STAGE_SETTINGS: JSON.stringify(DAPHNIA) }).sellerName).toBe(
        'Daphnia Direct Ltd',
      );
      expect(() =>
        readStageSettings({ SHOP_STAGE_SETTINGS: JSON.stringify({ ...DAPHNIA, dispatchCutoffHours: 150 }) }),
      ).toThrow(
        'Invalid stage settings in SHOP_STAGE_SETTINGS:\n  - dispatchCutoffHours: expected a whole number of hours from 0 to 144',
      );
      expect(() => readStageSettings({ SHOP_STAGE_SETTINGS: '{' })).toThrow(
        'SHOP_STAGE_SETTINGS is not JSON',
      );
    });
  });
});
