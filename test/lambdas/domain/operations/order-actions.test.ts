import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  delayDispatch,
  markDispatched,
  recordStripeRefund,
  refundOrder,
} from '../../../../lambdas/domain/operations/order-actions';
import { RefusedError } from '../../../../lambdas/domain/refusal';
import type { OrderItem } from '../../../../lambdas/domain/storage/order';
import { createStripeClient } from '../../../../lambdas/lib/stripe';
import { injectAwsFault, inputContaining } from '../../../support/aws-faults';
import { createCheckoutSession } from '../../../support/checkout-sessions';
import { type OperationsHarness, startOperationsHarness } from './operations-harness';

let h: OperationsHarness;
beforeAll(async () => {
  h = await startOperationsHarness();
});
afterEach(() => {
  h.setNow(undefined);
  h.shop.simulator.clearFaults();
  vi.restoreAllMocks();
});
afterAll(() => h?.close());

/** The newest entry of a stored item's history. */
function lastHistoryEntry(item: Record<string, unknown> | undefined): unknown {
  const history = item?.history;
  return Array.isArray(history) ? history.at(-1) : undefined;
}

/** The Stripe requests the code makes while `run` runs: method, path and idempotency key. */
async function stripeRequestsDuring<T>(run: () => Promise<T>) {
  const seen: Array<{ method: string; path: string; key: string | undefined }> = [];
  const listener = (event: Stripe.RequestEvent) =>
    seen.push({ method: event.method, path: event.path, key: event.idempotency_key });
  h.deps.stripe.on('request', listener);
  try {
    return { result: await run(), requests: seen };
  } finally {
    h.deps.stripe.off('request', listener);
  }
}

const OPERATOR = 'merchant@live-aquatics.test';

const refundEmails = async (order: OrderItem) =>
  (await h.emailsTo(order.customerEmail)).filter((e) => e.subject.includes('refund'));

describe('markDispatched', () => {
  it('stores the tracking number as Royal Mail prints it, in capitals without spaces', async () => {
    const order = await h.seedOrder({
      sessionId: 'cs_test_mark_trim_TRACKTRIM001',
      paidAt: '2026-11-20T09:00:00Z',
      dispatchDate: '2026-11-23',
      email: 'track.trim@example.com',
    });
    const result = await markDispatched(
      order.reference,
      { trackingNumber: '  rm 1234 5678 9gb  ', actor: OPERATOR },
      h.deps,
    );
    expect(result).toMatchObject({ reference: 'TRACKTRIM001', changed: true, email: 'sent' });
    const item = await h.item(order.pk);
    expect(item).toMatchObject({ status: 'dispatched', trackingNumber: 'RM123456789GB' });
    expect(item?.history).toEqual([
      { at: '2026-11-20T09:00:00.000Z', actor: 'Stripe', action: 'paid' },
      { at: expect.any(String), actor: OPERATOR, action: 'dispatched', detail: 'tracking RM123456789GB' },
    ]);
  });

  it.each(['ab', 'RM12\nX', '-RM1234', 'not yet known'])(
    'refuses the tracking number %j and changes nothing',
    async (tracking) => {
      const order = await h.seedOrder({
        sessionId: `cs_test_mark_bad_${Buffer.from(tracking).toString('hex').padStart(12, '0').slice(-12)}`,
        paidAt: '2026-11-20T09:00:00Z',
        dispatchDate: '2026-11-23',
        email: 'track.bad@example.com',
      });
      await expect(
        markDispatched(order.reference, { trackingNumber: tracking, actor: OPERATOR }, h.deps),
      ).rejects.toThrow(
        'A tracking number is the one on the label: like AB123456789GB (2 letters, 9 digits, 2 letters), or 8 to 30 letters and digits.',
      );
      expect(await h.item(order.pk)).toMatchObject({ status: 'paid' });
      expect(await h.emailsTo('track.bad@example.com')).toEqual([]);
    },
  );

  it('refuses an order refunded between its read and its dispatch, and sends no dispatch email', async () => {
    const order = await h.seedOrder({
      sessionId: 'cs_test_mark_race_RACEREFUND01',
      paidAt: '2026-11-20T09:00:00Z',
      dispatchDate: '2026-11-23',
      email: 'race.refund@example.com',
    });
    h.beforeCommand('UpdateItemCommand', inputContaining(order.pk, ':dispatched'), () =>
      h.setAttributes(order.pk, { status: 'refunded', refundedAt: '2026-11-21T10:00:00.000Z' }),
    );
    await expect(markDispatched(order.reference, { actor: OPERATOR }, h.deps)).rejects.toThrow(
      new RefusedError('RACEREFUND01 was refunded meanwhile: it cannot be dispatched.'),
    );
    expect(await h.emailsTo('race.refund@example.com')).toEqual([]);
  });
});

