import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { verifyStripeEvent } from '../../../lambdas/lib/verify-stripe-event';

// verifyStripeEvent on its own: each refusal names its reason (the log's only clue), signed with
// the SDK's own test helper.
const SECRET = 'whsec_test_verify';
const NOW = new Date('2026-11-23T12:00:00Z');
const NOW_SECONDS = NOW.getTime() / 1000;

const payload = (overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    id: 'evt_test_1',
    object: 'event',
    type: 'checkout.session.completed',
    livemode: false,
    created: NOW_SECONDS,
    data: { object: { id: 'cs_test_1' } },
    ...overrides,
  });
const sign = (body: string, timestamp = NOW_SECONDS) =>
  Stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET, timestamp });
const verify = (body: string, header: string | undefined, livemode = false) =>
  verifyStripeEvent(Buffer.from(body), header, { secret: SECRET, livemode, now: NOW });
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('not refused');
};

describe('verifyStripeEvent', () => {
  it('returns the event envelope of a well-signed delivery', () => {
    const body = payload();

    expect(verify(body, sign(body))).toEqual({
      id: 'evt_test_1',
      type: 'checkout.session.completed',
      livemode: false,
      created: NOW_SECONDS,
      data: { object: { id: 'cs_test_1' } },
    });
  });

  it('refuses a delivery without a signature header as missing-signature', () => {
    expect(refusal(() => verify(payload(), undefined))).toMatchObject({
      name: 'WebhookVerificationError',
      reason: 'missing-signature',
      message: 'Webhook refused: missing-signature',
    });
    expect(refusal(() => verify(payload(), ''))).toMatchObject({ reason: 'missing-signature' });
  });

  it('refuses a wrong signature as bad-signature, keeping the SDK error as the cause', () => {
    const error = refusal(() => verify(payload(), sign(payload({ id: 'evt_other' }))));

    expect(error).toMatchObject({ reason: 'bad-signature', message: 'Webhook refused: bad-signature' });
    expect((error as Error).cause).toBeInstanceOf(Stripe.errors.StripeSignatureVerificationError);
  });

  it('accepts a signature 300 s ahead of our clock and refuses 301 s ahead as timestamp-in-future', () => {
    const body = payload();

    expect(verify(body, sign(body, NOW_SECONDS + 300)).id).toBe('evt_test_1');
    expect(refusal(() => verify(body, sign(body, NOW_SECONDS + 301)))).toMatchObject({
      reason: 'timestamp-in-future',
      message: 'Webhook refused: timestamp-in-future',
    });
  });

  it('reads the signing time from the t= part only, wherever it stands among the others', () => {
    const body = payload();
    // A scheme Stripe may add later, whose value looks like a far-future time.
    const header = `${sign(body)},v0=9999999999`;

    expect(verify(body, header).id).toBe('evt_test_1');
  });

  it('refuses a signed body that is not a Stripe event as malformed-event', () => {
    const body = JSON.stringify({ hello: 'world' });

    expect(refusal(() => verify(body, sign(body)))).toMatchObject({ reason: 'malformed-event' });
  });

  it('refuses an event of the other mode as livemode-mismatch', () => {
    const body = payload();

    expect(refusal(() => verify(body, sign(body), true))).toMatchObject({
      reason: 'livemode-mismatch',
      message: 'Webhook refused: livemode-mismatch',
    });
  });
});
