import { createHash } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { QuoteMismatchError } from '../../../../lambdas/domain/checkout/create-checkout-session';
import {
  declineRequest,
  recordOrderRequest,
  requestPayment,
  requestReference,
} from '../../../../lambdas/domain/operations/request-actions';
import { RefusedError } from '../../../../lambdas/domain/refusal';
import { capacityStoreFromTable } from '../../../../lambdas/domain/storage/capacity-table';
import { writeCapacitySettings } from '../../../../lambdas/domain/storage/settings-store';
import { InjectedAwsFault, injectAwsFault, inputContaining } from '../../../support/aws-faults';
import { type OperationsHarness, startOperationsHarness } from './operations-harness';

const OPERATOR = 'merchant@live-aquatics.test';
const DAY_MS = 24 * 3600_000;

let h: OperationsHarness;
beforeAll(async () => {
  h = await startOperationsHarness();
});
afterEach(() => {
  h.setNow(undefined);
  h.shop.simulator.clearFaults();
});
afterAll(() => h?.close());

/** Three bottles, with the server's own totals unless a test changes them. */
function request(email: string, details: Partial<Record<'subtotal' | 'shipping' | 'total', number>> = {}) {
  return {
    name: 'Rhea Request',
    email,
    phone: '07700 900456',
    address: '3 Reed Row\nBath',
    postcode: 'BA1 1AA',
    quantity: 3 as const,
    subtotal: 9.75,
    shipping: 4.95,
    total: 14.7,
    ...details,
  };
}

const options = (client: string, idempotencyKey?: string) => ({ idempotencyKey, cutoffHours: 36, client });

/**
 * The operator's clock set to the simulator's, `offsetMs` on: the simulator refuses a link whose
 * `expires_at` is more than 24 hours after its own clock.
 */
function atStripeTime(offsetMs = 0): Date {
  const at = new Date(h.shop.simulator.nowSeconds() * 1000 + offsetMs);
  h.setNow(at);
  return at;
}

async function requestItems(email: string) {
  return (await h.shop.standIns.orderItems()).filter(
    (item) => item.customerEmail === email && String(item.pk).startsWith('REQUEST#'),
  );
}

describe('requestReference', () => {
  it('is R and 11 upper-case hex digits of the idempotency key, or random ones without a key', () => {
    const digest = createHash('sha256').update('request:key-1').digest('hex');
    expect(requestReference('key-1')).toBe(`R${digest.slice(0, 11).toUpperCase()}`);
    const random = [requestReference(undefined), requestReference(undefined)];
    for (const reference of random) expect(reference).toMatch(/^R[0-9A-F]{11}$/);
    expect(random[0]).not.toBe(random[1]);
  });
});