describe('delayDispatch', () => {
  it("moves the day's orders and emails only them, not an order already dated the new day", async () => {
    h.setNow(new Date('2031-03-05T10:00:00Z'));
    const moving1 = await h.seedOrder({
      sessionId: 'cs_test_delay_a_DELAYMOVE001',
      paidAt: '2031-03-01T09:00:00Z',
      dispatchDate: '2031-03-10',
      email: 'delay.move1@example.com',
    });
    const moving2 = await h.seedOrder({
      sessionId: 'cs_test_delay_a_DELAYMOVE002',
      paidAt: '2031-03-01T09:05:00Z',
      dispatchDate: '2031-03-10',
      email: 'delay.move2@example.com',
    });
    const already = await h.seedOrder({
      sessionId: 'cs_test_delay_a_DELAYSTAY003',
      paidAt: '2031-03-01T08:00:00Z',
      dispatchDate: '2031-03-11',
      email: 'delay.stay@example.com',
    });
    const result = await delayDispatch(
      { from: '2031-03-10', to: '2031-03-11', reason: 'weather', actor: OPERATOR },
      h.deps,
    );
    expect(result).toEqual({
      from: '2031-03-10',
      to: '2031-03-11',
      moved: ['DELAYMOVE001', 'DELAYMOVE002'],
      emailed: ['DELAYMOVE001', 'DELAYMOVE002'],
      closed: { date: '2031-03-10', before: 'default' },
    });
    expect(await h.item(moving1.pk)).toMatchObject({
      dispatchDate: '2031-03-11',
      delayedFrom: '2031-03-10',
      delayReason: 'weather',
      delayEmailState: 'sent',
    });
    expect((await h.item(moving1.pk))?.history).toEqual([
      { at: '2031-03-01T09:00:00.000Z', actor: 'Stripe', action: 'paid' },
      {
        at: '2031-03-05T10:00:00.000Z',
        actor: OPERATOR,
        action: 'delayed',
        detail: '2031-03-10 to 2031-03-11, weather',
      },
    ]);
    expect(await h.item(moving2.pk)).toMatchObject({ dispatchDate: '2031-03-11', delayEmailState: 'sent' });
    const untouched = await h.item(already.pk);
    expect(untouched).toMatchObject({ dispatchDate: '2031-03-11' });
    expect(untouched).not.toHaveProperty('delayedFrom');
    expect(untouched).not.toHaveProperty('delayEmailState');
    expect(await h.emailsTo('delay.stay@example.com')).toEqual([]);
    expect(await h.emailsTo('delay.move1@example.com')).toHaveLength(1);
  });

  it("a rerun after a stopped run's email tells the customer the first run's reason, not the rerun's", async () => {
    h.setNow(new Date('2031-03-12T10:00:00Z'));
    const order = await h.seedOrder({
      sessionId: 'cs_test_delay_b_DELAYREASON1',
      paidAt: '2031-03-08T09:00:00Z',
      dispatchDate: '2031-03-17',
      email: 'delay.reason@example.com',
    });
    const sesDown = injectAwsFault(h.shop.clients.ses, { command: 'SendEmailCommand', when: 'before' });
    await expect(
      delayDispatch({ from: '2031-03-17', to: '2031-03-18', reason: 'weather', actor: OPERATOR }, h.deps),
    ).rejects.toThrow();
    sesDown.remove();
    const rerun = await delayDispatch(
      { from: '2031-03-17', to: '2031-03-18', reason: 'supply', actor: OPERATOR },
      h.deps,
    );
    expect(rerun).toEqual({ from: '2031-03-17', to: '2031-03-18', moved: [], emailed: ['DELAYREASON1'] });
    const [email] = await h.emailsTo('delay.reason@example.com');
    expect(email?.body.text).toContain('freezing or extreme weather');
    expect(email?.body.text).not.toContain('supply of live cultures');
    expect(await h.item(order.pk)).toMatchObject({ delayReason: 'weather' });
  });

  it("never sends another delay's unsent email with this delay's day", async () => {
    h.setNow(new Date('2031-04-02T10:00:00Z'));
    // Moved from Monday 7th to Wednesday 9th by a run whose email never went.
    const earlier = await h.seedOrder({
      sessionId: 'cs_test_delay_d_DELAYOTHER01',
      paidAt: '2031-03-29T09:00:00Z',
      dispatchDate: '2031-04-07',
      email: 'delay.other1@example.com',
    });
    const sesDown = injectAwsFault(h.shop.clients.ses, { command: 'SendEmailCommand', when: 'before' });
    await expect(
      delayDispatch({ from: '2031-04-07', to: '2031-04-09', reason: 'weather', actor: OPERATOR }, h.deps),
    ).rejects.toThrow();
    sesDown.remove();
    await h.seedOrder({
      sessionId: 'cs_test_delay_d_DELAYOTHER02',
      paidAt: '2031-03-29T09:05:00Z',
      dispatchDate: '2031-04-08',
      email: 'delay.other2@example.com',
    });
    const result = await delayDispatch(
      { from: '2031-04-08', to: '2031-04-09', reason: 'supply', actor: OPERATOR },
      h.deps,
    );
    expect(result).toEqual({
      from: '2031-04-08',
      to: '2031-04-09',
      moved: ['DELAYOTHER02'],
      emailed: ['DELAYOTHER02'],
    });
    expect(await h.emailsTo('delay.other1@example.com')).toEqual([]);
    expect(await h.item(earlier.pk)).toMatchObject({ delayedFrom: '2031-04-07', delayEmailState: 'pending' });
  });

  it('does not count as moved an order dispatched between the read and its move', async () => {
    h.setNow(new Date('2031-03-19T10:00:00Z'));
    const dispatched = await h.seedOrder({
      sessionId: 'cs_test_delay_c_DELAYRACE001',
      paidAt: '2031-03-15T09:00:00Z',
      dispatchDate: '2031-03-24',
      email: 'delay.race1@example.com',
    });
    await h.seedOrder({
      sessionId: 'cs_test_delay_c_DELAYRACE002',
      paidAt: '2031-03-15T09:05:00Z',
      dispatchDate: '2031-03-24',
      email: 'delay.race2@example.com',
    });
    h.beforeCommand('UpdateItemCommand', inputContaining(dispatched.pk, 'delayedFrom'), () =>
      h.setAttributes(dispatched.pk, { status: 'dispatched' }),
    );
    const result = await delayDispatch(
      { from: '2031-03-24', to: '2031-03-25', reason: 'other', actor: OPERATOR },
      h.deps,
    );
    expect(result).toEqual({
      from: '2031-03-24',
      to: '2031-03-25',
      moved: ['DELAYRACE002'],
      emailed: ['DELAYRACE002'],
      closed: { date: '2031-03-24', before: 'default' },
    });
    expect(await h.item(dispatched.pk)).toMatchObject({ status: 'dispatched', dispatchDate: '2031-03-24' });
    expect(await h.emailsTo('delay.race1@example.com')).toEqual([]);
  });
});

