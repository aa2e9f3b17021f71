import type { CheckoutRequest } from '../../shared/checkout-request';
import { createSesEmailSender } from '../fulfilment/emails/send-email';
import { createDocumentClient, createSesClient } from '../lib/aws';
import type { FulfilmentEnv } from '../lib/config';
import type { ShopDeps } from './deps';
import { recordOrderRequest } from './request-actions';
import { createSettingsReader, type ShopSettings } from './shop-settings';

/** What create-checkout needs for the shop's settings and order requests. */
export interface CheckoutGateDeps {
  /** The current settings; cached for a few seconds at most (createSettingsReader). */
  settings: () => Promise<ShopSettings>;
  /** Where order requests are recorded and who is emailed about them. */
  requests: ShopDeps;
}

/** The page's text when the merchant paused without a message of their own (never expected). */
export const DEFAULT_PAUSED_MESSAGE = 'We are not taking orders at the moment. Please come back soon.';

/** Builds the gate's clients from create-checkout's parsed configuration: once per cold start. */
export function createCheckoutGate(
  config: Pick<
    FulfilmentEnv,
    | 'AWS_REGION'
    | 'ORDERS_TABLE_NAME'
    | 'DYNAMODB_ENDPOINT'
    | 'SES_ENDPOINT'
    | 'SES_FROM_ADDRESS'
    | 'SES_CONFIGURATION_SET'
    | 'MERCHANT_EMAIL'
    | 'SELLER_NAME'
    | 'SELLER_ADDRESS'
    | 'SELLER_EMAIL'
    | 'SELLER_COMPANY_NUMBER'
    | 'SELLER_VAT_NUMBER'
  >,
): CheckoutGateDeps {
  const table = {
    client: createDocumentClient({ region: config.AWS_REGION, endpoint: config.DYNAMODB_ENDPOINT }),
    tableName: config.ORDERS_TABLE_NAME,
  };
  const ses = createSesClient({ region: config.AWS_REGION, endpoint: config.SES_ENDPOINT });
  return {
    settings: createSettingsReader(table),
    requests: {
      table,
      sender: createSesEmailSender(ses, {
        from: config.SES_FROM_ADDRESS,
        configurationSet: config.SES_CONFIGURATION_SET,
      }),
      seller: {
        name: config.SELLER_NAME,
        address: config.SELLER_ADDRESS,
        email: config.SELLER_EMAIL,
        companyNumber: config.SELLER_COMPANY_NUMBER,
        vatNumber: config.SELLER_VAT_NUMBER,
      },
      merchantEmail: config.MERCHANT_EMAIL,
      now: () => new Date(),
    },
  };
}

/** Records a validated checkout as an order request (requests mode); see recordOrderRequest. */
export function takeOrderRequest(
  input: CheckoutRequest,
  options: { idempotencyKey: string | undefined; cutoffHours: number },
  gate: CheckoutGateDeps,
) {
  return recordOrderRequest(input, options, gate.requests);
}
