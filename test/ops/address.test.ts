import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpsHarness, startOpsHarness } from './harness';

let h: OpsHarness;
beforeAll(async () => {
  h = await startOpsHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('orders address', () => {
  it('corrects the address before the cut-off, keeps the phone, and says so', async () => {
    // Paid Tuesday 17 November 2026: dispatched Monday 23rd, cut-off Saturday 21st at noon.
    const order = await h.orderPaidAt(new Date('2026-11-17T10:00:00Z'), 31);
    h.setNow(new Date('2026-11-20T10:00:00Z'));
    const run = await h.orders([
      'address',
      order.reference,
      '--address',
      '8 Kingfisher Close',
      '--address',
      'Bristol',
      '--postcode',
      'bs1 5tr',
      '--local',
    ]);
    expect(run.code).toBe(0);
    expect(run.out).toContain(`${order.reference}: delivery details corrected for Monday 23 November:`);
    expect(run.out).toContain('8 Kingfisher Close, Bristol BS1 5TR  phone 07700 900123');
    expect(run.out).toContain('Confirmation email sent to customer31@example.com.');
    const list = await h.orders(['list', '--dispatch', '2026-11-23', '--local']);
    expect(list.out).toContain('BS1 5TR');
  });

  it('is refused after the cut-off, with a non-zero exit', async () => {
    const order = await h.orderPaidAt(new Date('2026-11-17T11:00:00Z'), 32);
    h.setNow(new Date('2026-11-21T13:00:00Z'));
    const run = await h.orders(['address', order.reference, '--postcode', 'BS1 5TR', '--local']);
    expect(run.code).not.toBe(0);
    expect(run.err).toMatch(/being packed for Monday 23 November.*contact the seller/);
    expect(await h.emailsTo('customer32@example.com')).toEqual([]);
  });
});
