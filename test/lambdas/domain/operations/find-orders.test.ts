import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findRecords, listOrFindRecords } from '../../../../lambdas/domain/operations/find-orders';
import { recordOrderRequest } from '../../../../lambdas/domain/operations/request-actions';
import { RefusedError } from '../../../../lambdas/domain/refusal';
import type { ShopRecord } from '../../../../lambdas/domain/storage/records';
import { type OperationsHarness, startOperationsHarness } from './operations-harness';

let h: OperationsHarness;
beforeAll(async () => {
  h = await startOperationsHarness();
});
afterEach(() => h.setNow(undefined));
afterAll(() => h?.close());

const references = (records: ShopRecord[]) =>
  records.map((r) => (r.kind === 'order' ? r.order.reference : r.request.reference));

describe('findRecords', () => {
  it('looks back as many weeks of dispatch days as asked, 8 by default', async () => {
    await h.seedOrder({
      sessionId: 'cs_test_find_weeks_WEEKSBACK001',
      paidAt: '2027-05-01T09:00:00Z',
      dispatchDate: '2027-05-03',
      name: 'Walter Weeksback',
    });
    h.setNow(new Date('2027-05-26T10:00:00Z'));
    expect(references(await findRecords('weeksback', h.deps, { weeksBack: 1 }))).toEqual([]);
    expect(references(await findRecords('weeksback', h.deps, { weeksBack: 4 }))).toEqual(['WEEKSBACK001']);
    expect(references(await findRecords('weeksback', h.deps))).toEqual(['WEEKSBACK001']);
  });

  it('gives the order found by reference and the one found by name newest payment first', async () => {
    await h.seedOrder({
      sessionId: 'cs_test_find_sort_OLDREF000001',
      paidAt: '2027-08-02T09:00:00Z',
      dispatchDate: '2027-08-09',
      name: 'Olive Older',
    });
    // A newer order whose customer's name happens to hold the older one's reference.
    await h.seedOrder({
      sessionId: 'cs_test_find_sort_NEWREF000002',
      paidAt: '2027-08-03T09:00:00Z',
      dispatchDate: '2027-08-09',
      name: 'Nell oldref000001 Newer',
    });
    h.setNow(new Date('2027-08-04T10:00:00Z'));
    expect(references(await findRecords('OLDREF000001', h.deps))).toEqual(['NEWREF000002', 'OLDREF000001']);
    // And the other way round: the one found by reference is the newer.
    await h.seedOrder({
      sessionId: 'cs_test_find_sort_OLDEST000003',
      paidAt: '2027-08-01T09:00:00Z',
      dispatchDate: '2027-08-09',
      name: 'Otto newref000002 Oldest',
    });
    expect(references(await findRecords('NEWREF000002', h.deps))).toEqual(['NEWREF000002', 'OLDEST000003']);
  });

  it('refuses empty or blank text', async () => {
    const refusal = new RefusedError('Say what to find: a reference, an email, a name or a postcode.');
    await expect(findRecords('', h.deps)).rejects.toThrow(refusal);
    await expect(findRecords('  \t ', h.deps)).rejects.toThrow(refusal);
  });

  it('finds a request by its whole email in any case, part of its name, its postcode without the space; not by part of the email', async () => {
    const at = new Date('2027-10-04T10:00:00Z');
    h.setNow(at);
    const { reference } = await recordOrderRequest(
      {
        name: 'Quentin Querysearch',
        email: 'quentin.q@example.com',
        phone: '',
        address: '7 Search Lane\nYork',
        postcode: 'YO1 7HH',
        quantity: 3,
        subtotal: 9.75,
        shipping: 4.95,
        total: 14.7,
      },
      { idempotencyKey: undefined, cutoffHours: 36, client: '192.0.2.31' },
      h.deps,
    );
    for (const text of ['Quentin.Q@EXAMPLE.com', ' querysearch ', 'yo17hh', 'Yo1 7h'])
      expect(references(await findRecords(text, h.deps))).toEqual([reference]);
    expect(references(await findRecords('quentin.q@example', h.deps))).toEqual([]);
  });

  it('lists a record found both by its reference and by its customer once', async () => {
    await h.seedOrder({
      sessionId: 'cs_test_find_once_SELFNAMED001',
      paidAt: '2027-11-01T09:00:00Z',
      dispatchDate: '2027-11-08',
      name: 'Sid selfnamed001',
    });
    h.setNow(new Date('2027-11-02T10:00:00Z'));
    expect(references(await findRecords('SELFNAMED001', h.deps))).toEqual(['SELFNAMED001']);
  });
});

describe('listOrFindRecords', () => {
  it("keeps a search's matches only of the status and dispatch day asked", async () => {
    const seed = (ref: string, dispatchDate: '2027-09-06' | '2027-09-07', status: 'paid' | 'refunded') =>
      h.seedOrder({
        sessionId: `cs_test_list_or_find_${ref}`,
        paidAt: '2027-09-01T09:00:00Z',
        dispatchDate,
        status,
        name: 'Nora Narrowed',
      });
    await seed('NARROWPAID01', '2027-09-06', 'paid');
    await seed('NARROWREFUN1', '2027-09-06', 'refunded');
    await seed('NARROWTUES01', '2027-09-07', 'paid');
    h.setNow(new Date('2027-09-02T10:00:00Z'));
    const found = (query: Parameters<typeof listOrFindRecords>[0]) =>
      listOrFindRecords({ text: 'narrowed', ...query }, h.deps).then((records) => references(records).sort());

    expect(await found({})).toEqual(['NARROWPAID01', 'NARROWREFUN1', 'NARROWTUES01']);
    expect(await found({ status: 'paid' })).toEqual(['NARROWPAID01', 'NARROWTUES01']);
    expect(await found({ status: 'paid', dispatchDate: '2027-09-06' })).toEqual(['NARROWPAID01']);
  });

  it('lists the dispatch day asked without a search', async () => {
    await h.seedOrder({
      sessionId: 'cs_test_list_or_find_LISTEDDAY001',
      paidAt: '2027-10-01T09:00:00Z',
      dispatchDate: '2027-10-04',
    });
    h.setNow(new Date('2027-10-02T10:00:00Z'));
    const records = await listOrFindRecords({ dispatchDate: '2027-10-04' }, h.deps);
    expect(references(records)).toEqual(['LISTEDDAY001']);
  });
});
