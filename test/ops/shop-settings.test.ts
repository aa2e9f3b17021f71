import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCheckoutHandler, loadCheckoutDeps } from '../../lambdas/handlers/create-checkout/handler';
import { createShopStatusHandler, loadShopStatusDeps } from '../../lambdas/handlers/shop-status/handler';
import { PUBLIC_API_ROUTES } from '../../shared/public-routes';
import { apiGatewayEvent } from '../support/api-gateway-event';
import { TEST_SHOP_ID } from '../support/shop';
import { standInEnvironment } from '../support/stand-ins';
import { type OpsHarness, startOpsHarness } from './harness';

let h: OpsHarness;
let env: Record<string, string>;
beforeAll(async () => {
  h = await startOpsHarness();
  env = {
    STRIPE_LIVEMODE: 'false',
    STRIPE_SECRET_KEY: 'sk_test_shop_settings',
    STRIPE_API_BASE: h.shop.simulator.url,
    SITE_URL: 'http://shop.test',
    SHOP_ID: TEST_SHOP_ID,
    ...standInEnvironment(h.shop.standIns),
  };
});
afterAll(async () => {
  await h?.close();
});

/** Fresh handlers, as a new Lambda container would have: no settings cached yet. */
function handlers() {
  return {
    checkout: createCheckoutHandler(() => loadCheckoutDeps(env)),
    status: createShopStatusHandler(async () => loadShopStatusDeps(env)),
  };
}

function order(email: string) {
  return {
    name: 'Ruth Request',
    email,
    phone: '07700 900456',
    address: '3 Reed Row\nBath',
    postcode: 'ba1 1aa',
    quantity: 6,
    subtotal: 19.5,
    shipping: 4.95,
    total: 24.45,
  };
}

function post(body: unknown, key = randomUUID()) {
  return apiGatewayEvent({
    method: 'POST',
    path: PUBLIC_API_ROUTES.createCheckout.path,
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body,
  });
}

const getStatus = () => apiGatewayEvent({ method: 'GET', path: PUBLIC_API_ROUTES.shopStatus.path });

describe('pause, resume and status', () => {
  it('a new shop is open: shop-status says so and checkout opens a payment page', async () => {
    const { checkout, status } = handlers();
    const answer = await status(getStatus());
    expect(answer.statusCode).toBe(200);
    expect(JSON.parse(answer.body ?? '')).toEqual({ mode: 'open' });
    const created = await checkout(post(order('open.shop@example.com')));
    expect(created.statusCode).toBe(200);
    expect(JSON.parse(created.body ?? '')).toHaveProperty('url');
  });

  it('paused: checkout answers 503 with the message, shop-status gives it to the page, nothing is sent', async () => {
    const run = await h.orders(['pause', '--message', 'Back on Monday 4 January: frozen ponds.', '--local']);
    expect(run.code).toBe(0);
    // The checkout the test before opened (a real create-checkout session) is closed with it.
    expect(run.out).toBe(
      [
        'Shop paused: checkout is refused with "Back on Monday 4 January: frozen ponds.".',
        'Closed 1 open checkout (customers can no longer pay it).',
      ].join('\n'),
    );
    const { checkout, status } = handlers();
    const answer = await checkout(post(order('paused.shop@example.com')));
    expect(answer.statusCode).toBe(503);
    expect(JSON.parse(answer.body ?? '')).toEqual({
      error: 'Back on Monday 4 January: frozen ponds.',
      shop: 'paused',
    });
    expect(JSON.parse((await status(getStatus())).body ?? '')).toEqual({
      mode: 'paused',
      message: 'Back on Monday 4 January: frozen ponds.',
    });
    const shown = await h.orders(['status', '--local']);
    expect(shown.out).toContain(
      'Shop: paused (checkout refused); message: "Back on Monday 4 January: frozen ponds."',
    );
    expect(await h.emailsTo('paused.shop@example.com')).toHaveLength(0);
  });

  it('refuses a pause without a message, and a message with a line break', async () => {
    const bare = await h.orders(['pause', '--local']);
    // The admin API's pause schema refuses it, in the page's words, with the usage.
    expect(bare.code).toBe(2);
    expect(bare.err).toContain('pause: Write the message customers will see while the shop is paused.');
    const broken = await h.orders(['pause', '--message', 'one\ntwo', '--local']);
    expect(broken.code).toBe(1);
    expect(broken.err).toContain('one line of 1 to 300 characters');
  });

  it('refuses a message with a zero-width space or a bidi override, as the checkout refuses them', async () => {
    for (const message of ['Back on\u200bMonday', 'Back on \u202eyadnoM']) {
      const run = await h.orders(['pause', '--message', message, '--local']);
      expect(run.code).toBe(1);
      expect(run.err).toContain(
        'The message must be one line of 1 to 300 characters, without control or invisible characters.',
      );
    }
  });

  it('resume: checkout opens payment pages again', async () => {
    expect((await h.orders(['resume', '--local'])).out).toBe('Shop open: checkout takes paid orders again.');
    const { checkout, status } = handlers();
    expect((await checkout(post(order('resumed.shop@example.com')))).statusCode).toBe(200);
    expect(JSON.parse((await status(getStatus())).body ?? '')).toEqual({ mode: 'open' });
  });
});

