import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { followingDispatchDay } from '../../../../lambdas/domain/capacity/holds';
import { jsonBody } from '../../../support/api-gateway-event';
import { type CapacityShop, startCapacityShop } from '../../../support/capacity-shop';

// One client (the viewer address CloudFront passes, or the email address) holds at most 3 open
// checkouts: eight 9-bottle checkouts once blocked 8 weeks of a small shop.

const TOO_MANY =
  'You already have 3 checkouts waiting for payment. Please pay for one of them, or try again in 45 minutes.';

let shop: CapacityShop;
beforeEach(async () => {
  shop = await startCapacityShop();
});
afterEach(() => shop?.close());

/** Bottles taken over the 8 weeks a checkout may reserve on. */
async function takenOverEightWeeks(): Promise<number> {
  let day = shop.firstDay();
  let taken = 0;
  for (let week = 0; week < 8; week += 1) {
    taken += (await shop.day(day)).taken;
    day = followingDispatchDay(day);
  }
  return taken;
}

describe('open checkouts per client', () => {
  it('eight concurrent 9-bottle checkouts from one viewer address: 3 made, 5 refused with a clear 409, only 27 bottles held', async () => {
    await shop.setCapacity({ weekly: 9 });

    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        shop.checkout(9, undefined, { viewer: '198.51.100.23', email: `buyer${n}@example.com` }),
      ),
    );

    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(3);
    const refused = answers.filter((answer) => answer.statusCode !== 200);
    expect(refused.map((answer) => answer.statusCode)).toEqual([409, 409, 409, 409, 409]);
    for (const answer of refused) expect(jsonBody(answer)).toEqual({ error: TOO_MANY });
    expect(await takenOverEightWeeks()).toBe(27);
    expect((await shop.h.stripe.checkout.sessions.list({ limit: 100 })).data).toHaveLength(3);
    // Another client still buys.
    expect((await shop.checkout(9, undefined, { viewer: '198.51.100.24' })).statusCode).toBe(200);
  });

  it('one email address from four viewer addresses: the fourth is refused', async () => {
    await shop.setCapacity({ weekly: 30 });
    const email = 'same.person@example.com';

    const answers = [];
    for (const viewer of ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4']) {
      answers.push(await shop.checkout(3, undefined, { viewer, email }));
    }

    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 409]);
    expect(jsonBody(answers[3] ?? {})).toEqual({ error: TOO_MANY });
    expect(await takenOverEightWeeks()).toBe(9);
  });

  it('a paid or expired checkout no longer counts, and a retry of an open one is never refused', async () => {
    await shop.setCapacity({ weekly: 30 });
    const from = { viewer: '203.0.113.50', email: 'repeat.buyer@example.com' };
    const [paid, expired, open] = [
      await shop.checkout(3, undefined, from),
      await shop.checkout(3, undefined, from),
      await shop.checkout(3, 'the-open-one-key', from),
    ];
    expect((await shop.checkout(3, undefined, from)).statusCode).toBe(409);

    expect((await shop.checkout(3, 'the-open-one-key', from)).sessionId).toBe(open.sessionId);
    await shop.pay(paid.sessionId ?? '');
    await shop.h.stripe.checkout.sessions.expire(expired.sessionId ?? '');
    await shop.deliver('checkout.session.expired', expired.sessionId ?? '');

    expect((await shop.checkout(3, undefined, from)).statusCode).toBe(200);
    expect((await shop.checkout(3, undefined, from)).statusCode).toBe(200);
    expect((await shop.checkout(3, undefined, from)).statusCode).toBe(409);
  });
});
