import { timingSafeEqual } from 'node:crypto';
import type { OriginVerifyEnv } from './config';
import { readSecretString } from './secrets-extension';

/** The header CloudFront adds to every request it forwards to the API (never sent by browsers). */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

/**
 * Whether a request came through the shop's CloudFront distribution: its origin-verify header
 * equals the secret CloudFront was configured with. Constant-time, so the comparison's duration
 * says nothing about how much of a guess was right. No expected value, or an empty one, refuses.
 */
export function cameThroughCloudFront(presented: string | undefined, expected: string | undefined): boolean {
  if (!expected || presented === undefined) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The value CloudFront sends in the origin-verify header, read from its secret through the extension. */
export function readOriginVerifyValue(config: OriginVerifyEnv): Promise<string> {
  return readSecretString(config.ORIGIN_VERIFY_SECRET_ID, {
    port: config.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT,
  });
}
