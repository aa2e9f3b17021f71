import * as z from 'zod/mini';
import { initOnce } from '../../lib/cold-start';
import { type Env, parseEnv } from '../../lib/config';
import { logger } from '../../lib/logger';
import { cameThroughCloudFront, ORIGIN_VERIFY_HEADER } from '../../lib/origin-verify';
import { readSecretString } from '../../lib/secrets-extension';

/*
 * The API's Lambda authorizer: every route answers only requests that came through CloudFront,
 * checked before any shop function runs. API Gateway caches the answer per header value, so this
 * runs about once per five minutes, not per request.
 */

const envSchema = z.object({
  /** Secrets Manager id of the value CloudFront sends in the origin-verify header. */
  ORIGIN_VERIFY_SECRET_ID: z.string().check(z.minLength(1)),
  PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: z.optional(
    z.coerce.number().check(z.int(), z.minimum(1), z.maximum(65_535)),
  ),
});

/** The part of an HTTP API (payload 2.0) authorizer event this reads. */
export interface AuthorizerEvent {
  headers?: Readonly<Record<string, string | undefined>>;
  requestContext?: { requestId?: string };
}

/** Builds the authorizer from a loader of the expected value (a failure refuses, and is retried next time). */
export function createOriginVerifyAuthorizer(
  expectedValue: () => Promise<string>,
): (event: AuthorizerEvent) => Promise<{ isAuthorized: boolean }> {
  return async (event) => {
    const presented = event.headers?.[ORIGIN_VERIFY_HEADER];
    let expected: string | undefined;
    try {
      expected = await expectedValue();
    } catch (error) {
      // Fail closed: without the value nothing can be checked, so nothing is let through.
      logger.error('Origin-verify secret unavailable', { error, requestId: event.requestContext?.requestId });
      return { isAuthorized: false };
    }
    const isAuthorized = cameThroughCloudFront(presented, expected);
    if (!isAuthorized) {
      logger.warn('Request did not come through CloudFront', { requestId: event.requestContext?.requestId });
    }
    return { isAuthorized };
  };
}

export function loadExpectedValue(env: Env): Promise<string> {
  const config = parseEnv(envSchema, env);
  return readSecretString(config.ORIGIN_VERIFY_SECRET_ID, {
    port: config.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT,
  });
}

/** The Lambda entry point. */
export const handler = createOriginVerifyAuthorizer(initOnce(() => loadExpectedValue(process.env)));
