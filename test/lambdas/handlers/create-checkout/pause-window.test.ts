import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pauseShop } from '../../../../lambdas/domain/operations/pause-shop';
import { jsonBody } from '../../../support/api-gateway-event';
import { type CapacityShop, startCapacityShop } from '../../../support/capacity-shop';
import { TEST_SHOP_ID } from '../../../support/shop';

// A pause means no new money at once: not after the settings cache's 5 seconds, and not for a
// session Stripe was still making while the pause's sweep listed the open ones.

let shop: CapacityShop;
beforeEach(async () => {
  shop = await startCapacityShop();
});
afterEach(() => shop?.close());

function pause() {
  return pauseShop(
    { mode: 'paused', message: 'Back on Monday' },
    {
      table: { client: shop.h.standIns.inspector, tableName: shop.h.standIns.tableName },
      stripe: shop.h.stripe,
      shopId: TEST_SHOP_ID,
      now: () => new Date(),
      cutoffHours: 36,
    },
  );
}

async function openSessions(): Promise<string[]> {
  return (await shop.h.stripe.checkout.sessions.list({ status: 'open', limit: 100 })).data.map((s) => s.id);
}

describe('create-checkout right after a pause', () => {
  it('a warm container whose cached settings (over a second old) still say open: 503 with the message, no session made', async () => {
    await shop.setCapacity({ weekly: 30 });
    const warm = shop.warmContainer();
    const before = await warm(3);
    expect(before.statusCode, before.body).toBe(200);
    // Its cached copy is now over a second old, well within the cache's 5 seconds.
    await new Promise((resolve) => setTimeout(resolve, 1_100));

    const outcome = await pause();
    const after = await warm(3);

    expect(outcome.closed).toEqual([before.sessionId]);
    expect(after.statusCode).toBe(503);
    expect(jsonBody(after)).toEqual({ error: 'Back on Monday', shop: 'paused' });
    const made = (await shop.h.stripe.checkout.sessions.list({ limit: 100 })).data;
    expect(made.map((session) => session.id)).toEqual([before.sessionId]);
    expect(await openSessions()).toEqual([]);
  });

  it("a session Stripe makes after the pause's sweep listed the open ones: expired, its hold given back, 503", async () => {
    const day = shop.firstDay();
    await shop.setCapacity({ weekly: 30 });
    // Stripe takes 800 ms to make the session: the pause is written and swept meanwhile.
    shop.h.simulator.injectFault({ delayMs: 800, times: 1, pathPrefix: '/v1/checkout/sessions' });
    const pending = shop.checkout(6);
    await new Promise((resolve) => setTimeout(resolve, 300));

    const outcome = await pause();
    const result = await pending;

    expect(outcome.closed).toEqual([]);
    expect(result.statusCode).toBe(503);
    expect(jsonBody(result)).toEqual({ error: 'Back on Monday', shop: 'paused' });
    const made = (await shop.h.stripe.checkout.sessions.list({ limit: 100 })).data;
    expect(made.map((session) => session.status)).toEqual(['expired']);
    expect(await openSessions()).toEqual([]);
    expect(await shop.day(day)).toMatchObject({ taken: 0, holds: new Set() });
  });
});