describe('refundOrder', () => {
  it('makes one Stripe request: the refund of the stored PaymentIntent, keyed on the order', async () => {
    const order = await h.paidOrder();
    const { result, requests } = await stripeRequestsDuring(() =>
      refundOrder(order.reference, { reason: 'doa', actor: OPERATOR }, h.deps),
    );
    expect(requests).toEqual([{ method: 'POST', path: '/v1/refunds', key: `refund-${order.sessionId}` }]);
    expect(result).toMatchObject({
      changed: true,
      email: 'sent',
      refundEmail: { state: 'sent', by: 'this run' },
    });
    expect((await h.item(order.pk))?.history).toEqual([
      expect.objectContaining({ actor: 'Stripe', action: 'paid' }),
      { at: expect.any(String), actor: OPERATOR, action: 'refunded', detail: `doa, ${result.refundId}` },
    ]);
  });

  it('finds the PaymentIntent through the session when the order does not hold it', async () => {
    const session = await h.shop.paidSession();
    const intent = (await h.shop.stripe.checkout.sessions.retrieve(session.id)).payment_intent;
    const order = await h.seedOrder({
      sessionId: session.id,
      paidAt: '2026-11-20T09:00:00Z',
      dispatchDate: '2026-11-23',
      paymentIntentId: undefined,
    });
    expect(order.paymentIntentId).toBeUndefined();
    const { result, requests } = await stripeRequestsDuring(() =>
      refundOrder(order.reference, { reason: 'doa', actor: OPERATOR }, h.deps),
    );
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /v1/checkout/sessions/${session.id}`,
      'POST /v1/refunds',
    ]);
    expect(h.shop.simulator.refunds.find((r) => r.id === result.refundId)?.payment_intent).toBe(intent);
    expect(await h.item(order.pk)).toMatchObject({ status: 'refunded' });
  });

  it('refuses an order whose session Stripe has no payment for', async () => {
    const session = await createCheckoutSession(h.shop.stripe);
    const order = await h.seedOrder({
      sessionId: session.id,
      paidAt: '2026-11-20T09:00:00Z',
      dispatchDate: '2026-11-23',
      paymentIntentId: undefined,
    });
    await expect(refundOrder(order.reference, { reason: 'other', actor: OPERATOR }, h.deps)).rejects.toThrow(
      new RefusedError(`Stripe has no payment for ${session.id}: nothing to refund.`),
    );
    expect(await h.item(order.pk)).toMatchObject({ status: 'paid' });
  });

  it("Stripe's refusal of a dispatched order's refund leaves the order exactly as it was, reason included", async () => {
    const order = await h.paidOrder();
    await markDispatched(order.reference, { actor: OPERATOR, early: true }, h.deps);
    expect((await h.item(order.pk))?.history).toEqual([
      expect.objectContaining({ action: 'paid' }),
      { at: expect.any(String), actor: OPERATOR, action: 'dispatched' },
    ]);
    // Refunded in the Dashboard, its event not delivered: Stripe refuses a second refund.
    await h.shop.simulator.refundFromDashboard(order.sessionId);
    const refusal = await refundOrder(order.reference, { reason: 'doa', actor: OPERATOR }, h.deps).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(RefusedError);
    expect(refusal).toHaveProperty(
      'message',
      expect.stringMatching(
        new RegExp(
          `^Stripe refused the refund of ${order.reference}: Charge ch_\\w+ has already been refunded\\. \\(charge_already_refunded\\)\\. The order is unchanged\\.$`,
        ),
      ),
    );
    expect(refusal).toHaveProperty('cause', expect.any(Stripe.errors.StripeInvalidRequestError));
    const item = await h.item(order.pk);
    expect(item).toMatchObject({ status: 'dispatched' });
    expect(item).not.toHaveProperty('refundReason');
    expect(item).not.toHaveProperty('refundRequestedAt');
  });

  it("keeps the reason when Stripe's answer is an API error (the refund may have been made) and passes the error on", async () => {
    const order = await h.paidOrder();
    h.shop.simulator.injectFault({ status: 500, pathPrefix: '/v1/refunds', times: 5 });
    const error = await refundOrder(order.reference, { reason: 'doa', actor: OPERATOR }, h.deps).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(error).not.toBeInstanceOf(RefusedError);
    expect(await h.item(order.pk)).toMatchObject({ status: 'paid', refundReason: 'doa' });
    // Stripe did refund it: its event names the operator who asked, from the order.
    expect(
      await recordStripeRefund(
        {
          paymentIntentId: order.paymentIntentId ?? '',
          fullyRefunded: true,
          refundId: 're_after_api_error',
          metadataReason: 'doa',
        },
        h.deps,
      ),
    ).toBe('recorded');
    const item = await h.item(order.pk);
    expect(item).toMatchObject({ status: 'refunded', refundReason: 'doa', refundRecordedBy: 'webhook' });
    expect(lastHistoryEntry(item)).toEqual({
      at: expect.any(String),
      actor: OPERATOR,
      action: 'refunded',
      detail: 'doa, re_after_api_error',
    });
  });

  it("a rerun with another reason records the rerun's reason, in the order and its history", async () => {
    const order = await h.paidOrder();
    const unreachable = createStripeClient('sk_test_unreachable', {
      apiBase: 'http://127.0.0.1:9',
      maxNetworkRetries: 0,
    });
    await expect(
      refundOrder(order.reference, { reason: 'supply', actor: OPERATOR }, { ...h.deps, stripe: unreachable }),
    ).rejects.toThrow(Stripe.errors.StripeConnectionError);
    const result = await refundOrder(order.reference, { reason: 'doa', actor: OPERATOR }, h.deps);
    const item = await h.item(order.pk);
    expect(item).toMatchObject({ status: 'refunded', refundReason: 'doa' });
    expect(lastHistoryEntry(item)).toEqual({
      at: expect.any(String),
      actor: OPERATOR,
      action: 'refunded',
      detail: `doa, ${result.refundId}`,
    });
  });

  it('keeps the reason when Stripe cannot be reached, and passes the error on', async () => {
    const order = await h.paidOrder();
    const unreachable = createStripeClient('sk_test_unreachable', {
      apiBase: 'http://127.0.0.1:9',
      maxNetworkRetries: 0,
    });
    const error = await refundOrder(
      order.reference,
      { reason: 'supply', actor: OPERATOR },
      { ...h.deps, stripe: unreachable },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeConnectionError);
    expect(await h.item(order.pk)).toMatchObject({ status: 'paid', refundReason: 'supply' });
    // The event of a refund Stripe made, its metadata lost: the order's stored reason and operator.
    await recordStripeRefund(
      { paymentIntentId: order.paymentIntentId ?? '', fullyRefunded: true, refundId: 're_after_lost_answer' },
      h.deps,
    );
    const item = await h.item(order.pk);
    expect(item).toMatchObject({ status: 'refunded', refundReason: 'supply' });
    expect(lastHistoryEntry(item)).toEqual({
      at: expect.any(String),
      actor: OPERATOR,
      action: 'refunded',
      detail: 'supply, re_after_lost_answer',
    });
  });

  // The simulator's card refunds always succeed at once; Stripe answers `failed` or `canceled`
  // for some payment methods. The answer is a real refund of another order with its status set.
  it.each([
    ['failed', 'expired_or_canceled_card', 'is failed (expired_or_canceled_card)'],
    ['canceled', undefined, 'is canceled'],
  ] as const)(
    'a refund Stripe answers as %s leaves the order unchanged',
    async (status, failureReason, words) => {
      const other = await h.paidOrder();
      const real = await h.shop.stripe.refunds.create({ payment_intent: other.paymentIntentId });
      const order = await h.paidOrder();
      vi.spyOn(h.deps.stripe.refunds, 'create').mockResolvedValueOnce({
        ...real,
        status,
        failure_reason: failureReason,
      });
      await expect(
        refundOrder(order.reference, { reason: 'supply', actor: OPERATOR }, h.deps),
      ).rejects.toThrow(
        new RefusedError(
          `Stripe's refund ${real.id} of ${order.reference} ${words}. The order is unchanged.`,
        ),
      );
      const item = await h.item(order.pk);
      expect(item).toMatchObject({ status: 'paid' });
      expect(item).not.toHaveProperty('refundReason');
      expect(await refundEmails(order)).toEqual([]);
    },
  );

  it('refuses an order the webhook refunded, without a refund id when the event named none', async () => {
    const order = await h.paidOrder();
    h.setNow(new Date('2026-11-25T13:15:24.760Z'));
    expect(
      await recordStripeRefund(
        { paymentIntentId: order.paymentIntentId ?? '', fullyRefunded: true, refundId: undefined },
        h.deps,
      ),
    ).toBe('recorded');
    expect((await h.item(order.pk))?.history).toEqual([
      expect.objectContaining({ action: 'paid' }),
      { at: '2026-11-25T13:15:24.760Z', actor: 'Stripe Dashboard', action: 'refunded', detail: 'stripe' },
    ]);
    await expect(refundOrder(order.reference, { reason: 'doa', actor: OPERATOR }, h.deps)).rejects.toThrow(
      new RefusedError(
        `${order.reference} was already refunded on Wed 25 Nov, 13:15: nothing refunded again.`,
      ),
    );
    expect(await refundEmails(order)).toHaveLength(1);
  });

  it('refusing a refunded order sends the refund email a stopped run left unsent, and says so', async () => {
    const order = await h.paidOrder();
    h.setNow(new Date('2026-11-25T13:15:24.760Z'));
    const sesDown = injectAwsFault(h.shop.clients.ses, { command: 'SendEmailCommand', when: 'before' });
    await expect(
      recordStripeRefund(
        { paymentIntentId: order.paymentIntentId ?? '', fullyRefunded: true, refundId: 're_webhook_first' },
        h.deps,
      ),
    ).rejects.toThrow();
    sesDown.remove();
    expect(await refundEmails(order)).toEqual([]);
    await expect(refundOrder(order.reference, { reason: 'doa', actor: OPERATOR }, h.deps)).rejects.toThrow(
      new RefusedError(
        `${order.reference} was already refunded on Wed 25 Nov, 13:15 (re_webhook_first): nothing refunded again; its refund email, not sent before, was sent now.`,
      ),
    );
    expect(await refundEmails(order)).toHaveLength(1);
  });

  it.each([
    ['sending', { state: 'being sent' }],
    ['failed', { state: 'not sent' }],
    ['sent', { state: 'sent', by: 'the Stripe webhook or another refund request' }],
  ] as const)('reports a refund email another run left %s as %j', async (state, report) => {
    const order = await h.paidOrder();
    h.beforeCommand('UpdateItemCommand', inputContaining(order.pk, 'SET #lock = :lock'), () =>
      anotherRunHoldsTheRefundEmail(order.pk, state),
    );
    const result = await refundOrder(order.reference, { reason: 'other', actor: OPERATOR }, h.deps);
    expect(result).toMatchObject({ changed: true, email: 'not-sent', refundEmail: report });
    expect(result.refundEmail).toEqual(report);
    expect(await refundEmails(order)).toEqual([]);
  });
  it('waits for a refund email another path is sending, then reports it sent by that path', async () => {
    const order = await h.paidOrder();
    h.beforeCommand('UpdateItemCommand', inputContaining(order.pk, 'SET #lock = :lock'), async () => {
      await anotherRunHoldsTheRefundEmail(order.pk, 'sending');
      // The other sender finishes its SES call a moment later.
      setTimeout(() => {
        void anotherRunHoldsTheRefundEmail(order.pk, 'sent');
      }, 600);
    });
    const result = await refundOrder(order.reference, { reason: 'doa', actor: OPERATOR }, h.deps);
    expect(result.refundEmail).toEqual({
      state: 'sent',
      by: 'the Stripe webhook or another refund request',
    });
    expect(await refundEmails(order)).toEqual([]);
  });
});

