import type { FulfilmentHarness } from '../../../support/fulfilment-harness';
import { TEST_SHOP_ID } from '../../../support/shop';
import { STAND_IN_REGION } from '../../../support/stand-ins';

/** The admin Lambda's environment against a harness's stand-ins, as the deployed function gets it. */
export function adminApiEnv(
  h: FulfilmentHarness,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    STRIPE_LIVEMODE: 'false',
    STRIPE_SECRET_KEY: 'sk_test_admin',
    STRIPE_API_BASE: h.simulator.url,
    ORDERS_TABLE_NAME: h.standIns.tableName,
    DYNAMODB_ENDPOINT: h.standIns.dynamoEndpoint,
    SES_ENDPOINT: h.standIns.sesEndpoint,
    AWS_REGION: STAND_IN_REGION,
    SES_FROM_ADDRESS: 'orders@live-aquatics.test',
    MERCHANT_EMAIL: 'merchant@live-aquatics.test',
    SELLER_NAME: 'Live Aquatics Ltd',
    SELLER_ADDRESS: '1 Pond Lane\nBristol BS1 4DJ',
    SELLER_EMAIL: 'hello@live-aquatics.test',
    SITE_URL: 'http://shop.test',
    SHOP_ID: TEST_SHOP_ID,
    ...extra,
  };
}
