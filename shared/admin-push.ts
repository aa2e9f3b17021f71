import * as z from 'zod/mini';

// The admin routes that turn a device's notifications on and off (shared/admin-routes.ts), in
// PushSubscription.toJSON()'s own shape, so the page sends what the browser gives.
const base64url = (min: number, max: number) =>
  z.string().check(z.regex(/^[A-Za-z0-9_-]+={0,2}$/), z.minLength(min), z.maxLength(max));

/** `POST push/subscribe`: a device's subscription. */
export const adminPushSubscribeSchema = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).check(z.maxLength(2_000)),
  expirationTime: z.optional(z.nullable(z.number())),
  keys: z.object({ p256dh: base64url(86, 90), auth: base64url(16, 30) }),
});

/** `POST push/unsubscribe`: the device's endpoint. */
export const adminPushUnsubscribeSchema = z.strictObject({
  endpoint: z.string().check(z.minLength(1), z.maxLength(2_000)),
});

/** `GET push/key`: the stage's VAPID public key, or null when the stage has none (no notifications). */
export const adminPushKeyResponseSchema = z.object({ publicKey: z.nullable(z.string()) });
export const adminPushSubscribeResponseSchema = z.object({ subscribed: z.literal(true) });
export const adminPushUnsubscribeResponseSchema = z.object({ removed: z.boolean() });
