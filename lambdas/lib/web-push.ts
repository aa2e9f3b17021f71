import { createECDH } from 'node:crypto';
import * as z from 'zod/mini';
import { VAPID_SECRET_JSON_KEYS } from '../../shared/merchant-push';
import { initOnce } from './cold-start';
import type { PushEnv } from './config';
import { readSecretString } from './secrets-extension';

const vapidSecretSchema = z.object({
  [VAPID_SECRET_JSON_KEYS.publicKey]: z.string(),
  [VAPID_SECRET_JSON_KEYS.privateKey]: z.string(),
});

/** The stage's VAPID key pair (RFC 8292), base64url as web-push makes it. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** Where one push goes: a browser's PushSubscription (its endpoint and keys). */
export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** Sends one encrypted push and answers the push service's status code. */
export interface PushSender {
  publicKey: string;
  send(target: PushTarget, payload: string): Promise<number>;
}

/** How long a push service may take: a push is best-effort and the webhook waits for it. */
export const PUSH_TIMEOUT_MS = 3_000;
/** Kept by the push service this long for a device that is off: a day-old order is old news. */
export const PUSH_TTL_SECONDS = 24 * 3_600;

/** From Secrets Manager (VAPID_SECRET_ID), else VAPID_PUBLIC_KEY/PRIVATE_KEY, else undefined: no pushes. */
export async function loadVapidKeys(env: PushEnv): Promise<VapidKeys | undefined> {
  if (env.VAPID_SECRET_ID) {
    const text = await readSecretString(env.VAPID_SECRET_ID, {
      port: env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT,
    });
    const parsed = vapidSecretSchema.parse(JSON.parse(text));
    const publicKey = parsed[VAPID_SECRET_JSON_KEYS.publicKey];
    const privateKey = parsed[VAPID_SECRET_JSON_KEYS.privateKey];
    // Empty until setup stores a pair: the stage has no notifications yet.
    return publicKey && privateKey ? { publicKey, privateKey } : undefined;
  }
  if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY)
    return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY };
  return undefined;
}

/** A new key pair (P-256, base64url: the public key uncompressed, the private key raw), as web-push makes one. */
export function generateVapidKeys(): VapidKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    // 32 bytes, as RFC 8292 wants: the curve may give fewer when the number starts with zeros.
    privateKey: Buffer.concat([Buffer.alloc(32), ecdh.getPrivateKey()])
      .subarray(-32)
      .toString('base64url'),
  };
}

/** https only, or the local stack's one http push stand-in: a stored URL cannot aim the Lambda at http. */
export function isPushEndpointAllowed(endpoint: string, localOrigin: string | undefined): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  return url.protocol === 'https:' || (localOrigin !== undefined && url.origin === localOrigin);
}

/** web-push's request (VAPID, aes128gcm) sent with fetch: its own sender is https only, the stand-in http. */
export function createPushSender(
  keys: VapidKeys,
  subject: string,
  options: { localOrigin?: string | undefined; timeoutMs?: number } = {},
): PushSender {
  return {
    publicKey: keys.publicKey,
    async send(target, payload) {
      // Refused as a push service refuses an endpoint that is none of its: the device is pruned.
      if (!isPushEndpointAllowed(target.endpoint, options.localOrigin)) return 410;
      // Loaded at the first push, not at cold start: most invocations push nothing.
      const { default: webPush } = await import('web-push');
      const request = webPush.generateRequestDetails(
        { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
        payload,
        {
          vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
          TTL: PUSH_TTL_SECONDS,
          urgency: 'high',
          contentEncoding: 'aes128gcm',
        },
      );
      const response = await fetch(request.endpoint, {
        method: request.method,
        headers: request.headers as Record<string, string>,
        body: request.body === null ? undefined : new Uint8Array(request.body),
        signal: AbortSignal.timeout(options.timeoutMs ?? PUSH_TIMEOUT_MS),
      });
      await response.arrayBuffer().catch(() => undefined);
      return response.status;
    },
  };
}

/** The sender of a function's environment, built once per cold start; undefined without keys. */
export function pushSenderFromEnv(
  env: PushEnv & { MERCHANT_EMAIL: string },
): () => Promise<PushSender | undefined> {
  return initOnce(async () => {
    const keys = await loadVapidKeys(env);
    if (keys === undefined) return undefined;
    return createPushSender(keys, `mailto:${env.MERCHANT_EMAIL}`, { localOrigin: env.PUSH_LOCAL_ORIGIN });
  });
}
