import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type StripeSimulator, startStripeSimulator } from '../../../local/stripe-simulator/server';
import { rejectionOf, shopSessionParams, stripeFor } from './support';

// `npm start` restarted: the simulator keeps its objects in a file, so yesterday's payments can
// still be refunded through the real SDK, and a key's first answer is still replayed.

let folder = '';
let file = '';
let running: StripeSimulator[] = [];
let logged: string[] = [];

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'simulator-kept-'));
  file = join(folder, 'stripe-simulator.json');
  logged = [];
});

afterEach(async () => {
  await Promise.all(running.map((simulator) => simulator.close()));
  running = [];
});

async function start(options: { asyncSettleDelayMs?: number } = {}) {
  const simulator = await startStripeSimulator({
    port: 0,
    stateFile: file,
    log: (line) => logged.push(line),
    ...options,
  });
  running.push(simulator);
  return { simulator, stripe: stripeFor(simulator) };
}

async function stop(simulator: StripeSimulator) {
  running = running.filter((other) => other !== simulator);
  await simulator.close();
}

describe('the Stripe simulator across a restart', () => {
  it('keeps sessions, payments and refunds: a payment made before is refunded after', async () => {
    // Prepare: a paid session, then a stop.
    const before = await start();
    const session = await before.stripe.checkout.sessions.create(shopSessionParams());
    const paid = await before.simulator.completeSession(session.id);
    await stop(before.simulator);

    // Act
    const after = await start();
    const refund = await after.stripe.refunds.create({ payment_intent: String(paid.payment_intent) });

    // Assess
    expect(logged).toContain(`Stripe simulator: kept from ${file}: 1 sessions, 1 payments, 0 refunds.`);
    expect(refund).toMatchObject({ amount: 1470, status: 'succeeded' });
    const again = await after.stripe.checkout.sessions.retrieve(session.id);
    expect(again).toMatchObject({ status: 'complete', payment_status: 'paid', amount_total: 1470 });
    const charge = await after.stripe.charges.retrieve(String(refund.charge));
    expect(charge).toMatchObject({ amount_refunded: 1470, refunded: true });

    // And the refund made after the restart is kept for the next one.
    await stop(after.simulator);
    const third = await start();
    expect((await third.stripe.refunds.retrieve(refund.id)).amount).toBe(1470);
    expect(third.simulator.refunds.map((kept) => kept.id)).toEqual([refund.id]);
  }, 30_000);

  it("replays a key's first answer after a restart, as Stripe keeps keys for 24 hours", async () => {
    const before = await start();
    const session = await before.stripe.checkout.sessions.create(shopSessionParams());
    const paid = await before.simulator.completeSession(session.id);
    const params = { payment_intent: String(paid.payment_intent), amount: 325 };
    const first = await before.stripe.refunds.create(params, { idempotencyKey: 'refund-ref-1' });
    await stop(before.simulator);

    const after = await start();
    const retried = await after.stripe.refunds.create(params, { idempotencyKey: 'refund-ref-1' });

    expect(retried.id).toBe(first.id);
    expect(after.simulator.refunds).toHaveLength(1);
  }, 30_000);

  it('a Direct Debit paid "settles later" before the restart settles after it', async () => {
    const before = await start({ asyncSettleDelayMs: 60_000 });
    const session = await before.stripe.checkout.sessions.create(shopSessionParams());
    await fetch(`${before.simulator.url}/c/pay/${session.id}`, {
      method: 'POST',
      body: new URLSearchParams({ method: 'bacs_debit', outcome: 'collected_later' }),
      redirect: 'manual',
    });
    await stop(before.simulator);

    const after = await start({ asyncSettleDelayMs: 60_000 });
    const waiting = await after.stripe.checkout.sessions.retrieve(session.id);
    await after.simulator.advanceClock(60_000);
    const settled = await after.stripe.checkout.sessions.retrieve(session.id);

    expect(waiting.payment_status).toBe('unpaid');
    expect(settled.payment_status).toBe('paid');
  }, 30_000);

  it('starts empty on a file that is not JSON, says so, and keeps the bad file aside', async () => {
    writeFileSync(file, '{"version":1,"store":{"ses');

    const { stripe } = await start();
    const missing = await rejectionOf(stripe.checkout.sessions.retrieve('cs_test_anything'));

    expect(logged.join('\n')).toMatch(
      /^Stripe simulator: .*stripe-simulator\.json could not be read \(.*JSON.*\); kept aside as stripe-simulator\.json\.corrupt-\S+, starting empty\.$/m,
    );
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    const aside = readdirSync(folder).filter((name) => name.startsWith('stripe-simulator.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(folder, aside[0] ?? ''), 'utf8')).toBe('{"version":1,"store":{"ses');
  }, 30_000);

  it('starts empty on JSON of another shape, names what is wrong, and keeps it aside', async () => {
    writeFileSync(file, JSON.stringify({ version: 1, store: { sessions: 'none' } }));

    await start();

    expect(logged.join('\n')).toContain('could not be read (not a state this shop wrote: store.nextSeq:');
    expect(readdirSync(folder).some((name) => name.startsWith('stripe-simulator.json.corrupt-'))).toBe(true);
  }, 30_000);

  it('with no file yet, says it starts empty and writes one once something happens', async () => {
    const { simulator, stripe } = await start();
    await stripe.checkout.sessions.create(shopSessionParams());
    await stop(simulator);

    expect(logged).toContain(`Stripe simulator: nothing kept yet in ${file}, starting empty.`);
    expect(existsSync(file)).toBe(true);
    expect(readdirSync(folder)).toEqual(['stripe-simulator.json']);
  }, 30_000);
});
