import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webPush from 'web-push';
import { readPushSubscriptions } from '../../../../lambdas/domain/storage/push-subscriptions';
import { createAdminApiHandler, loadAdminDeps } from '../../../../lambdas/handlers/admin-api/handler';
import { logger } from '../../../../lambdas/lib/logger';
import type { HttpLambda } from '../../../../local/api-gateway-adapter';
import { withJwtAuthorizer } from '../../../../local/jwt-authorizer';
import { type PushStandIn, startPushStandIn } from '../../../../local/push-stand-in';
import { orderReference } from '../../../../shared/order-reference';
import { apiGatewayEvent, jsonBody } from '../../../support/api-gateway-event';
import { type FulfilmentHarness, startFulfilmentHarness } from '../../../support/fulfilment-harness';
import { signingKey, signToken, TEST_CLIENT_ID, TEST_ISSUER } from '../../../support/jwt-tokens';
import { pushesFor, testSubscription } from '../../../support/push-subscriber';
import { adminApiEnv } from './admin-env';

// The admin's notification routes (ADR 0056) behind the local JWT authorizer, against dynalite and
// the push-service stand-in: the key a device subscribes with, its subscription kept and removed,
// and the webhook's push reaching the device the route subscribed.
let h: FulfilmentHarness;
let push: PushStandIn;
let admin: HttpLambda;
const key = signingKey();
const token = signToken(key, { email: 'packer@live-aquatics.test' });
const vapid = webPush.generateVAPIDKeys();

beforeAll(async () => {
  push = await startPushStandIn(0);
  const pushEnv = {
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    PUSH_LOCAL_ORIGIN: push.url,
  };
  h = await startFulfilmentHarness(pushEnv);
  logger.setLogLevel('SILENT');
  const handler = createAdminApiHandler(() => loadAdminDeps(adminApiEnv(h, pushEnv)));
  admin = withJwtAuthorizer(handler, { issuer: TEST_ISSUER, clientId: TEST_CLIENT_ID, jwks: key.jwks });
});
afterAll(async () => {
  await Promise.all([h.close(), push.close()]);
});

function call(method: 'GET' | 'POST', path: string, body?: unknown) {
  return admin(
    apiGatewayEvent({
      method,
      path,
      lowerCaseHeaders: true,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body }),
    }),
  );
}

describe('the admin’s notification routes', () => {
  it('gives the stage’s public key; a subscribed device gets the next paid order; unsubscribed, it is forgotten', async () => {
    // Prepare
    const device = testSubscription(push.url);
    const subscription = {
      endpoint: device.endpoint,
      expirationTime: null,
      keys: { p256dh: device.p256dh, auth: device.auth },
    };

    // Act
    const keyAnswer = await call('GET', '/functions/v1/admin/push/key');
    const subscribed = await call('POST', '/functions/v1/admin/push/subscribe', subscription);
    const session = await h.paidSession();
    await h.webhook(h.delivery(await h.eventFor('checkout.session.completed', session.id)));
    const unsubscribed = await call('POST', '/functions/v1/admin/push/unsubscribe', {
      endpoint: device.endpoint,
    });

    // Assess
    expect(jsonBody(keyAnswer)).toEqual({ publicKey: vapid.publicKey });
    expect(subscribed.statusCode).toBe(200);
    expect(jsonBody(subscribed)).toEqual({ subscribed: true });
    const pushes = await pushesFor(push.url, device.id);
    expect(pushes).toHaveLength(1);
    const message = JSON.parse(device.decrypt(pushes[0]?.body ?? '')) as { reference: string; url: string };
    const reference = orderReference(session.id);
    expect(message.reference).toBe(reference);
    expect(message.url).toBe(`/admin?order=${reference}`);
    expect(jsonBody(unsubscribed)).toEqual({ removed: true });
    expect(await readPushSubscriptions(h.deps.table)).toEqual([]);
  });

  it('keeps who subscribed the device', async () => {
    // Prepare
    const device = testSubscription(push.url);

    // Act
    await call('POST', '/functions/v1/admin/push/subscribe', {
      endpoint: device.endpoint,
      keys: { p256dh: device.p256dh, auth: device.auth },
    });

    // Assess
    const stored = await readPushSubscriptions(h.deps.table);
    expect(stored.map((entry) => [entry.endpoint, entry.merchant])).toEqual([
      [device.endpoint, 'packer@live-aquatics.test'],
    ]);
    await call('POST', '/functions/v1/admin/push/unsubscribe', { endpoint: device.endpoint });
  });

  it('refuses a plain-http endpoint other than the local push service: 400, nothing kept', async () => {
    // Prepare
    const device = testSubscription('http://169.254.169.254');

    // Act
    const answer = await call('POST', '/functions/v1/admin/push/subscribe', {
      endpoint: device.endpoint,
      keys: { p256dh: device.p256dh, auth: device.auth },
    });

    // Assess
    expect(answer.statusCode).toBe(400);
    expect(jsonBody(answer)).toMatchObject({
      error: 'The push endpoint must be an https:// address of a push service.',
    });
    expect(await readPushSubscriptions(h.deps.table)).toEqual([]);
  });
});
