import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pauseShop } from '../../../../lambdas/domain/operations/pause-shop';
import { createCheckoutSession } from '../../../support/checkout-sessions';
import { type OperationsHarness, startOperationsHarness } from './operations-harness';

let h: OperationsHarness;
beforeAll(async () => {
  h = await startOperationsHarness();
});
afterEach(() => h.shop.simulator.clearFaults());
afterAll(() => h?.close());

/** Pauses while `meanwhile` runs, as Stripe holds up the session's expire (600 ms). */
async function pauseWhile(meanwhile: () => Promise<unknown>) {
  const pausing = pauseShop({ mode: 'paused', message: 'Back on Monday' }, h.deps);
  await new Promise((resolve) => setTimeout(resolve, 150));
  await meanwhile();
  return pausing;
}

describe('pauseShop: a session Stripe would not expire', () => {
  it('counts a server error as not closed, even when the session completed meanwhile', async () => {
    const session = await createCheckoutSession(h.shop.stripe);
    h.shop.simulator.injectFault({
      pathPrefix: `/v1/checkout/sessions/${session.id}/expire`,
      delayMs: 600,
      status: 500,
      times: 3,
    });
    const outcome = await pauseWhile(() => h.shop.simulator.completeSession(session.id));
    expect(outcome.closed).toEqual([]);
    expect(outcome.completedMeanwhile).toEqual([]);
    expect(outcome.failed).toEqual([{ sessionId: session.id, message: expect.any(String) }]);
  });

  it('counts a session that completed meanwhile but cannot be read back as not closed, without failing the pause', async () => {
    const session = await createCheckoutSession(h.shop.stripe);
    h.shop.simulator.injectFault({ pathPrefix: `/v1/checkout/sessions/${session.id}/expire`, delayMs: 600 });
    h.shop.simulator.injectFault({
      pathPrefix: `/v1/checkout/sessions/${session.id}`,
      status: 500,
      times: 3,
    });
    const outcome = await pauseWhile(() => h.shop.simulator.completeSession(session.id));
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
