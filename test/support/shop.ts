/** The SHOP_ID the tests' deployment runs as: its marker in every session it creates. */
export const TEST_SHOP_ID = 'LiveAquatics-test';
/** Another deployment on the same Stripe account (another stage, another developer). */
export const OTHER_SHOP_ID = 'LiveAquatics-live';
