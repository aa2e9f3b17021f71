import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheckoutHandler, loadCheckoutDeps } from '../../lambdas/handlers/create-checkout/handler';
import { PUBLIC_API_ROUTES } from '../../shared/public-routes';
import { apiGatewayEvent } from '../support/api-gateway-event';
import { TEST_SHOP_ID } from '../support/shop';
import { standInEnvironment } from '../support/stand-ins';
import { type OpsHarness, startOpsHarness } from './harness';

// Requests mode on an open endpoint: what a flood of requests can and cannot make the shop send,
// an idempotency key reused with other details, and a payment link that expired unanswered.

const MERCHANT = 'merchant@live-aquatics.test';
const DAY_MS = 24 * 3600_000;

let h: OpsHarness;
let env: Record<string, string>;
beforeAll(async () => {
  h = await startOpsHarness();
  env = {
    STRIPE_LIVEMODE: 'false',
    STRIPE_SECRET_KEY: 'sk_test_order_requests',
    STRIPE_API_BASE: h.shop.simulator.url,
    SITE_URL: 'http://shop.test',
    SHOP_ID: TEST_SHOP_ID,
    ...standInEnvironment(h.shop.standIns),
  };
  expect((await h.orders(['pause', '--requests', '--local'])).code).toBe(0);
});
afterAll(async () => {
  await h?.close();
});

function order(email: string, details: Partial<Record<string, unknown>> = {}) {
  return {
    name: 'Rhea Request',
    email,
    phone: '07700 900456',
    address: '3 Reed Row\nBath',
    postcode: 'BA1 1AA',
    quantity: 3,
    subtotal: 9.75,
    shipping: 4.95,
    total: 14.7,
    ...details,
  };
}

/**
 * A POST as CloudFront forwards it: the viewer's address and port in `cloudfront-viewer-address`
 * (API Gateway's own source IP is the same for every test event). Each test is its own viewer.
 */
function post(body: unknown, options: { viewer: string; key?: string }) {
  return apiGatewayEvent({
    method: 'POST',
    path: PUBLIC_API_ROUTES.createCheckout.path,
    headers: {
      'content-type': 'application/json',
      'idempotency-key': options.key ?? randomUUID(),
      'cloudfront-viewer-address': `${options.viewer}:49152`,
    },
    body,
  });
}

/** The limits count per clock hour: a burst is never split by the hour turning over. */
async function awayFromTheHoursEnd(): Promise<void> {
  const intoHour = Date.now() % 3600_000;
  if (intoHour > 3600_000 - 15_000)
    await new Promise((resolve) => setTimeout(resolve, 3600_000 - intoHour + 1000));
}

async function requestsTo(email: string): Promise<Array<Record<string, unknown>>> {
  return (await h.shop.standIns.orderItems()).filter((item) => item.customerEmail === email);
}

/** The merchant's notices that mention `text` (an address, a reference). */
async function noticesMentioning(text: string) {
  return (await h.emailsTo(MERCHANT)).filter((email) => email.body.text?.includes(text));
}

/** "Also 14 earlier requests since …": how many a notice reports without their own notice. */
function earlierCount(text: string | undefined): number {
  const match = /Also (\d+) earlier requests? since \w{3} \d{1,2} \w{3}, \d{2}:\d{2} \(UK time\)/.exec(
    text ?? '',
  );
  return match ? Number(match[1]) : 0;
}

