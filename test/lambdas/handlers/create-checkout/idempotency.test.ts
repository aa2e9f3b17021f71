import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_WINDOW_MS } from '../../../../lambdas/domain/checkout/create-checkout-session';
import { CHECKOUT_ERRORS } from '../../../../lambdas/handlers/create-checkout/handler';
import { createStripeClient } from '../../../../lambdas/lib/stripe';
import { nextDispatchDate } from '../../../../shared/dispatch';
import { jsonBody } from '../../../support/api-gateway-event';
import {
  allSessionIds,
  checkoutEvent,
  createdSession,
  type Harness,
  startHarness,
  TEST_SECRET_KEY,
  validOrder,
  withLogs,
} from './harness';

// An Idempotency-Key makes a double-click or a retry return the same session. Stripe compares the
// parameters of a reused key, so they must be identical a second (or a window boundary) later.

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());
afterEach(() => harness.sim.clearFaults());

const keyed = (key: string, body: unknown = validOrder) =>
  checkoutEvent({ body, headers: { 'Idempotency-Key': key } });
const currentWindow = () => Math.floor(Date.now() / SESSION_WINDOW_MS) * SESSION_WINDOW_MS;

/** A handler whose clock reads `at` and whose dispatch cut-off is `cutoffHours`. */
function handlerAt(at: number, cutoffHours = 36) {
  return harness.handlerWith({ cutoffHours, now: () => new Date(at) });
}

describe('create-checkout: the same key returns the same session', () => {
  it('answers a retry with the same key with the same session, and creates one', async () => {
    const key = randomUUID();
    const before = await allSessionIds(harness.stripe);

    const first = createdSession(await harness.handle(keyed(key)));
    const retry = createdSession(await harness.handle(keyed(key)));

    expect(retry).toEqual(first);
    expect((await allSessionIds(harness.stripe)).length - before.length).toBe(1);
  });

  it('makes a new session for a different key, and for every request without a key', async () => {
    const withKeyA = createdSession(await harness.handle(keyed(randomUUID())));
    const withKeyB = createdSession(await harness.handle(keyed(randomUUID())));
    const withoutKey1 = createdSession(await harness.handle(checkoutEvent()));
    const withoutKey2 = createdSession(await harness.handle(checkoutEvent()));

    const ids = [withKeyA, withKeyB, withoutKey1, withoutKey2].map((answer) => answer.sessionId);
    expect(new Set(ids).size).toBe(4);
    const references = ids.map((id) => harness.sim.getSession(id)?.client_reference_id);
    expect(new Set(references).size).toBe(4);
    // "ord_" and 24 hex digits, with a key as without: the reference the merchant reads everywhere.
    for (const reference of references) expect(reference).toMatch(/^ord_[0-9a-f]{24}$/);
  });

  it('answers a concurrent double-click with one session (Stripe\'s "in progress" 409 is retried)', async () => {
    // The production client: one network retry. The first request holds the key for 300 ms.
    const stripe = createStripeClient(TEST_SECRET_KEY, { apiBase: harness.sim.url });
    const handle = harness.handlerWith({ stripe });
    harness.sim.injectFault({ delayMs: 300, times: 1, pathPrefix: '/v1/checkout/sessions' });
    const key = randomUUID();

    const [a, b] = await Promise.all([handle(keyed(key)), handle(keyed(key))]);

    expect(createdSession(a)).toEqual(createdSession(b));
  });

  it('answers "try again" (502), not "different details", when the first request with the key is still running', async () => {
    // No SDK retry here, so Stripe's 409 "in progress" reaches the handler: it is transient, not a conflict.
    const stripe = createStripeClient(TEST_SECRET_KEY, { apiBase: harness.sim.url, maxNetworkRetries: 0 });
    const handle = harness.handlerWith({ stripe });
    harness.sim.injectFault({ delayMs: 300, times: 1, pathPrefix: '/v1/checkout/sessions' });
    const key = randomUUID();

    const first = handle(keyed(key));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await handle(keyed(key));

    expect(createdSession(await first).sessionId).toMatch(/^cs_test_/);
    expect(second.statusCode).toBe(502);
    expect(second.body).not.toContain(CHECKOUT_ERRORS.conflict);
  });

  it('sends identical parameters a second apart within a window', async () => {
    const key = randomUUID();
    const start = currentWindow();

    const first = createdSession(await handlerAt(start + 1_000)(keyed(key)));
    const second = createdSession(await handlerAt(start + 2_000)(keyed(key)));

    expect(second.sessionId).toBe(first.sessionId);
  });

  it('returns the first session to a retry in the next window, by repeating the previous parameters', async () => {
    const key = randomUUID();
    const start = currentWindow();

    const first = createdSession(await handlerAt(start + SESSION_WINDOW_MS - 500)(keyed(key)));
    const retry = createdSession(await handlerAt(start + SESSION_WINDOW_MS + 500)(keyed(key)));

    expect(retry.sessionId).toBe(first.sessionId);
  });

  it('answers "try again" (502), not "different details", when Stripe fails the retry with the previous window\'s parameters', async () => {
    const key = randomUUID();
    const start = currentWindow();
    createdSession(await handlerAt(start + SESSION_WINDOW_MS - 500)(keyed(key)));
    // The retry's first attempt (this window's parameters) meets the key's earlier use; its second
    // attempt, with the previous window's, meets a Stripe outage.
    harness.sim.injectFault({ status: 500, skip: 1, pathPrefix: '/v1/checkout/sessions' });

    const retry = await handlerAt(start + SESSION_WINDOW_MS + 500)(keyed(key));

    expect(retry.statusCode).toBe(502);
    expect(jsonBody(retry)).toEqual({ error: 'Unable to process your order. Please try again.' });
  });

  it('returns the first session, with its dispatch date, to a retry just after the dispatch cut-off', async () => {
    // Choose the cut-off so that it falls exactly on the next window boundary.
    const boundary = currentWindow() + SESSION_WINDOW_MS;
    const cutoffHours = cutoffAt(boundary);
    const key = randomUUID();

    const first = createdSession(await handlerAt(boundary - 1_000, cutoffHours)(keyed(key)));
    const retry = createdSession(await handlerAt(boundary + 1_000, cutoffHours)(keyed(key)));
    const newAttempt = createdSession(await handlerAt(boundary + 1_000, cutoffHours)(keyed(randomUUID())));

    expect(retry.sessionId).toBe(first.sessionId);
    const firstDate = harness.sim.getSession(first.sessionId)?.metadata.dispatch_date;
    const laterDate = harness.sim.getSession(newAttempt.sessionId)?.metadata.dispatch_date;
    expect(firstDate).toBe(nextDispatchDate(new Date(boundary - 1), { cutoffHours }));
    expect(laterDate).toBe(nextDispatchDate(new Date(boundary), { cutoffHours }));
    expect(laterDate).not.toBe(firstDate);
  });
});

