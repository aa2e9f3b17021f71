import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import {
  isResourceMissing,
  PaymentProviderError,
  summariseStripeError,
  toPaymentProviderError,
} from '../../../lambdas/lib/stripe-errors';

// The SDK's own error classes, as its HTTP layer builds them from Stripe's answers.
const invalidRequest = (raw: { code?: string; statusCode?: number; param?: string; message?: string }) =>
  new Stripe.errors.StripeInvalidRequestError({
    type: 'invalid_request_error',
    message: raw.message ?? 'Invalid email address: zoe@example',
    requestId: 'req_1',
    ...raw,
  });

describe('PaymentProviderError', () => {
  it('names itself and says the type and code, never a parameter value', () => {
    const error = new PaymentProviderError({ type: 'invalid_request_error', code: 'email_invalid' });

    expect(error.name).toBe('PaymentProviderError');
    expect(error.message).toBe('Stripe request failed: invalid_request_error (email_invalid)');
  });

  it('says only the type when there is no code', () => {
    expect(new PaymentProviderError({ type: 'api_connection_error' }).message).toBe(
      'Stripe request failed: api_connection_error',
    );
  });
});

describe('isResourceMissing', () => {
  it.each([
    ['resource_missing on a 400', invalidRequest({ code: 'resource_missing', statusCode: 400 }), true],
    ['a 404 without a code', invalidRequest({ statusCode: 404 }), true],
    ['another invalid request', invalidRequest({ code: 'parameter_invalid_empty', statusCode: 400 }), false],
    [
      'a 404 that is not an invalid request',
      new Stripe.errors.StripeAPIError({ type: 'api_error', message: 'Not here', statusCode: 404 }),
      false,
    ],
    ['not a Stripe error', new Error('resource_missing'), false],
  ])('%s: %s', (_title, error, expected) => {
    expect(isResourceMissing(error)).toBe(expected);
  });
});

describe('summariseStripeError', () => {
  it('keeps the codes of an invalid request and leaves out its message, which can echo what we sent', () => {
    const summary = summariseStripeError(
      invalidRequest({ code: 'email_invalid', statusCode: 400, param: 'customer_email' }),
    );

    expect(summary).toEqual({
      type: 'StripeInvalidRequestError',
      code: 'email_invalid',
      param: 'customer_email',
      statusCode: 400,
      requestId: 'req_1',
      message: undefined,
    });
  });

  it.each([
    [
      'a connection problem',
      new Stripe.errors.StripeConnectionError({ message: 'socket hang up' }),
      'socket hang up',
    ],
    [
      "Stripe's own failure",
      new Stripe.errors.StripeAPIError({ message: 'Something went wrong on our end', statusCode: 500 }),
      'Something went wrong on our end',
    ],
  ])('keeps the message of %s, which names no customer', (_title, error, message) => {
    expect(summariseStripeError(error).message).toBe(message);
  });
});

describe('toPaymentProviderError', () => {
  it('wraps a Stripe error with its summary and the error as cause', () => {
    const stripeError = invalidRequest({ code: 'resource_missing', statusCode: 404 });

    const wrapped = toPaymentProviderError(stripeError);

    expect(wrapped).toBeInstanceOf(PaymentProviderError);
    expect(wrapped).toMatchObject({
      summary: { type: 'StripeInvalidRequestError', code: 'resource_missing', statusCode: 404 },
      cause: stripeError,
    });
  });

  it('returns anything else unchanged: a bug is not a payment failure', () => {
    const bug = new TypeError('x is undefined');

    expect(toPaymentProviderError(bug)).toBe(bug);
  });
});
