import { describe, expect, it } from 'vitest';
import { config, SITE } from '../../web/src/config';

describe('web config', () => {
  it("reads the stage's settings the site was built with (the local stage's in tests)", () => {
    expect(SITE.seller).toMatchObject({
      shopName: 'Live Aquatics',
      name: 'Live Aquatics (local test shop)',
      address: '1 Test Street, Testville, TE1 1ST',
      email: 'hello@live-aquatics.test',
    });
  });

  it("calls the page's own origin, with no public key, the 36-hour cut-off and the spec's claims", () => {
    expect(config).toEqual({
      apiOrigin: 'http://localhost:3000',
      publicKey: undefined,
      dispatchCutoffHours: 36,
      claims: {
        trialRunNotice: 'This is a trial run.',
        promotion: { referencePence: 1200, wording: '£9.75 for 3 bottles' },
      },
    });
  });
});
