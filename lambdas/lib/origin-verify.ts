import { timingSafeEqual } from 'node:crypto';
import * as z from 'zod/mini';
import { extensionPort } from './config';
import { readSecretString } from './secrets-extension';

/** The header CloudFront adds to every request it forwards to the API (never sent by browsers). */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

/**
 * Whether the origin-verify header equals CloudFront's secret, in constant time so timing reveals nothing of
 * a guess. No expected value, or an empty one, refuses.
 */
export function cameThroughCloudFront(presented: string | undefined, expected: string | undefined): boolean {
  if (!expected || presented === undefined) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Where the value CloudFront sends is kept: read by the API's authorizer, and by admin-api, which
 * makes the same check first (the stack sets it for those two alone).
 */
export const originVerifyEnvSchema = z.object({
  /** Secrets Manager id of the value CloudFront sends in the origin-verify header. */
  ORIGIN_VERIFY_SECRET_ID: z.string().check(z.minLength(1)),
  PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: extensionPort,
});

/** The value CloudFront sends in the origin-verify header, read from its secret through the extension. */
export function readOriginVerifyValue(config: z.output<typeof originVerifyEnvSchema>): Promise<string> {
  return readSecretString(config.ORIGIN_VERIFY_SECRET_ID, {
    port: config.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT,
  });
}
