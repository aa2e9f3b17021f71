/** The SHOP_ID the tests' deployment runs as: its marker in every session it creates. */
export const TEST_SHOP_ID = 'LiveAquatics-test';
/** Another deployment on the same Stripe account (another stage, another developer). */
export const OTHER_SHOP_ID = 'LiveAquatics-live';

/**
 * What the stack sets for stripe-webhook and reconcile-orders, plus the AWS_REGION the runtime
 * sets: enough to build their dependencies (no call is made until a request).
 */
export const FULFILMENT_ENV = {
  STRIPE_LIVEMODE: 'false',
  STRIPE_SECRET_KEY: 'sk_test_config',
  ORDERS_TABLE_NAME: 'orders',
  SES_FROM_ADDRESS: 'orders@live-aquatics.test',
  MERCHANT_EMAIL: 'merchant@live-aquatics.test',
  SELLER_NAME: 'Live Aquatics Ltd',
  SELLER_ADDRESS: '1 Pond Lane, Bristol BS1 4DJ',
  SELLER_EMAIL: 'hello@live-aquatics.test',
  SITE_URL: 'https://shop.test',
  SHOP_ID: TEST_SHOP_ID,
  AWS_REGION: 'eu-west-2',
} as const;
