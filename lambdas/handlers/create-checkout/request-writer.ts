import type { RequestWriterDeps } from '../../domain/operations/request-actions';
import type { ShopTable } from '../../domain/storage/orders-table';
import type { CheckoutEnv } from '../../lib/config';
import { stdoutMetricsWriter } from '../../lib/metrics';
import { pushSenderFromEnv } from '../../lib/web-push';
import { shopEmail } from '../../runtime';

// What create-checkout needs only in requests mode: the SES client and the request actions.
// checkout-gate.ts imports this module on the first order request a container takes, so the paid
// path never loads them (ADR 0020).

export { recordOrderRequest } from '../../domain/operations/request-actions';

/** What records an order request and notifies the merchant, on the gate's table, from create-checkout's parsed configuration. */
export function createRequestDeps(config: CheckoutEnv, table: ShopTable): RequestWriterDeps {
  return {
    table,
    ...shopEmail(config),
    now: () => new Date(),
    metrics: stdoutMetricsWriter,
    pushSender: pushSenderFromEnv(config),
  };
}