describe('requests mode under a flood', () => {
  it('20 requests from one client to one address within seconds: the address gets no email, the merchant one notice; all 20 are recorded', async () => {
    await awayFromTheHoursEnd();
    const checkout = createCheckoutHandler(() => loadCheckoutDeps(env));
    const victim = 'victim.one@example.com';

    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        checkout(
          post(order(victim, { name: 'Hello Visit evil.example to claim your prize' }), {
            viewer: '198.51.100.1',
          }),
        ),
      ),
    );

    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(20).fill(200));
    const recorded = await requestsTo(victim);
    expect(recorded).toHaveLength(20);
    expect(await h.emailsTo(victim)).toHaveLength(0);
    const notices = await noticesMentioning(victim);
    expect(notices).toHaveLength(1);
    // The 19 without a notice are all recorded and listed, and told in a later notice (or in this one).
    const listed = await h.orders(['list', '--status', 'requested', '--local']);
    for (const item of recorded) expect(listed.out).toContain(String(item.reference));
    await checkout(post(order('next.customer@example.com'), { viewer: '198.51.100.99' }));
    const [next] = await noticesMentioning('next.customer@example.com');
    expect(next?.body.text).toContain('List them with: npm run orders -- list --status requested');
    expect(earlierCount(notices[0]?.body.text) + earlierCount(next?.body.text)).toBe(19);
  });

  it('20 requests from one client to 20 addresses: the merchant gets 5 notices, the next one says 15 more; no address gets email', async () => {
    await awayFromTheHoursEnd();
    const checkout = createCheckoutHandler(() => loadCheckoutDeps(env));
    const addresses = Array.from({ length: 20 }, (_, n) => `spread${n}@example.com`);

    for (const address of addresses) {
      expect((await checkout(post(order(address), { viewer: '198.51.100.2' }))).statusCode).toBe(200);
    }

    const notices = (await h.emailsTo(MERCHANT)).filter((email) =>
      addresses.some((address) => email.body.text?.includes(address)),
    );
    expect(notices).toHaveLength(5);
    expect(notices.map((email) => earlierCount(email.body.text))).toEqual([0, 0, 0, 0, 0]);
    for (const address of addresses) {
      expect(await requestsTo(address)).toHaveLength(1);
      expect(await h.emailsTo(address)).toHaveLength(0);
    }
    await checkout(post(order('after.spread@example.com'), { viewer: '198.51.100.98' }));
    const [next] = await noticesMentioning('after.spread@example.com');
    expect(earlierCount(next?.body.text)).toBe(15);
  });

  it('a client behind IPv6 is one client for its whole /64', async () => {
    await awayFromTheHoursEnd();
    const checkout = createCheckoutHandler(() => loadCheckoutDeps(env));

    for (let n = 1; n <= 7; n += 1) {
      const viewer = `2001:db8:aa:bb:${n}::${n}`;
      expect((await checkout(post(order(`ipv6.${n}@example.com`), { viewer }))).statusCode).toBe(200);
    }

    expect(await noticesMentioning('ipv6.')).toHaveLength(5);
  });
});

describe("declining many requests that carry one stranger's address", () => {
  it('10 requests to one address in other cases and +tags, all declined at once: 1 decline email; the others say why none went; the next day 1 more', async () => {
    // Prepare: 10 requests, each from its own client, to one person's address spelt 10 ways.
    const checkout = createCheckoutHandler(() => loadCheckoutDeps(env));
    const spellings = [
      'stranger.x@example.com',
      'Stranger.X@Example.com',
      ...Array.from({ length: 8 }, (_, n) => `stranger.x+${n}@EXAMPLE.com`),
    ];
    for (const [n, email] of spellings.entries()) {
      const answer = await checkout(post(order(email), { viewer: `203.0.113.${60 + n}` }));
      expect(answer.statusCode).toBe(200);
    }
    const references = (await h.shop.standIns.orderItems())
      .filter((item) => spellings.includes(String(item.customerEmail)))
      .map((item) => String(item.reference));
    expect(references).toHaveLength(10);
    const declines = async () =>
      (await h.shop.standIns.emails()).filter(
        (mail) =>
          mail.destination.to.some((to) => /^stranger\.x(\+\d)?@example\.com$/i.test(to)) &&
          mail.body.text?.includes('we cannot supply'),
      );
    // One moment for all 10 (any day of the week), and a moment a day later.
    const declinedAt = new Date();

    // Act
    h.setNow(declinedAt);
    const answers = await Promise.all(
      references.map((reference) => h.orders(['decline', reference, '--local'])),
    ).finally(() => h.setNow(undefined));

    // Assess
    expect(answers.map((answer) => answer.code)).toEqual(Array(10).fill(0));
    const outs = answers.map((answer) => answer.out);
    expect(outs.filter((out) => out.endsWith(': declined; customer emailed.'))).toHaveLength(1);
    expect(
      outs.filter((out) => out.endsWith(': declined; no email: this address was emailed a decline today.')),
    ).toHaveLength(9);
    expect(await declines()).toHaveLength(1);
    const items = (await h.shop.standIns.orderItems()).filter((item) =>
      references.includes(String(item.reference)),
    );
    expect(items.map((item) => item.status)).toEqual(Array(10).fill('declined'));
    expect(items.map((item) => item.declineEmailState).sort()).toEqual([
      'sent',
      ...Array(9).fill('superseded'),
    ]);
    // Declining one again sends nothing and says it was declined.
    h.setNow(declinedAt);
    const again = await h
      .orders(['decline', String(references[0]), '--local'])
      .finally(() => h.setNow(undefined));
    expect(again.code).toBe(1);
    expect(again.err).toContain('was already declined');

    // Act: a new request to the same address, declined the next day.
    await checkout(post(order('stranger.x+later@example.com'), { viewer: '203.0.113.90' }));
    const [later] = (await h.shop.standIns.orderItems()).filter(
      (item) => item.customerEmail === 'stranger.x+later@example.com',
    );
    h.setNow(new Date(declinedAt.getTime() + DAY_MS));
    const nextDay = await h
      .orders(['decline', String(later?.reference), '--local'])
      .finally(() => h.setNow(undefined));

    // Assess
    expect(nextDay.out).toBe(`${later?.reference}: declined; customer emailed.`);
    expect(
      await h.shop.standIns
        .emails()
        .then((all) =>
          all.filter(
            (m) =>
              m.body.text?.includes('we cannot supply') &&
              m.destination.to.includes('stranger.x+later@example.com'),
          ),
        ),
    ).toHaveLength(1);
  });
});

