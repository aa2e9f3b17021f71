import { createDecipheriv, createECDH, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import type { RecordedPush } from '../../local/push-stand-in';

// A device as a browser is one to a push service: its own P-256 key pair and auth secret, a
// subscription at the push-service stand-in, and RFC 8291's decryption of what arrives there.

export interface TestSubscription {
  /** The stand-in's id of this subscription (the endpoint's last segment). */
  id: string;
  endpoint: string;
  /** The subscription's keys as PushSubscription.toJSON() gives them (base64url). */
  p256dh: string;
  auth: string;
  /** One recorded push's body (base64url, aes128gcm) read back to its text. */
  decrypt(body: string): string;
}

/** A new device subscribed at the stand-in `pushServiceUrl`. */
export function testSubscription(pushServiceUrl: string): TestSubscription {
  const ecdh = createECDH('prime256v1');
  const publicKey = ecdh.generateKeys();
  const authSecret = randomBytes(16);
  const id = randomUUID();
  return {
    id,
    endpoint: `${pushServiceUrl}/push/${id}`,
    p256dh: publicKey.toString('base64url'),
    auth: authSecret.toString('base64url'),
    decrypt: (body) => decryptPush(Buffer.from(body, 'base64url'), ecdh.getPrivateKey(), authSecret),
  };
}

/** RFC 8291 §3.4 and RFC 8188: the one-record aes128gcm body a push carries, decrypted. */
export function decryptPush(body: Buffer, privateKey: Buffer, authSecret: Buffer): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const senderKey = body.subarray(21, 21 + idLength);
  const cipherText = body.subarray(21 + idLength);
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(privateKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdh.computeSecret(senderKey), authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(cipherText.subarray(cipherText.length - 16));
  const padded = Buffer.concat([
    decipher.update(cipherText.subarray(0, cipherText.length - 16)),
    decipher.final(),
  ]);
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('Not a last record (no 0x02 delimiter)');
  return padded.subarray(0, end).toString('utf8');
}

/** The pushes the stand-in recorded for one subscription (GET /pushes). */
export async function pushesFor(pushServiceUrl: string, subscriptionId: string): Promise<RecordedPush[]> {
  const response = await fetch(`${pushServiceUrl}/pushes?subscription=${encodeURIComponent(subscriptionId)}`);
  const { pushes } = (await response.json()) as { pushes: RecordedPush[] };
  return pushes;
}

/** Makes the stand-in answer 410 Gone for a subscription from now on. */
export async function makeGone(pushServiceUrl: string, subscriptionId: string): Promise<void> {
  await fetch(`${pushServiceUrl}/subscriptions/${encodeURIComponent(subscriptionId)}/gone`, {
    method: 'POST',
  });
}
