import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clickAndDropCsv } from '../../../../lambdas/domain/fulfilment/dispatch-files';
import {
  correctOrderAddress,
  InvalidCorrectionError,
} from '../../../../lambdas/domain/operations/correct-address';
import { ordersToPack } from '../../../../lambdas/domain/operations/listing';
import { findOrder } from '../../../../lambdas/domain/operations/order-actions';
import { RefusedError } from '../../../../lambdas/domain/refusal';
import { type OperationsHarness, startOperationsHarness } from './operations-harness';

let h: OperationsHarness;
beforeAll(async () => {
  h = await startOperationsHarness();
});
afterEach(() => h.setNow(undefined));
afterAll(() => h?.close());

const MERCHANT = 'merchant@live-aquatics.test';
// Monday 23 November 2026's cut-off is Saturday 21 November, 12:00 in London (36 hours before).
const FRIDAY = new Date('2026-11-20T15:00:00Z');
const SATURDAY_AFTER_NOON = new Date('2026-11-21T12:00:00Z');

const NEW_DETAILS = { address: '  7 Heron Way \n\n Leeds ', postcode: 'ls1 4ap', phone: '07700 900456' };

async function seeded(tail: string, email: string) {
  return h.seedOrder({
    sessionId: `cs_test_correct_${tail}`,
    paidAt: '2026-11-20T09:00:00Z',
    dispatchDate: '2026-11-23',
    email,
  });
}

describe('correctOrderAddress', () => {
  it('before the cut-off: the order, its history, the CSV and one short email carry the new details', async () => {
    const seed = await seeded('BEFORECUT001', 'before.cut@example.com');
    h.setNow(FRIDAY);
    const order = await findOrder(h.deps, seed.reference);

    const result = await correctOrderAddress(order, NEW_DETAILS, { actor: MERCHANT }, h.deps);

    expect(result).toMatchObject({ changed: true, email: 'sent' });
    const stored = await findOrder(h.deps, seed.reference);
    expect(stored).toMatchObject({
      deliveryAddress: '7 Heron Way\nLeeds',
      postcode: 'LS1 4AP',
      customerPhone: '07700 900456',
    });
    expect(stored.history?.at(-1)).toEqual({
      at: '2026-11-20T15:00:00.000Z',
      actor: MERCHANT,
      action: 'address-corrected',
      detail:
        'address: 1 Reed Row, Bath BA1 1AA → 7 Heron Way, Leeds LS1 4AP; phone: 07700 900123 → 07700 900456',
    });
    const csv = clickAndDropCsv('2026-11-23', await ordersToPack('2026-11-23', h.deps));
    expect(csv).toContain('7 Heron Way');
    expect(csv).toContain('LS1 4AP');
    expect(csv).not.toContain('Reed Row');
    const emails = await h.emailsTo('before.cut@example.com');
    expect(emails.map((e) => e.subject)).toEqual([
      `Live Aquatics Ltd: delivery details updated for order ${seed.reference}`,
    ]);
    expect(emails[0]?.body.text).toContain('7 Heron Way');
  });

  it('the same details again change nothing and send nothing', async () => {
    const seed = await seeded('SAMEAGAIN001', 'same.again@example.com');
    h.setNow(FRIDAY);
    await correctOrderAddress(
      await findOrder(h.deps, seed.reference),
      NEW_DETAILS,
      { actor: MERCHANT },
      h.deps,
    );
    const again = await correctOrderAddress(
      await findOrder(h.deps, seed.reference),
      NEW_DETAILS,
      { actor: 'customer' },
      h.deps,
    );
    expect(again).toMatchObject({ changed: false, email: 'not-due' });
    expect(await h.emailsTo('same.again@example.com')).toHaveLength(1);
  });

  it('after the cut-off: refused, the order unchanged, no email', async () => {
    const seed = await seeded('AFTERCUT0001', 'after.cut@example.com');
    h.setNow(SATURDAY_AFTER_NOON);
    const order = await findOrder(h.deps, seed.reference);
    await expect(correctOrderAddress(order, NEW_DETAILS, { actor: 'customer' }, h.deps)).rejects.toThrow(
      /being packed for Monday 23 November.*contact the seller/,
    );
    const stored = await findOrder(h.deps, seed.reference);
    expect(stored.deliveryAddress).toBe('1 Reed Row\nBath');
    expect(stored.history?.map((e) => e.action)).toEqual(['paid']);
    expect(await h.emailsTo('after.cut@example.com')).toEqual([]);
  });

  it("refuses what the checkout refuses, with the checkout's words", async () => {
    const seed = await seeded('INVALIDPC001', 'invalid.pc@example.com');
    h.setNow(FRIDAY);
    const order = await findOrder(h.deps, seed.reference);
    const jersey = correctOrderAddress(
      order,
      { ...NEW_DETAILS, postcode: 'JE2 3AB' },
      { actor: 'c' },
      h.deps,
    );
    await expect(jersey).rejects.toBeInstanceOf(InvalidCorrectionError);
    await expect(jersey).rejects.toThrow(/only deliver to Great Britain and Northern Ireland/);
    await expect(
      correctOrderAddress(order, { ...NEW_DETAILS, address: '7 Heron\u200b Way' }, { actor: 'c' }, h.deps),
    ).rejects.toThrow('Please remove special or invisible characters.');
    expect((await findOrder(h.deps, seed.reference)).postcode).toBe('BA1 1AA');
  });

  it('refuses a dispatched order', async () => {
    const seed = await h.seedOrder({
      sessionId: 'cs_test_correct_DISPATCHED01',
      paidAt: '2026-11-20T09:00:00Z',
      dispatchDate: '2026-11-23',
      status: 'dispatched',
    });
    h.setNow(FRIDAY);
    await expect(
      correctOrderAddress(await findOrder(h.deps, seed.reference), NEW_DETAILS, { actor: 'c' }, h.deps),
    ).rejects.toBeInstanceOf(RefusedError);
  });

  it('a correction made meanwhile is not overwritten silently', async () => {
    const seed = await seeded('RACECORR0001', 'race.corr@example.com');
    h.setNow(FRIDAY);
    const stale = await findOrder(h.deps, seed.reference);
    await correctOrderAddress(stale, NEW_DETAILS, { actor: MERCHANT }, h.deps);
    await expect(
      correctOrderAddress(stale, { ...NEW_DETAILS, address: '9 Other Road\nYork' }, { actor: 'c' }, h.deps),
    ).rejects.toThrow(/changed meanwhile/);
    expect((await findOrder(h.deps, seed.reference)).deliveryAddress).toBe('7 Heron Way\nLeeds');
  });
});
