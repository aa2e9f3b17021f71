import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonBody } from '../../../support/api-gateway-event';
import { type CapacityShop, startCapacityShop } from '../../../support/capacity-shop';

// A page key whose session has expired (Stripe's expiry, or a pause's sweep): Stripe replays the
// key's first answer for 24 hours, dead session included. It must never be answered, nor hold.

let shop: CapacityShop;
beforeEach(async () => {
  shop = await startCapacityShop();
});
afterEach(() => shop?.close());

describe('create-checkout with the key of an expired session', () => {
  it('answers 409 "This checkout has expired", never the dead URL, and holds no bottles', async () => {
    const day = shop.firstDay();
    await shop.setCapacity({ weekly: 30 });
    const first = await shop.checkout(6, 'key-of-a-dead-session', { email: 'dee.dead@example.com' });
    expect(first.statusCode, first.body).toBe(200);
    await shop.h.stripe.checkout.sessions.expire(first.sessionId ?? '');
    await shop.deliver('checkout.session.expired', first.sessionId ?? '');
    expect((await shop.day(day)).taken).toBe(0);

    const again = await shop.checkout(6, 'key-of-a-dead-session', { email: 'dee.dead@example.com' });

    expect(again.statusCode).toBe(409);
    expect(jsonBody(again)).toEqual({ error: 'This checkout has expired. Please try again.' });
    expect(again.body).not.toContain(first.sessionId ?? 'no session');
    expect(await shop.day(day)).toMatchObject({ taken: 0, holds: new Set() });
  });

  it('a retry while the session is open still gets it', async () => {
    await shop.setCapacity({ weekly: 30 });
    const first = await shop.checkout(3, 'key-of-a-live-session', { email: 'liv.live@example.com' });

    const again = await shop.checkout(3, 'key-of-a-live-session', { email: 'liv.live@example.com' });

    expect(again.statusCode).toBe(200);
    expect(again.sessionId).toBe(first.sessionId);
    expect((await shop.day(shop.firstDay())).taken).toBe(3);
  });
});
