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
    });
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