describe('create-checkout: the same key with other details', () => {
  it('answers 409 and creates nothing when the details differ', async () => {
    const key = randomUUID();
    const first = createdSession(await harness.handle(keyed(key)));
    const before = await allSessionIds(harness.stripe);

    const { result: changed, logged } = await withLogs(() =>
      harness.handle(keyed(key, { ...validOrder, quantity: 6, subtotal: 19.5, total: 24.45 })),
    );

    expect(changed.statusCode).toBe(409);
    expect(jsonBody(changed)).toEqual({ error: CHECKOUT_ERRORS.conflict });
    expect(await allSessionIds(harness.stripe)).toEqual(before);
    expect(before).toContain(first.sessionId);
    expect(logged).toContain('Idempotency key reused with different details');
  });

  it('answers 409 to a retry two windows later, whose parameters can no longer match', async () => {
    const key = randomUUID();
    const start = currentWindow();
    createdSession(await handlerAt(start + 1_000)(keyed(key)));

    const late = await handlerAt(start + 2 * SESSION_WINDOW_MS + 1_000)(keyed(key));

    expect(late.statusCode).toBe(409);
    expect(jsonBody(late)).toEqual({ error: CHECKOUT_ERRORS.conflict });
  });
});

/**
 * The cut-off (in hours, on a 10-minute grid) that falls exactly at `instant`: orders before it go
 * to one dispatch day, orders from it on to the next.
 */
function cutoffAt(instant: number): number {
  for (let tenths = 0; tenths <= 6 * 24 * 10; tenths += 1) {
    const hours = tenths / 6;
    const before = nextDispatchDate(new Date(instant - 1), { cutoffHours: hours });
    const at = nextDispatchDate(new Date(instant), { cutoffHours: hours });
    if (before !== at) return hours;
  }
  throw new Error('no cut-off found');
}
