import type { CheckoutEnv } from '../../lib/config';
import { stdoutMetricsWriter } from '../../lib/metrics';
import { createSesClient } from '../../lib/ses-client';
import { pushSenderFromEnv } from '../../lib/web-push';
import { shopEmailIdentity } from '../emails/send-email';
import type { ShopTable } from '../storage/orders-table';
import type { RequestWriterDeps } from './request-actions';

// What create-checkout needs only in requests mode: the SES client and the request actions.
// checkout-gate.ts imports this module on the first order request a container takes, so the paid
// path never loads them (ADR 0020).

export { recordOrderRequest } from './request-actions';

/** Builds what records an order request and notifies the merchant, on the gate's table, from create-checkout's parsed configuration. */
export function createRequestDeps(config: CheckoutEnv, table: ShopTable): RequestWriterDeps {
  const ses = createSesClient({ region: config.AWS_REGION, endpoint: config.SES_ENDPOINT });
  return {
    table,
    ...shopEmailIdentity(ses, config),
    merchantEmail: config.MERCHANT_EMAIL,
    now: () => new Date(),
    metrics: stdoutMetricsWriter,
    pushSender: pushSenderFromEnv(config),
  };
}