/**
 * Another sender (the webhook's) holds the order's outbox lock on its refund entry (`sending`), or
 * has settled it (`sent`, `failed`) and let the lock go, as its own drain leaves it.
 */
async function anotherRunHoldsTheRefundEmail(pk: string, state: 'sending' | 'sent' | 'failed') {
  const item = await h.item(pk);
  const outbox = (item?.outbox ?? {}) as Record<string, { kind: string; state: string }>;
  const key = Object.keys(outbox).find((k) => outbox[k]?.kind === 'refund') ?? 'e1';
  const at = new Date().toISOString();
  const entry = { ...outbox[key], state };
  await h.setAttributes(pk, {
    outbox: { ...outbox, [key]: entry },
    ...(state === 'sending' ? { outboxLock: { token: 'another-run', entry: key, at } } : {}),
    ...(state === 'sent' ? { refundEmailState: 'sent', refundEmailSentAt: at } : {}),
  });
  if (state !== 'sending') await h.removeAttributes(pk, ['outboxLock']);
}

describe('recordStripeRefund', () => {
  it("records the refund on the order whose PaymentIntent it names, not the shop's latest", async () => {
    const older = await h.paidOrder();
    const newer = await h.paidOrder();
    expect(
      await recordStripeRefund(
        { paymentIntentId: older.paymentIntentId ?? '', fullyRefunded: true, refundId: 're_older' },
        h.deps,
      ),
    ).toBe('recorded');
    expect(await h.item(older.pk)).toMatchObject({
      status: 'refunded',
      refundId: 're_older',
      refundReason: 'stripe',
    });
    expect(lastHistoryEntry(await h.item(older.pk))).toEqual({
      at: expect.any(String),
      actor: 'Stripe Dashboard',
      action: 'refunded',
      detail: 'stripe, re_older',
    });
    expect(await h.item(newer.pk)).toMatchObject({ status: 'paid' });
  });

  it.each([
    ['its metadata gives a reason', {}, 'supply', 'supply, re_by_shop'],
    [
      'the order holds a request that names nobody',
      { refundRequestedAt: '2026-11-20T10:00:00.000Z', refundReason: 'doa' },
      undefined,
      'doa, re_by_shop',
    ],
  ] as const)('names the shop as who refunded when %s', async (_case, stored, metadataReason, detail) => {
    const order = await h.paidOrder();
    if (Object.keys(stored).length > 0) await h.setAttributes(order.pk, stored);
    await recordStripeRefund(
      {
        paymentIntentId: order.paymentIntentId ?? '',
        fullyRefunded: true,
        refundId: 're_by_shop',
        metadataReason,
      },
      h.deps,
    );
    expect(lastHistoryEntry(await h.item(order.pk))).toEqual({
      at: expect.any(String),
      actor: 'the shop',
      action: 'refunded',
      detail,
    });
  });

  it('a partial refund leaves the order as it is and sends nothing', async () => {
    const order = await h.paidOrder();
    expect(
      await recordStripeRefund(
        { paymentIntentId: order.paymentIntentId ?? '', fullyRefunded: false, refundId: 're_part' },
        h.deps,
      ),
    ).toBe('partial');
    const item = await h.item(order.pk);
    expect(item).toMatchObject({ status: 'paid' });
    expect(item).not.toHaveProperty('refundEmailState');
    expect(await refundEmails(order)).toEqual([]);
  });

  it('a PaymentIntent of no session of ours is not ours', async () => {
    expect(
      await recordStripeRefund(
        { paymentIntentId: 'pi_test_not_ours_at_all', fullyRefunded: true, refundId: undefined },
        h.deps,
      ),
    ).toBe('not-ours');
  });

  it('a refunded session with no order recorded yet (its completed late) records its order, born refunded: no confirmation, the refund email once', async () => {
    const session = await h.shop.paidSession({ customer: { email: 'born.refunded@example.com' } });
    await h.shop.simulator.refundFromDashboard(session.id);
    const intent = (await h.shop.stripe.checkout.sessions.retrieve(session.id)).payment_intent;
    expect(typeof intent).toBe('string');
    const charge = {
      paymentIntentId: typeof intent === 'string' ? intent : '',
      fullyRefunded: true,
      refundId: 're_x',
    };

    expect(await recordStripeRefund(charge, h.deps)).toBe('recorded');
    expect(await recordStripeRefund(charge, h.deps)).toBe('already-refunded');

    expect(await h.shop.ordersFor(session.id)).toMatchObject([
      { status: 'refunded', refundReason: 'stripe', refundEmailState: 'sent' },
    ]);
    const emails = await h.emailsTo('born.refunded@example.com');
    expect(emails.map((e) => e.subject)).toEqual([
      `Live Aquatics Ltd: refund for order ${session.id.slice(-12)}`,
    ]);
  });
});