describe('requests mode', () => {
  it('records a request (not an order), emails the merchant once and the customer nothing, and answers received', async () => {
    expect((await h.orders(['pause', '--requests', '--local'])).code).toBe(0);
    const { checkout, status } = handlers();
    expect(JSON.parse((await status(getStatus())).body ?? '')).toEqual({ mode: 'requests' });

    const key = randomUUID();
    const first = await checkout(post(order('ruth.request@example.com'), key));
    const again = await checkout(post(order('ruth.request@example.com'), key));
    expect(first.statusCode).toBe(200);

    const items = (await h.shop.standIns.orderItems()).filter(
      (i) => i.customerEmail === 'ruth.request@example.com',
    );
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ status: 'requested', bottles: 6, totalPence: 2445 });
    expect(String(items[0]?.pk)).toMatch(/^REQUEST#R[0-9A-F]{11}$/);
    const reference = String(items[0]?.reference);
    // The same answer both times, naming the one request stored.
    expect(JSON.parse(first.body ?? '')).toEqual({ status: 'received', reference });
    expect(JSON.parse(again.body ?? '')).toEqual({ status: 'received', reference });

    // Nothing the sender typed goes to an address they chose: the page says the shop will be in touch.
    expect(await h.emailsTo('ruth.request@example.com')).toHaveLength(0);
    const toMerchant = (await h.emailsTo('merchant@live-aquatics.test')).filter((e) =>
      e.subject.includes(reference),
    );
    expect(toMerchant).toHaveLength(1);
    expect(toMerchant[0]?.body.text).toContain(`npm run orders -- request-payment ${reference}`);
    expect(toMerchant[0]?.body.text).toContain(`npm run orders -- decline ${reference}`);

    const listed = await h.orders(['list', '--local', '--status', 'requested']);
    expect(listed.out).toContain(reference);
    expect(listed.out).toContain('request:requested');
  });

  it('list says until when each waiting request holds its bottles, and when that hold has lapsed', async () => {
    // Prepare: a request made on Tuesday 1 December at 09:30 (GMT) holds its bottles 48 hours.
    expect((await h.orders(['pause', '--requests', '--local'])).code).toBe(0);
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-12-01T09:30:00.000Z') });
    const made = await handlers()
      .checkout(post(order('hilda.holds@example.com')))
      .finally(() => vi.useRealTimers());
    expect(made.statusCode).toBe(200);
    const [item] = (await h.shop.standIns.orderItems()).filter(
      (i) => i.customerEmail === 'hilda.holds@example.com',
    );
    const reference = String(item?.reference);

    // Act: the list that afternoon, and on the Friday after.
    h.setNow(new Date('2026-12-01T15:00:00.000Z'));
    const waiting = await h.orders(['list', '--local', '--status', 'requested']);
    const json = await h.orders(['list', '--local', '--status', 'requested', '--json']);
    h.setNow(new Date('2026-12-04T10:00:00.000Z'));
    const lapsed = await h.orders(['list', '--local', '--status', 'requested']);
    h.setNow(undefined);

    // Assess
    const rowOf = (out: string) => out.split('\n').find((line) => line.startsWith(reference));
    expect(rowOf(waiting.out)).toContain('request:requested holds until Thu 3 Dec, 09:30');
    expect(rowOf(lapsed.out)).toContain('request:requested hold lapsed Thu 3 Dec, 09:30');
    const rows = JSON.parse(json.out) as Array<{ reference: string; holdsUntil?: string }>;
    expect(rows.find((row) => row.reference === reference)?.holdsUntil).toBe('2026-12-03T09:30:00.000Z');
  });

  it('refuses totals that do not match the quote in requests mode too (409), recording nothing', async () => {
    const { checkout } = handlers();
    const answer = await checkout(post({ ...order('wrong.total@example.com'), total: 1 }));
    expect(answer.statusCode).toBe(409);
    expect(
      (await h.shop.standIns.orderItems()).filter((i) => i.customerEmail === 'wrong.total@example.com'),
    ).toHaveLength(0);
  });

  it('request-payment emails a Stripe payment link once; a second run sends nothing', async () => {
    const { checkout } = handlers();
    await checkout(post(order('pay.later@example.com')));
    const [item] = (await h.shop.standIns.orderItems()).filter(
      (i) => i.customerEmail === 'pay.later@example.com',
    );
    const reference = String(item?.reference);

    const run = await h.orders(['request-payment', reference, '--local']);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(new RegExp(`^${reference}: payment link emailed \\(valid until .+\\): http`));
    const again = await h.orders(['request-payment', reference, '--local']);
    expect(again.code).toBe(1);
    expect(again.err).toContain('was already invited to pay');

    const invitations = (await h.emailsTo('pay.later@example.com')).filter((e) =>
      e.subject.includes('pay for your order request'),
    );
    expect(invitations).toHaveLength(1);
    const stored = (await h.shop.standIns.orderItems()).find((i) => i.reference === reference);
    expect(stored?.status).toBe('invited');
    expect(invitations[0]?.body.text).toContain(String(stored?.checkoutUrl));
    const session = await h.shop.stripe.checkout.sessions.retrieve(String(stored?.checkoutSessionId));
    expect(session.amount_total).toBe(2445);
    expect(session.customer_email).toBe('pay.later@example.com');

    const declined = await h.orders(['decline', reference, '--local']);
    expect(declined.code).toBe(1);
    expect(declined.err).toContain('already sent a payment link');
  });

  it('decline emails the customer once; a second decline is refused and sends nothing', async () => {
    const { checkout } = handlers();
    await checkout(post(order('no.stock@example.com')));
    const [item] = (await h.shop.standIns.orderItems()).filter(
      (i) => i.customerEmail === 'no.stock@example.com',
    );
    const reference = String(item?.reference);
    const run = await h.orders(['decline', reference, '--local']);
    expect(run.out).toBe(`${reference}: declined; customer emailed.`);
    const again = await h.orders(['decline', reference, '--local']);
    expect(again.code).toBe(1);
    expect(again.err).toContain('was already declined');
    const declines = (await h.emailsTo('no.stock@example.com')).filter((e) =>
      e.body.text?.includes('we cannot supply'),
    );
    expect(declines).toHaveLength(1);
    const refund = await h.orders(['refund', reference, '--reason', 'other', '--local']);
    expect(refund.err).toContain('is an order request (declined), not a paid order');
    await h.orders(['resume', '--local']);
  });
});

