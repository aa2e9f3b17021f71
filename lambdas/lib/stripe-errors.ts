import Stripe from 'stripe';

/** What the log may say about a Stripe failure: identifiers and codes, never parameter values. */
export interface StripeErrorSummary {
  type: string;
  code?: string | undefined;
  param?: string | undefined;
  statusCode?: number | undefined;
  requestId?: string | undefined;
  /** Only for errors whose message carries no customer data (connection problems, Stripe's own 5xx). */
  message?: string | undefined;
}

/**
 * Stripe failed, timed out or answered something we cannot use. The customer sees a generic
 * "try again" (HTTP 502); the summary goes to the log.
 */
export class PaymentProviderError extends Error {
  constructor(
    readonly summary: StripeErrorSummary,
    options?: { cause?: unknown },
  ) {
    super(`Stripe request failed: ${summary.type}${summary.code ? ` (${summary.code})` : ''}`, options);
    this.name = 'PaymentProviderError';
  }
}

export function isStripeError(error: unknown): error is Stripe.errors.StripeError {
  return error instanceof Stripe.errors.StripeError;
}

/** Stripe refused an idempotency key reused with different parameters (HTTP 400 `idempotency_error`). */
export function isIdempotencyMismatch(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeIdempotencyError;
}

/** Stripe does not know the object (HTTP 404 `resource_missing`). */
export function isResourceMissing(error: unknown): boolean {
  return (
    error instanceof Stripe.errors.StripeInvalidRequestError &&
    (error.code === 'resource_missing' || error.statusCode === 404)
  );
}

/**
 * A log-safe summary of a Stripe error. Invalid-request messages can echo what we sent (an
 * email address, say), so their text is left out; `param` names the field without its value.
 */
export function summariseStripeError(error: Stripe.errors.StripeError): StripeErrorSummary {
  const messageIsSafe =
    error instanceof Stripe.errors.StripeConnectionError || error instanceof Stripe.errors.StripeAPIError;
  return {
    type: error.type,
    code: error.code,
    param: error.param,
    statusCode: error.statusCode,
    requestId: error.requestId,
    message: messageIsSafe ? error.message : undefined,
  };
}

/** Wraps any Stripe SDK error in a PaymentProviderError; anything else (a bug) is returned unchanged. */
export function toPaymentProviderError(error: unknown): unknown {
  return isStripeError(error)
    ? new PaymentProviderError(summariseStripeError(error), { cause: error })
    : error;
}
