/**
 * Stripe-shaped API errors. The stripe SDK picks its error class from the HTTP status and
 * `error.type` (400/404 → StripeInvalidRequestError, or StripeIdempotencyError when the type is
 * `idempotency_error`; 401 → StripeAuthenticationError; 5xx → StripeAPIError), so status and type
 * are what callers see; the messages follow Stripe's wording where we know it.
 */

export interface StripeErrorBody {
  type: 'invalid_request_error' | 'api_error' | 'idempotency_error';
  message: string;
  code?: string;
  param?: string;
  doc_url?: string;
}

export class StripeApiError extends Error {
  readonly status: number;
  readonly body: StripeErrorBody;

  constructor(status: number, body: StripeErrorBody) {
    super(body.message);
    this.name = 'StripeApiError';
    this.status = status;
    this.body = body;
  }

  toJSON(): { error: StripeErrorBody } {
    return { error: this.body };
  }
}

export function invalidRequest(
  message: string,
  options: { param?: string; code?: string; status?: number } = {},
): StripeApiError {
  const body: StripeErrorBody = { type: 'invalid_request_error', message };
  if (options.code !== undefined) {
    body.code = options.code;
    body.doc_url = `https://stripe.com/docs/error-codes/${options.code.replaceAll('_', '-')}`;
  }
  if (options.param !== undefined) body.param = options.param;
  return new StripeApiError(options.status ?? 400, body);
}

export function resourceMissing(objectName: string, id: string, param: string, status = 404): StripeApiError {
  return invalidRequest(`No such ${objectName}: '${id}'`, { param, code: 'resource_missing', status });
}

export function idempotencyKeyReused(key: string): StripeApiError {
  return new StripeApiError(400, {
    type: 'idempotency_error',
    message:
      'Keys for idempotent requests can only be used with the same parameters they were first used with. ' +
      `Try using a key other than '${key}' if you meant to execute a different request.`,
  });
}

export function idempotencyKeyInUse(key: string): StripeApiError {
  return new StripeApiError(409, {
    type: 'idempotency_error',
    message:
      'There is currently another in-progress request using this Idempotent Key (that probably means you ' +
      `submitted twice, and the other request is still going through): ${key}. Please try again later.`,
  });
}

export function missingApiKey(): StripeApiError {
  return invalidRequest(
    'You did not provide an API key. You need to provide your API key in the Authorization header, using ' +
      "Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication " +
      'for details, or we can help at https://support.stripe.com/.',
    { status: 401 },
  );
}

export function invalidApiKey(key: string): StripeApiError {
  // Stripe echoes only the prefix and the last four characters of a key it refuses.
  const masked =
    key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}` : '****';
  return invalidRequest(`Invalid API Key provided: ${masked}`, { code: 'api_key_invalid', status: 401 });
}

export function unrecognizedUrl(method: string, path: string): StripeApiError {
  return invalidRequest(
    `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
    { status: 404 },
  );
}

export function simulatedFailure(status: number): StripeApiError {
  return new StripeApiError(status, { type: 'api_error', message: 'Simulated failure' });
}

export function internalError(): StripeApiError {
  return new StripeApiError(500, {
    type: 'api_error',
    message: 'The Stripe simulator hit an unexpected error; see its log.',
  });
}
