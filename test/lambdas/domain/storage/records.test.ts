import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findByReference, toShopRecord } from '../../../../lambdas/domain/storage/records';
import { type OperationsHarness, startOperationsHarness } from '../operations/operations-harness';

describe('toShopRecord', () => {
  it('names the item and the fields that do not parse, and refuses an item that is neither kind', () => {
    expect(() => toShopRecord({ pk: 'ORDER#cs_test_broken', status: 'paid' })).toThrow(
      /^ORDER#cs_test_broken is not a valid order item: \w/,
    );
    expect(() => toShopRecord({ pk: 'REQUEST#BROKEN000000', status: 'requested' })).toThrow(
      /^REQUEST#BROKEN000000 is not a valid request item: \w/,
    );
    expect(() => toShopRecord({ pk: 'SETTINGS#shop' })).toThrow(
      'SETTINGS#shop is neither an order nor a request',
    );
  });
});

// Two orders whose references read alike once folded (O for 0): as written, as typed in another case,
// and as a person reads it (I for 1), which names both.
describe('findByReference, over the orders table', () => {
  let h: OperationsHarness;
  beforeAll(async () => {
    h = await startOperationsHarness();
    for (const sessionId of ['cs_test_alike_MZ7QO1KD41LP', 'cs_test_alike_MZ7Q01KD41LP'])
      await h.seedOrder({ sessionId, paidAt: '2026-12-01T09:00:00Z', dispatchDate: '2026-12-07' });
  });
  afterAll(() => h?.close());

  const referenceFound = async (input: string) => {
    const record = await findByReference(h.deps.table, input);
    return record.kind === 'order' ? record.order.reference : record.request.reference;
  };

  it('takes the exact spelling first, then the one equal but for case', async () => {
    expect(await referenceFound('MZ7Q01KD41LP')).toBe('MZ7Q01KD41LP');
    expect(await referenceFound('mz7qo1kd41lp')).toBe('MZ7QO1KD41LP');
  });

  it('refuses a reading both match, a malformed reference and an unknown session, each in words', async () => {
    await expect(findByReference(h.deps.table, 'MZ7QOIKD41LP')).rejects.toThrow(
      'Reference MZ7QOIKD41LP matches 2 items; use the full Checkout Session id.',
    );
    await expect(findByReference(h.deps.table, 'no such!')).rejects.toThrow(
      '"no such!" is not an order reference (letters and digits, as in the emails).',
    );
    await expect(findByReference(h.deps.table, 'cs_test_unknownAAAAAAAAAAAA')).rejects.toThrow(
      'No order for Checkout Session cs_test_unknownAAAAAAAAAAAA.',
    );
    await expect(findByReference(h.deps.table, 'QQQQQQQQQQQQ')).rejects.toThrow(
      'No order or request with reference QQQQQQQQQQQQ.',
    );
  });
});