describe('an idempotency key reused with other details', () => {
  it.each([
    ['name', { name: 'Someone Else' }],
    ['email', { email: 'someone.else@example.com' }],
    ['phone', { phone: '07700 900999' }],
    ['address', { address: '9 Other Road\nBath' }],
    ['postcode', { postcode: 'BA2 2BB' }],
    ['quantity', { quantity: 6, subtotal: 19.5, total: 24.45 }],
  ])('another %s: 409 as in paid mode, and nothing is created or sent', async (field, change) => {
    const checkout = createCheckoutHandler(() => loadCheckoutDeps(env));
    const email = `reused.${field}@example.com`;
    const key = randomUUID();
    const viewer = `198.51.100.${20 + ['name', 'email', 'phone', 'address', 'postcode', 'quantity'].indexOf(field)}`;
    expect((await checkout(post(order(email), { viewer, key }))).statusCode).toBe(200);
    const itemsBefore = await h.shop.standIns.orderItems();
    const emailsBefore = await h.shop.standIns.emails();

    const reused = await checkout(post(order(email, change), { viewer, key }));
    const again = await checkout(post(order(email), { viewer, key }));

    expect(reused.statusCode).toBe(409);
    expect(JSON.parse(reused.body ?? '')).toEqual({
      error: 'This checkout was already started with different details. Please try again.',
    });
    expect(again.statusCode).toBe(200);
    expect(await h.shop.standIns.orderItems()).toEqual(itemsBefore);
    expect(await h.shop.standIns.emails()).toEqual(emailsBefore);
    const [stored] = await requestsTo(email);
    expect(stored).toMatchObject({ customerName: 'Rhea Request', bottles: 3, postcode: 'BA1 1AA' });
  });
});

