import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webPush from 'web-push';
import { type PushStandIn, startPushStandIn } from '../../local/push-stand-in';
import { pushesFor, testSubscription } from '../support/push-subscriber';

// The push-service stand-in answers as a push service does (RFC 8030, 8292): 201 for a push signed
// for its origin, encrypted aes128gcm, with a TTL; a refusal for anything else; 410 once gone.
let push: PushStandIn;
const vapid = webPush.generateVAPIDKeys();

beforeAll(async () => {
  push = await startPushStandIn(0);
});
afterAll(() => push.close());

/** A push as web-push makes it for `endpoint`, headers changed by `change`. */
function pushRequest(
  device: ReturnType<typeof testSubscription>,
  change: (headers: Record<string, string>) => Record<string, string> = (headers) => headers,
  subject = 'mailto:merchant@live-aquatics.test',
) {
  const details = webPush.generateRequestDetails(
    { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
    'hello',
    { vapidDetails: { subject, ...vapid }, TTL: 60, contentEncoding: 'aes128gcm' },
  );
  return fetch(device.endpoint, {
    method: 'POST',
    headers: change(details.headers as Record<string, string>),
    body: new Uint8Array(details.body),
  });
}

describe('the push-service stand-in', () => {
  it('takes a proper push (201), records it still encrypted, and the device reads it', async () => {
    // Prepare
    const device = testSubscription(push.url);

    // Act
    const answer = await pushRequest(device);

    // Assess
    expect(answer.status).toBe(201);
    const [recorded] = await pushesFor(push.url, device.id);
    expect(recorded).toMatchObject({ subscription: device.id, ttl: 60, vapidKey: vapid.publicKey });
    expect(device.decrypt(recorded?.body ?? '')).toBe('hello');
  });

  it.each([
    ['no Authorization', (h: Record<string, string>) => ({ ...h, Authorization: '' }), 403],
    ['a JWT for another origin', (h: Record<string, string>) => h, 403],
    ['another encoding', (h: Record<string, string>) => ({ ...h, 'Content-Encoding': 'aesgcm' }), 415],
    ['no TTL', ({ TTL: _ttl, ...h }: Record<string, string>) => h, 400],
  ])('refuses a push with %s, and records nothing', async (what, change, status) => {
    // Prepare: the second case signs for an endpoint elsewhere, then posts here.
    const device = testSubscription(push.url);
    const elsewhere = { ...device, endpoint: `https://push.example/push/${device.id}` };
    const signed =
      what === 'a JWT for another origin'
        ? webPush.generateRequestDetails(
            { endpoint: elsewhere.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
            'hello',
            { vapidDetails: { subject: 'mailto:merchant@live-aquatics.test', ...vapid }, TTL: 60 },
          ).headers
        : undefined;

    // Act
    const answer = await pushRequest(device, (headers) =>
      change(signed === undefined ? headers : { ...headers, Authorization: String(signed.Authorization) }),
    );

    // Assess
    expect(answer.status).toBe(status);
    expect(await pushesFor(push.url, device.id)).toEqual([]);
  });

  it('answers 410 for a subscription made gone (POST /subscriptions/<id>/gone)', async () => {
    // Prepare
    const device = testSubscription(push.url);
    await fetch(`${push.url}/subscriptions/${device.id}/gone`, { method: 'POST' });

    // Act
    const answer = await pushRequest(device);

    // Assess
    expect(answer.status).toBe(410);
    expect(await pushesFor(push.url, device.id)).toEqual([]);
  });
});