describe('recordOrderRequest', () => {
  it.each([
    ['subtotal', { subtotal: 9.76 }],
    ['shipping', { shipping: 4.96 }],
    ['total', { total: 14.71 }],
  ])('refuses a %s that is not the server quote and records nothing', async (field, details) => {
    const email = `quote.${field}@example.com`;
    await expect(recordOrderRequest(request(email, details), options('192.0.2.60'), h.deps)).rejects.toThrow(
      QuoteMismatchError,
    );
    expect(await requestItems(email)).toEqual([]);
  });

  it("dates the request by the shop's cut-off", async () => {
    // Sunday 10:00: before midnight's cut-off of 0 hours for Monday, long after 36 hours' (Saturday noon).
    h.setNow(new Date('2030-03-10T10:00:00Z'));
    const noCutoff = await recordOrderRequest(
      request('cutoff.zero@example.com'),
      { idempotencyKey: undefined, cutoffHours: 0, client: '192.0.2.61' },
      h.deps,
    );
    const usual = await recordOrderRequest(
      request('cutoff.usual@example.com'),
      { idempotencyKey: undefined, cutoffHours: 36, client: '192.0.2.62' },
      h.deps,
    );
    const item = await h.item(`REQUEST#${noCutoff.reference}`);
    expect(item).toMatchObject({ dispatchDate: '2030-03-11' });
    expect(item?.history).toEqual([
      { at: '2030-03-10T10:00:00.000Z', actor: 'customer', action: 'requested' },
    ]);
    expect(await h.item(`REQUEST#${usual.reference}`)).toMatchObject({ dispatchDate: '2030-03-18' });
  });

  it('records one request when the same key arrives twice at once', async () => {
    h.setNow(new Date('2030-04-03T10:00:00Z'));
    const [a, b] = await Promise.all([
      recordOrderRequest(
        request('twice.at.once@example.com'),
        options('192.0.2.63', 'same-key-at-once'),
        h.deps,
      ),
      recordOrderRequest(
        request('twice.at.once@example.com'),
        options('192.0.2.64', 'same-key-at-once'),
        h.deps,
      ),
    ]);
    expect(a.reference).toBe(b.reference);
    expect([a.created, b.created].sort()).toEqual([false, true]);
    expect(await requestItems('twice.at.once@example.com')).toHaveLength(1);
  });

  it('a request the table does not take gives its bottles back and fails', async () => {
    h.setNow(new Date('2030-05-01T10:00:00Z'));
    const down = injectAwsFault(h.shop.clients.documentClient, {
      command: 'PutItemCommand',
      when: 'before',
      matches: inputContaining('REQUEST#'),
    });
    const failure = await recordOrderRequest(
      request('put.fails@example.com'),
      options('192.0.2.65', 'put-fails'),
      h.deps,
    ).catch((error: unknown) => error);
    down.remove();
    expect(failure).toBeInstanceOf(InjectedAwsFault);
    // Monday 6 May 2030 is the Early May bank holiday: that week dispatches on Tuesday 7th.
    const day = await capacityStoreFromTable(h.deps.table).read('2030-05-07');
    expect(day).toMatchObject({ taken: 0, sold: 0 });
    expect([...day.holds]).toEqual([]);
    expect(await requestItems('put.fails@example.com')).toEqual([]);
  });

  it('records the request when SES refuses its notice, and says the notice failed', async () => {
    h.setNow(new Date('2030-06-05T10:00:00Z'));
    const sesDown = injectAwsFault(h.shop.clients.ses, { command: 'SendEmailCommand', when: 'before' });
    const result = await recordOrderRequest(
      request('notice.fails@example.com'),
      options('192.0.2.66', 'notice-fails'),
      h.deps,
    );
    sesDown.remove();
    expect(result).toMatchObject({ created: true, notice: 'failed' });
    expect(await h.item(`REQUEST#${result.reference}`)).toMatchObject({
      status: 'requested',
      requestNoticeEmailState: 'pending',
    });
  });
});

describe('declineRequest', () => {
  it('declines once, gives the bottles back, and says when it was declined on a repeat', async () => {
    h.setNow(new Date('2030-10-02T10:00:00Z'));
    const { reference } = await recordOrderRequest(
      request('declined.once@example.com'),
      options('192.0.2.73', 'declined-once'),
      h.deps,
    );
    const dispatchDate = String((await h.item(`REQUEST#${reference}`))?.dispatchDate);
    expect(await declineRequest(reference, { actor: OPERATOR }, h.deps)).toEqual({
      reference,
      changed: true,
      email: 'sent',
    });
    const item = await h.item(`REQUEST#${reference}`);
    expect(item).toMatchObject({ status: 'declined', declinedAt: '2030-10-02T10:00:00.000Z' });
    expect(Array.isArray(item?.history) ? item.history.at(-1) : undefined).toEqual({
      at: '2030-10-02T10:00:00.000Z',
      actor: OPERATOR,
      action: 'declined',
    });
    const day = await capacityStoreFromTable(h.deps.table).read(dispatchDate);
    expect([...day.holds].filter((hold) => hold.includes(reference))).toEqual([]);
    await expect(declineRequest(reference, { actor: OPERATOR }, h.deps)).rejects.toThrow(
      new RefusedError(`${reference} was already declined on Wed 2 Oct, 11:00. Nothing sent again.`),
    );
    expect(await h.emailsTo('declined.once@example.com')).toHaveLength(1);
  });
});

