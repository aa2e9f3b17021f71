import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pauseShop } from '../../../../lambdas/domain/operations/pause-shop';
import type { FaultSpec } from '../../../../local/stripe-simulator/faults';
import { createCheckoutSession } from '../../../support/checkout-sessions';
import { requestGate } from '../../../support/request-gate';
import { type OperationsHarness, startOperationsHarness } from './operations-harness';

let h: OperationsHarness;
beforeAll(async () => {
  h = await startOperationsHarness();
});
afterEach(() => h.shop.simulator.clearFaults());
afterAll(() => h?.close());

/** Holds the session's expire at Stripe until `pauseWhile` lets it go (then it fails with `fault`'s status, if any). */
function holdExpire(sessionId: string, fault: Pick<FaultSpec, 'status' | 'times'> = {}) {
  const gate = requestGate();
  h.shop.simulator.injectFault({
    ...fault,
    pathPrefix: `/v1/checkout/sessions/${sessionId}/expire`,
    hold: gate.hold,
  });
  return gate;
}

/** Pauses, running `meanwhile` once the held expire has reached Stripe, then lets the expire go on. */
async function pauseWhile(expire: ReturnType<typeof requestGate>, meanwhile: () => Promise<unknown>) {
  const pausing = pauseShop({ mode: 'paused', message: 'Back on Monday' }, h.deps);
  await expire.arrived;
  await meanwhile();
  expire.release();
  return pausing;
}

describe('pauseShop: a session Stripe would not expire', () => {
  it('counts a server error as not closed, even when the session completed meanwhile', async () => {
    const session = await createCheckoutSession(h.shop.stripe);
    const expire = holdExpire(session.id, { status: 500, times: 3 });
    const outcome = await pauseWhile(expire, () => h.shop.simulator.completeSession(session.id));
    expect(outcome.closed).toEqual([]);
    expect(outcome.completedMeanwhile).toEqual([]);
    expect(outcome.failed).toEqual([{ sessionId: session.id, message: expect.any(String) }]);
  });

  it('counts a session that completed meanwhile but cannot be read back as not closed, without failing the pause', async () => {
    const session = await createCheckoutSession(h.shop.stripe);
    const expire = holdExpire(session.id);
    h.shop.simulator.injectFault({
      pathPrefix: `/v1/checkout/sessions/${session.id}`,
      status: 500,
      times: 3,
    });
    const outcome = await pauseWhile(expire, () => h.shop.simulator.completeSession(session.id));
    expect(outcome.settings).toMatchObject({ mode: 'paused', message: 'Back on Monday' });
    expect(outcome.closed).toEqual([]);
    expect(outcome.completedMeanwhile).toEqual([]);
    expect(outcome.failed).toEqual([
      {
        sessionId: session.id,
        message:
          'Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of `complete`.',
      },
    ]);
  });
});
