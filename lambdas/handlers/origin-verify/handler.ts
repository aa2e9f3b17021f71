import { initOnce } from '../../lib/cold-start';
import { type Env, parseEnv } from '../../lib/config';
import { VIEWER_ADDRESS_HEADER, viewerAddressIn } from '../../lib/http';
import { logger } from '../../lib/logger';
import {
  cameThroughCloudFront,
  ORIGIN_VERIFY_HEADER,
  originVerifyEnvSchema,
  readOriginVerifyValue,
} from '../../lib/origin-verify';

/*
 * The API's authorizer: only requests through CloudFront reach a shop function; it passes the viewer's
 * address to the access log. API Gateway caches the answer 5 minutes per origin-verify value and viewer
 * `ip:port`, so it runs about once per visit.
 */

/** The part of an HTTP API (payload 2.0) authorizer event this reads. */
export interface AuthorizerEvent {
  headers?: Readonly<Record<string, string | undefined>>;
  requestContext?: { requestId?: string };
}

/** `context` reaches the access log: only the viewer's address, checked as an IP, never the client's text. */
export interface AuthorizerAnswer {
  isAuthorized: boolean;
  context?: { viewerAddress: string };
}

/** Builds the authorizer from a loader of the expected value (a failure refuses, and is retried next time). */
export function createOriginVerifyAuthorizer(
  expectedValue: () => Promise<string>,
): (event: AuthorizerEvent) => Promise<AuthorizerAnswer> {
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
    if (!cameThroughCloudFront(presented, expected)) {
      logger.warn('Request did not come through CloudFront', { requestId: event.requestContext?.requestId });
      return { isAuthorized: false };
    }
    // API Gateway lower-cases header names in payload 2.0. CloudFront always sends the address;
    // without one (or with something else there) the log says so by leaving the field empty.
    const viewer = viewerAddressIn(event.headers?.[VIEWER_ADDRESS_HEADER]);
    return viewer === undefined
      ? { isAuthorized: true }
      : { isAuthorized: true, context: { viewerAddress: viewer } };
  };
}

export function loadExpectedValue(env: Env): Promise<string> {
  return readOriginVerifyValue(parseEnv(originVerifyEnvSchema, env));
}

/** The Lambda entry point. */
export const handler = createOriginVerifyAuthorizer(initOnce(() => loadExpectedValue(process.env)));
