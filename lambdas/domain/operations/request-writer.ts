import { createDocumentClient, createSesClient } from '../../lib/aws';
import type { CheckoutEnv } from '../../lib/config';
import { stdoutMetricsWriter } from '../../lib/metrics';
import { shopEmailIdentity } from '../emails/send-email';
import type { RequestWriterDeps } from './request-actions';

// What create-checkout needs only in requests mode: the DynamoDB and SES clients and the request
// actions. checkout-gate.ts imports this module on the first order request a container takes, so
// the AWS SDK is never loaded on the paid path (ADR 0020).

export { recordOrderRequest } from './request-actions';

/** Builds the clients that record an order request and notify the merchant, from create-checkout's parsed configuration. */
export function createRequestDeps(config: CheckoutEnv): RequestWriterDeps {
  const ses = createSesClient({ region: config.AWS_REGION, endpoint: config.SES_ENDPOINT });
  return {
    table: {
      client: createDocumentClient({ region: config.AWS_REGION, endpoint: config.DYNAMODB_ENDPOINT }),
      tableName: config.ORDERS_TABLE_NAME,
    },
    ...shopEmailIdentity(ses, config),
    merchantEmail: config.MERCHANT_EMAIL,
    now: () => new Date(),
    metrics: stdoutMetricsWriter,
  };
}