describe('status: since when the shop has been in its mode', () => {
  afterAll(() => h.setNow(undefined));
  /** Runs `args` at `time` on Monday 7 December 2026 (London, GMT). */
  async function at(time: string, ...args: string[]) {
    h.setNow(new Date(`2026-12-07T${time}:00Z`));
    const run = await h.orders([...args, '--local']);
    expect(run.code, run.err).toBe(0);
    return run;
  }
  const shopLine = async (time: string) => (await at(time, 'status')).out.split('\n')[0];

  it('from the pause, not from a capacity change nor a new message; from the resume after it', async () => {
    await at('08:00', 'resume');
    await at('09:00', 'pause', '--message', 'Back at ten.');
    await at('09:50', 'capacity', '--set', '24');
    expect(await shopLine('09:55')).toBe(
      'Shop: paused (checkout refused); message: "Back at ten." (since Mon 7 Dec, 09:00).',
    );

    await at('10:05', 'pause', '--message', 'Back at eleven.');
    expect(await shopLine('10:10')).toBe(
      'Shop: paused (checkout refused); message: "Back at eleven." (since Mon 7 Dec, 09:00).',
    );

    await at('11:00', 'resume');
    await at('11:30', 'capacity', '--set', 'none');
    await at('11:45', 'resume');
    expect(await shopLine('12:00')).toBe('Shop: open (taking paid orders) (since Mon 7 Dec, 11:00).');
  });
});
