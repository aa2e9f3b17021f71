import type Stripe from 'stripe';
import { initOnce } from '../lib/cold-start';
import { type Env, parseEnv, statusEnvSchema } from '../lib/config';
import { DependenciesUnavailableError, sharedErrorResponse } from '../lib/error-response';
import { HttpError, type HttpEvent, type HttpResult, json } from '../lib/http';
import { logger } from '../lib/logger';
import { createStripeClient, loadStripeSecrets } from '../lib/stripe';
import { CheckoutSessionNotFoundError, getCheckoutStatus } from './get-checkout-status';

export const STATUS_ERRORS = {
  notFound: 'Order not found.',
  method: 'Use GET.',
  unavailable: 'Unable to check your payment right now. Please refresh the page in a moment.',
} as const;

export interface StatusHandlerDeps {
  stripe: Stripe;
}

/** Builds the Stripe client from the environment: once per cold start (see `handler`). */
export async function loadStatusDeps(env: Env): Promise<StatusHandlerDeps> {
  const config = parseEnv(statusEnvSchema, env);
  const secrets = await loadStripeSecrets(config);
  return { stripe: createStripeClient(secrets.secretKey, { apiBase: config.STRIPE_API_BASE }) };
}

/**
 * `GET /functions/v1/checkout-status?session_id=cs_...`: the success page's read-only lookup.
 * Takes its dependencies, or a function that loads them (a failure there answers 503).
 */
export function createStatusHandler(
  deps: StatusHandlerDeps | (() => Promise<StatusHandlerDeps>),
): (event: HttpEvent) => Promise<HttpResult> {
  const getDeps = typeof deps === 'function' ? deps : async () => deps;
  return async (event) => {
    const logKeys = { requestId: event.requestContext.requestId, route: 'checkout-status' };
    try {
      if (event.requestContext.http.method !== 'GET') {
        throw new HttpError(405, { error: STATUS_ERRORS.method });
      }
      const resolved = await getDeps().catch((cause: unknown) => {
        throw new DependenciesUnavailableError({ cause });
      });
      const sessionId = event.queryStringParameters?.session_id ?? '';
      const status = await getCheckoutStatus(sessionId, { stripe: resolved.stripe });
      logger.info('Checkout status answered', {
        ...logKeys,
        statusCode: 200,
        sessionId,
        status: status.status,
      });
      return json(200, status);
    } catch (error) {
      return statusErrorResponse(error, logKeys);
    }
  };
}

/** The one place this endpoint's errors become HTTP answers. */
function statusErrorResponse(error: unknown, logKeys: Record<string, unknown>): HttpResult {
  if (error instanceof CheckoutSessionNotFoundError) {
    // The id itself is not logged when malformed: it is whatever the visitor typed.
    logger.info('Checkout Session not found', { ...logKeys, statusCode: 404, reason: error.reason });
    return json(404, { error: STATUS_ERRORS.notFound });
  }
  return sharedErrorResponse(error, logKeys, { paymentProvider: STATUS_ERRORS.unavailable });
}

const loadDeps = initOnce(() => loadStatusDeps(process.env));

/** The Lambda entry point: the Stripe client built once per cold start from the environment. */
export const handler = createStatusHandler(loadDeps);