describe('requestPayment', () => {
  it('refuses the reference of a paid order', async () => {
    const order = await h.seedOrder({
      sessionId: 'cs_test_req_order_PAIDNOTREQ01',
      paidAt: '2026-11-20T09:00:00Z',
      dispatchDate: '2026-11-23',
    });
    await expect(requestPayment(order.reference, { actor: OPERATOR }, h.deps)).rejects.toThrow(
      new RefusedError('PAIDNOTREQ01 is a paid order (paid), not an order request.'),
    );
  });

  it("names the expired link it replaces in the new session's idempotency key", async () => {
    const { reference } = await recordOrderRequest(
      request('new.link.key@example.com'),
      options('192.0.2.67', 'new-link-key'),
      h.deps,
    );
    const sent = atStripeTime();
    const first = await requestPayment(reference, { actor: OPERATOR }, h.deps);
    const oldSession = (await h.item(`REQUEST#${reference}`))?.checkoutSessionId;
    // The link expired (23 hours), and Stripe has not yet closed its session.
    await h.shop.simulator.advanceClock(23 * 3600_000 - 120_000);
    h.setNow(new Date(sent.getTime() + 23 * 3600_000));
    const keys: Array<string | undefined> = [];
    const listener = (event: Stripe.RequestEvent) => {
      if (event.method === 'POST' && event.path === '/v1/checkout/sessions') keys.push(event.idempotency_key);
    };
    h.deps.stripe.on('request', listener);
    const second = await requestPayment(reference, { actor: OPERATOR }, h.deps).finally(() =>
      h.deps.stripe.off('request', listener),
    );
    expect(keys).toEqual([`request-payment-${reference}-after-${String(oldSession)}`]);
    expect(second.url).not.toBe(first.url);
    const item = await h.item(`REQUEST#${reference}`);
    const history = Array.isArray(item?.history) ? item.history : [];
    expect(history.at(-1)).toEqual({
      at: new Date(sent.getTime() + 23 * 3600_000).toISOString(),
      actor: OPERATOR,
      action: 'payment-link-sent',
      detail: `dispatch ${String(item?.dispatchDate)}, link valid until ${second.expiresAt}`,
    });
  });

  it('refuses a new link when the old one was paid while it was being closed', async () => {
    const { reference } = await recordOrderRequest(
      request('paid.while.closing@example.com'),
      options('192.0.2.68', 'paid-while-closing'),
      h.deps,
    );
    const sent = atStripeTime();
    await requestPayment(reference, { actor: OPERATOR }, h.deps);
    const oldSession = String((await h.item(`REQUEST#${reference}`))?.checkoutSessionId);
    h.setNow(new Date(sent.getTime() + DAY_MS));
    // The expire call is held up, and the customer pays meanwhile.
    h.shop.simulator.injectFault({ pathPrefix: `/v1/checkout/sessions/${oldSession}/expire`, delayMs: 600 });
    const paying = new Promise((resolve) => setTimeout(resolve, 150)).then(() =>
      h.shop.simulator.completeSession(oldSession),
    );
    const refusal = requestPayment(reference, { actor: OPERATOR }, h.deps);
    await paying;
    await expect(refusal).rejects.toThrow(
      new RefusedError(
        `${reference} was paid through its payment link: it is order ${oldSession.slice(-12)} now (refund it if it cannot be supplied). Nothing changed.`,
      ),
    );
    expect(await h.item(`REQUEST#${reference}`)).toMatchObject({
      status: 'invited',
      checkoutSessionId: oldSession,
    });
  });

  it('passes on an API error while closing an expired link, and changes nothing', async () => {
    const { reference } = await recordOrderRequest(
      request('expire.api.error@example.com'),
      options('192.0.2.69', 'expire-api-error'),
      h.deps,
    );
    const sent = atStripeTime();
    await requestPayment(reference, { actor: OPERATOR }, h.deps);
    const oldSession = String((await h.item(`REQUEST#${reference}`))?.checkoutSessionId);
    h.setNow(new Date(sent.getTime() + DAY_MS));
    h.shop.simulator.injectFault({
      pathPrefix: `/v1/checkout/sessions/${oldSession}/expire`,
      status: 500,
      times: 5,
    });
    const error = await requestPayment(reference, { actor: OPERATOR }, h.deps).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(await h.item(`REQUEST#${reference}`)).toMatchObject({
      status: 'invited',
      checkoutSessionId: oldSession,
    });
  });

  it("says what Stripe refused in the payment link, and gives the link's bottles back", async () => {
    atStripeTime();
    // Recorded unchecked (the page's schema is not the domain's): Stripe refuses the address.
    const { reference } = await recordOrderRequest(
      request('not-an-address'),
      options('192.0.2.70', 'stripe-refuses-link'),
      h.deps,
    );
    const refusal = await requestPayment(reference, { actor: OPERATOR }, h.deps).catch((e: unknown) => e);
    expect(refusal).toEqual(
      new RefusedError(
        `Stripe refused the payment link for ${reference}: Invalid email address: not-an-address. Nothing changed.`,
      ),
    );
    expect(refusal).toBeInstanceOf(RefusedError);
    expect(refusal).toHaveProperty('cause', expect.any(Stripe.errors.StripeInvalidRequestError));
    expect(await h.item(`REQUEST#${reference}`)).toMatchObject({ status: 'requested' });
    const item = await h.item(`REQUEST#${reference}`);
    const day = await capacityStoreFromTable(h.deps.table).read(String(item?.dispatchDate));
    // The request's own hold, which lapses 48 hours after it came (its time is in the id).
    const own = `r${reference}.${Date.parse(String(item?.holdsUntil)) / 1000}:3`;
    expect(Date.parse(String(item?.holdsUntil)) - Date.parse(String(item?.createdAt))).toBeLessThanOrEqual(
      48 * 3600_000,
    );
    expect([...day.holds].filter((hold) => hold.includes(reference))).toEqual([own]);
  });

  it('passes on an API error from Stripe when making the link, and changes nothing', async () => {
    h.setNow(new Date('2030-08-07T10:00:00Z'));
    const { reference } = await recordOrderRequest(
      request('create.api.error@example.com'),
      options('192.0.2.71', 'create-api-error'),
      h.deps,
    );
    h.shop.simulator.injectFault({ pathPrefix: '/v1/checkout/sessions', status: 500, times: 5 });
    const error = await requestPayment(reference, { actor: OPERATOR }, h.deps).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(await h.item(`REQUEST#${reference}`)).toMatchObject({ status: 'requested' });
  });

  it('refuses to send a link when the request was declined while the link was being made', async () => {
    const { reference } = await recordOrderRequest(
      request('declined.meanwhile@example.com'),
      options('192.0.2.74', 'declined-meanwhile'),
      h.deps,
    );
    atStripeTime();
    h.beforeCommand('UpdateItemCommand', inputContaining(`REQUEST#${reference}`, ':invited'), () =>
      h.setAttributes(`REQUEST#${reference}`, { status: 'declined' }),
    );
    await expect(requestPayment(reference, { actor: OPERATOR }, h.deps)).rejects.toThrow(
      new RefusedError(`${reference} is declined: no payment link to send.`),
    );
    expect(await h.emailsTo('declined.meanwhile@example.com')).toEqual([]);
  });

  it('passes on a table failure while holding the bottles, rather than calling it a lack of room', async () => {
    h.setNow(new Date('2030-11-06T10:00:00Z'));
    const { reference } = await recordOrderRequest(
      request('capacity.fails@example.com'),
      options('192.0.2.75', 'capacity-fails'),
      h.deps,
    );
    const down = injectAwsFault(h.shop.clients.documentClient, {
      command: 'UpdateItemCommand',
      when: 'before',
      matches: inputContaining('CAPACITY#'),
    });
    const failure = await requestPayment(reference, { actor: OPERATOR }, h.deps).catch((e: unknown) => e);
    down.remove();
    expect(failure).toBeInstanceOf(InjectedAwsFault);
    expect(await h.item(`REQUEST#${reference}`)).toMatchObject({ status: 'requested' });
  });

  it('refuses when no dispatch day has room for a request whose own day has closed', async () => {
    h.setNow(new Date('2030-09-04T10:00:00Z'));
    const { reference } = await recordOrderRequest(
      request('no.room@example.com'),
      options('192.0.2.72', 'no-room'),
      h.deps,
    );
    await writeCapacitySettings(h.deps.table, { weekly: 0 }, h.deps.now());
    try {
      h.setNow(new Date('2030-09-18T10:00:00Z'));
      await expect(requestPayment(reference, { actor: OPERATOR }, h.deps)).rejects.toThrow(
        new RefusedError(
          `No dispatch day in the next 8 weeks has room for ${reference}'s 3 bottles: raise a day's capacity (npm run orders -- capacity) or decline it. Nothing sent.`,
        ),
      );
    } finally {
      await writeCapacitySettings(h.deps.table, {}, h.deps.now());
    }
    expect(await h.item(`REQUEST#${reference}`)).toMatchObject({ status: 'requested' });
  });
});
