import { PUBLIC_API_ROUTES } from '../../../shared/public-routes';
import {
  CheckoutSessionNotFoundError,
  type GetCheckoutStatusDeps,
  getCheckoutStatus,
} from '../../domain/checkout/get-checkout-status';
import { orderPageKeys } from '../../domain/order-page-token';
import { ordersTable } from '../../lib/aws';
import { type Env, parseEnv, statusEnvSchema } from '../../lib/config';
import { type HttpResult, json } from '../../lib/http';
import { type DepsOrLoader, type HttpRequest, httpEndpoint, type LogKeys } from '../../lib/http-handler';
import { logger } from '../../lib/logger';
import { loadOrderPageSecret } from '../../lib/order-page-secret';
import { loadStripeClient } from '../../lib/stripe';

export const STATUS_ERRORS = {
  notFound: 'Order not found.',
  method: 'Use GET.',
  unavailable: 'Unable to check your payment right now. Please refresh the page in a moment.',
} as const;

export type StatusHandlerDeps = GetCheckoutStatusDeps;

/** Builds the clients from the environment: once per cold start (see `handler`). */
export async function loadStatusDeps(env: Env): Promise<StatusHandlerDeps> {
  const config = parseEnv(statusEnvSchema, env);
  const [stripe, secret] = await Promise.all([loadStripeClient(config), loadOrderPageSecret(config)]);
  const { ORDERS_TABLE_NAME: tableName, AWS_REGION: region } = config;
  return {
    stripe,
    shopId: config.SHOP_ID,
    // Both or no link: without the table there is no page key, without the secret no token.
    ...(secret !== undefined &&
      tableName !== undefined &&
      region !== undefined && {
        orderPages: {
          table: ordersTable({
            AWS_REGION: region,
            DYNAMODB_ENDPOINT: config.DYNAMODB_ENDPOINT,
            ORDERS_TABLE_NAME: tableName,
          }),
          keys: orderPageKeys(secret),
        },
      }),
  };
}

/**
 * `GET /functions/v1/checkout-status?session_id=cs_...`: the success page's read-only lookup.
 * Takes its dependencies, or a function that loads them (a failure there answers 503).
 */
export function createStatusHandler(deps: DepsOrLoader<StatusHandlerDeps>) {
  return httpEndpoint({
    route: PUBLIC_API_ROUTES.checkoutStatus,
    deps,
    handle: checkoutStatus,
    mapError: statusErrorResponse,
    messages: { paymentProvider: STATUS_ERRORS.unavailable },
  });
}

async function checkoutStatus({ event, deps, logKeys }: HttpRequest<StatusHandlerDeps>): Promise<HttpResult> {
  const sessionId = event.queryStringParameters?.session_id ?? '';
  const status = await getCheckoutStatus(sessionId, deps);
  // The session id, not the link: the link opens the order to whoever reads it.
  logger.info('Checkout status answered', {
    ...logKeys,
    statusCode: 200,
    sessionId,
    status: status.status,
    orderPageLinked: status.orderPage !== undefined,
  });
  return json(200, status);
}

/** This endpoint's own errors; the rest fall through to the shared mapping. */
function statusErrorResponse(error: unknown, logKeys: LogKeys): HttpResult | undefined {
  if (error instanceof CheckoutSessionNotFoundError) {
    // The id itself is not logged when malformed: it is whatever the visitor typed.
    logger.info('Checkout Session not found', { ...logKeys, statusCode: 404, reason: error.reason });
    return json(404, { error: STATUS_ERRORS.notFound });
  }
  return undefined;
}

/** The Lambda entry point: the Stripe client built once per cold start from the environment. */
export const handler = createStatusHandler(() => loadStatusDeps(process.env));
