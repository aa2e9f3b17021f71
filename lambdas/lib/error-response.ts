import { ConfigError } from './config';
import { HttpError, type HttpResult, json } from './http';
import { logger } from './logger';
import { PaymentProviderError, toPaymentProviderError } from './stripe-errors';

/** What the customer reads when something on our side failed: never a detail, never a stack. */
export const GENERIC_ERRORS = {
  /** Word for word the page's "Checkout Failed" toast text, so the page can show the body as it is. */
  paymentProvider: 'Unable to process your order. Please try again.',
  unavailable: 'The shop is temporarily unavailable. Please try again in a few minutes.',
  unexpected: 'Something went wrong. Please try again.',
} as const;

export type GenericMessages = Record<keyof typeof GENERIC_ERRORS, string>;

/** A Lambda's clients or configuration could not be built: the service is unavailable, not the request. */
export class DependenciesUnavailableError extends Error {
  constructor(options: { cause: unknown }) {
    super('Dependencies could not be initialised', options);
    this.name = 'DependenciesUnavailableError';
  }
}

/**
 * The shared errors as HTTP: an HttpError as it says; unloadable configuration or secrets 503; Stripe failing
 * 502; anything else a bug, a generic 500 with detail in the log only. `logKeys` are passed rather than
 * appended to the shared logger, as the local dev server runs concurrent requests through one module.
 */
export function sharedErrorResponse(
  thrown: unknown,
  logKeys: Record<string, unknown>,
  messages: Partial<GenericMessages> = {},
): HttpResult {
  const text = { ...GENERIC_ERRORS, ...messages };
  const error = toPaymentProviderError(thrown);
  if (error instanceof HttpError) {
    const { fields } = error.body;
    // The names of the refused fields help spot a broken page; their values stay out of the log.
    const fieldNames = typeof fields === 'object' && fields !== null ? Object.keys(fields) : undefined;
    logger.info('Request refused', {
      ...logKeys,
      statusCode: error.statusCode,
      reason: error.message,
      fieldNames,
    });
    return json(error.statusCode, error.body, error.headers);
  }
  if (error instanceof ConfigError || error instanceof DependenciesUnavailableError) {
    const cause = error instanceof DependenciesUnavailableError ? error.cause : error;
    // ConfigError lists setting names and what is wrong with them, never their values.
    const detail = cause instanceof ConfigError ? { problems: cause.problems } : { error: cause };
    logger.error('Configuration or secrets could not be loaded', { ...logKeys, statusCode: 503, ...detail });
    return json(503, { error: text.unavailable });
  }
  if (error instanceof PaymentProviderError) {
    logger.error('Stripe request failed', { ...logKeys, statusCode: 502, stripe: error.summary });
    return json(502, { error: text.paymentProvider });
  }
  logger.error('Unexpected error', { ...logKeys, statusCode: 500, error });
  return json(500, { error: text.unexpected });
}