describe('a payment link that expired unanswered', () => {
  // The operator's clock and the simulator's move together: a link is made and expires on one time.
  let offsetMs = 0;
  const at = () => new Date(Date.now() + offsetMs);
  async function passADay(options: { atStripe: boolean }): Promise<void> {
    offsetMs += DAY_MS;
    if (options.atStripe) await h.shop.simulator.advanceClock(DAY_MS);
  }
  async function orders(args: string[]) {
    h.setNow(at());
    try {
      return await h.orders([...args, '--local']);
    } finally {
      h.setNow(undefined);
    }
  }
  async function invitedRequest(email: string, viewer: string) {
    const checkout = createCheckoutHandler(() => loadCheckoutDeps(env));
    await checkout(post(order(email), { viewer }));
    const reference = String((await requestsTo(email))[0]?.reference);
    expect((await orders(['request-payment', reference])).code).toBe(0);
    const [item] = await requestsTo(email);
    return { reference, sessionId: String(item?.checkoutSessionId), url: String(item?.checkoutUrl) };
  }
  const invitations = async (email: string) =>
    (await h.emailsTo(email)).filter((mail) => mail.subject.includes('pay for your order request'));

  it('request-payment sends a new link (a new session, one more email); the old session stays closed', async () => {
    const email = 'expired.resend@example.com';
    const first = await invitedRequest(email, '198.51.100.40');
    await passADay({ atStripe: true });

    const resent = await orders(['request-payment', first.reference]);

    expect(resent.code).toBe(0);
    expect(resent.out).toMatch(
      new RegExp(`^${first.reference}: payment link emailed \\(valid until .+\\): http`),
    );
    const [item] = await requestsTo(email);
    expect(item?.status).toBe('invited');
    expect(item?.checkoutSessionId).not.toBe(first.sessionId);
    const sent = await invitations(email);
    expect(sent).toHaveLength(2);
    expect(sent[1]?.body.text).toContain(String(item?.checkoutUrl));
    expect(sent[1]?.body.text).not.toContain(first.url);
    expect((await h.shop.stripe.checkout.sessions.retrieve(first.sessionId)).status).toBe('expired');
    const fresh = await h.shop.stripe.checkout.sessions.retrieve(String(item?.checkoutSessionId));
    expect(fresh).toMatchObject({
      status: 'open',
      amount_total: 1470,
      client_reference_id: `req_${first.reference}`,
    });
    // While the new link is valid, a second request-payment sends nothing.
    const again = await orders(['request-payment', first.reference]);
    expect(again.code).toBe(1);
    expect(again.err).toContain('was already invited to pay');
    expect(await invitations(email)).toHaveLength(2);
  });

  it('decline: one decline email, and a session Stripe had not yet expired is closed first', async () => {
    const email = 'expired.decline@example.com';
    const first = await invitedRequest(email, '198.51.100.41');
    const early = await orders(['decline', first.reference]);
    expect(early.code).toBe(1);
    expect(early.err).toContain('already sent a payment link');
    // Past expires_at on our clock; Stripe has not expired the session yet.
    await passADay({ atStripe: false });

    const declined = await orders(['decline', first.reference]);

    expect(declined.code).toBe(0);
    expect(declined.out).toBe(`${first.reference}: declined; customer emailed.`);
    const declines = (await h.emailsTo(email)).filter((mail) => mail.body.text?.includes('we cannot supply'));
    expect(declines).toHaveLength(1);
    expect((await requestsTo(email))[0]?.status).toBe('declined');
    expect((await h.shop.stripe.checkout.sessions.retrieve(first.sessionId)).status).toBe('expired');
    await expect(h.shop.simulator.completeSession(first.sessionId)).rejects.toThrow();
    expect((await orders(['decline', first.reference])).code).toBe(1);
    expect((await orders(['request-payment', first.reference])).err).toContain('was declined');
    // Stripe's clock catches up with ours, for the links the next test makes.
    await h.shop.simulator.advanceClock(DAY_MS);
  });

  it('two request-payment runs at once on an expired link: one new link, one more email', async () => {
    const email = 'expired.twice@example.com';
    const first = await invitedRequest(email, '198.51.100.43');
    await passADay({ atStripe: true });

    h.setNow(at());
    const runs = await Promise.all([
      h.orders(['request-payment', first.reference, '--local']),
      h.orders(['request-payment', first.reference, '--local']),
    ]).finally(() => h.setNow(undefined));

    expect(runs.map((run) => run.code)).toContain(0);
    expect(await invitations(email)).toHaveLength(2);
    const [item] = await requestsTo(email);
    const made = (await h.shop.stripe.checkout.sessions.list({ limit: 100 })).data.filter(
      (session) => session.client_reference_id === `req_${first.reference}`,
    );
    expect(made.map((session) => session.id).sort()).toEqual(
      [first.sessionId, item?.checkoutSessionId].sort(),
    );
  });

  it('a link the customer paid is never replaced or declined: it is an order now', async () => {
    const email = 'paid.late@example.com';
    const first = await invitedRequest(email, '198.51.100.42');
    await h.shop.simulator.completeSession(first.sessionId);
    await passADay({ atStripe: true });
    const emailsBefore = await h.emailsTo(email);

    const resend = await orders(['request-payment', first.reference]);
    const decline = await orders(['decline', first.reference]);

    const order = first.sessionId.slice(-12);
    expect(resend.code).toBe(1);
    expect(resend.err).toContain(`was paid through its payment link: it is order ${order} now`);
    expect(decline.code).toBe(1);
    expect(decline.err).toContain(`was paid through its payment link: it is order ${order} now`);
    expect(await h.emailsTo(email)).toEqual(emailsBefore);
    expect((await requestsTo(email))[0]).toMatchObject({
      status: 'invited',
      checkoutSessionId: first.sessionId,
    });
  });
});
