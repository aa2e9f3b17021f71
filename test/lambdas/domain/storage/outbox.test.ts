import { describe, expect, it } from 'vitest';
import type { ManagedOrder, OutboxEntry } from '../../../../lambdas/domain/storage/managed-order';
import {
  emailOf,
  entriesInOrder,
  entryKey,
  legacyEmails,
  outboxUpdate,
  supersede,
} from '../../../../lambdas/domain/storage/outbox';

const common = {
  sessionId: 'cs_test_1',
  reference: 'ABCDEF123456',
  customerName: 'Pat Pond',
  customerEmail: 'pat@example.com',
  pageKey: 'k1',
};
const at = '2026-12-06T18:00:00.000Z';
const dispatch = (state: OutboxEntry['state'], version = 1, trackingNumber?: string): OutboxEntry => ({
  kind: 'dispatch',
  version,
  seq: 0,
  at,
  state,
  facts: {
    ...common,
    bottles: 3,
    dispatchDate: '2026-12-07',
    deliveryAddress: '1 Reed Row',
    postcode: 'BA1 1AA',
    ...(trackingNumber && { trackingNumber }),
  },
});
const entry = (kind: OutboxEntry['kind'], state: OutboxEntry['state'], version: number): OutboxEntry =>
  ({
    kind,
    version,
    seq: 0,
    at,
    state,
    facts: { ...common, trackingNumber: 'AB100000003GB' },
  }) as OutboxEntry;

describe('supersede (pure)', () => {
  it('a tracking number while the dispatch email is pending becomes one dispatch email carrying it', () => {
    const result = supersede({ e1: dispatch('pending', 1, 'AB100000003GB') }, [
      { kind: 'trackingUpdate', facts: { ...common, trackingNumber: 'AB200000003GB' } },
    ]);
    expect(result.supersede).toEqual(['e1']);
    expect(result.add).toEqual([
      { kind: 'dispatch', facts: { ...dispatch('pending').facts, trackingNumber: 'AB200000003GB' } },
    ]);
  });

  it('a tracking number after the dispatch email is being sent follows it as an update', () => {
    for (const state of ['sending', 'sent'] as const) {
      const result = supersede({ e1: dispatch(state) }, [
        { kind: 'trackingUpdate', facts: { ...common, trackingNumber: 'AB200000003GB' } },
      ]);
      expect(result).toEqual({
        supersede: [],
        add: [{ kind: 'trackingUpdate', facts: { ...common, trackingNumber: 'AB200000003GB' } }],
      });
    }
  });

  it('the same kind replaces a pending one; a sending one is never touched', () => {
    const outbox = {
      e1: entry('trackingUpdate', 'sending', 1),
      e2: entry('trackingUpdate', 'pending', 2),
      e3: entry('partRefund', 'pending', 3),
    };
    expect(
      supersede(outbox, [{ kind: 'trackingUpdate', facts: { ...common, trackingNumber: 'AB3' } }]).supersede,
    ).toEqual(['e2']);
  });

  it('a refund replaces every pending note about the parcel but a page link', () => {
    const outbox = {
      e1: entry('dispatch', 'pending', 1),
      e2: entry('delay', 'pending', 2),
      e3: entry('trackingUpdate', 'pending', 3),
      e4: entry('addressCorrected', 'pending', 4),
      e5: entry('partRefund', 'pending', 5),
      e6: entry('pageLink', 'pending', 6),
      e7: entry('refund', 'sent', 7),
    };
    const refund = emailOf('refund', { ...order(), status: 'refunded' });
    expect(supersede(outbox, [refund]).supersede).toEqual(['e1', 'e2', 'e3', 'e4', 'e5']);
  });

  it('a tracking number joins the pending dispatch email even behind a pending entry of another kind', () => {
    const outbox = { e1: entry('partRefund', 'pending', 1), e2: dispatch('pending', 2, 'AB100000003GB') };
    const result = supersede(outbox, [
      { kind: 'trackingUpdate', facts: { ...common, trackingNumber: 'AB200000003GB' } },
    ]);
    expect(result.supersede).toEqual(['e2']);
    expect(result.add).toEqual([
      { kind: 'dispatch', facts: { ...dispatch('pending').facts, trackingNumber: 'AB200000003GB' } },
    ]);
  });

  it('a dispatch replaces a pending delay and address note, not a part refund', () => {
    const outbox = {
      e1: entry('delay', 'pending', 1),
      e2: entry('addressCorrected', 'pending', 2),
      e3: entry('partRefund', 'pending', 3),
    };
    expect(supersede(outbox, [emailOf('dispatch', order())]).supersede).toEqual(['e1', 'e2']);
  });

  it('a new page link re-issues every pending entry after it with the new key, oldest first', () => {
    const outbox = {
      e2: entry('partRefund', 'pending', 2),
      e1: entry('dispatch', 'pending', 1),
      e3: entry('pageLink', 'pending', 3),
      e0: entry('addressCorrected', 'sending', 0),
    };
    const result = supersede(outbox, [{ kind: 'pageLink', facts: { ...common, pageKey: 'k2' } }]);
    expect(result.supersede.sort()).toEqual(['e1', 'e2', 'e3']);
    expect(result.add.map((email) => [email.kind, email.facts.pageKey])).toEqual([
      ['pageLink', 'k2'],
      ['dispatch', 'k2'],
      ['partRefund', 'k2'],
    ]);
  });
});

function order(overrides: Partial<ManagedOrder> = {}): ManagedOrder {
  return {
    pk: 'ORDER#cs_test_1',
    sessionId: 'cs_test_1',
    reference: 'ABCDEF123456',
    customerName: 'Pat Pond',
    customerEmail: 'pat@example.com',
    customerPhone: '07700 900123',
    deliveryAddress: '1 Reed Row',
    postcode: 'BA1 1AA',
    bottles: 3,
    totalPence: 1470,
    dispatchDate: '2026-12-07',
    pageKey: 'k1',
    status: 'paid',
    ...overrides,
  } as ManagedOrder;
}

describe('entries and their keys', () => {
  it('keys the first entry of a write e<version>, the rest e<version>_<n>, and sorts by version then place', () => {
    expect([entryKey(3, 0), entryKey(3, 2)]).toEqual(['e3', 'e3_2']);
    const outbox = {
      e10: { ...entry('delay', 'sent', 10) },
      e2_1: { ...entry('dispatch', 'pending', 2), seq: 1 },
      e2: { ...entry('pageLink', 'pending', 2), seq: 0 },
    };
    expect(entriesInOrder({ outbox }).map(([key]) => key)).toEqual(['e2', 'e2_1', 'e10']);
    expect(entriesInOrder({})).toEqual([]);
    // An entry written without `seq` is its write's first.
    const { seq: _seq, ...first } = entry('delay', 'pending', 3);
    const unplaced = { e3_1: { ...entry('dispatch', 'pending', 3), seq: 1 }, e3: first };
    expect(entriesInOrder({ outbox: unplaced }).map(([key]) => key)).toEqual(['e3', 'e3_1']);
  });
});

describe('emailOf: the facts each kind shows, from the order as written', () => {
  it('takes the tracking number, address and day for the dispatch email, leaving out what is absent', () => {
    expect(emailOf('dispatch', order({ trackingNumber: 'AB1', dispatchedAt: at }))).toEqual({
      kind: 'dispatch',
      facts: {
        ...common,
        bottles: 3,
        dispatchDate: '2026-12-07',
        dispatchedAt: at,
        deliveryAddress: '1 Reed Row',
        postcode: 'BA1 1AA',
        trackingNumber: 'AB1',
      },
    });
    expect(emailOf('pageLink', order({ pageKey: undefined })).facts).not.toHaveProperty('pageKey');
  });

  it('takes each other kind its own facts', () => {
    expect(emailOf('trackingUpdate', order({ trackingNumber: 'AB9' })).facts).toEqual({
      ...common,
      trackingNumber: 'AB9',
    });
    expect(emailOf('trackingUpdate', order()).facts).toEqual({ ...common, trackingNumber: '' });
    expect(
      emailOf(
        'delay',
        order({
          delayedFrom: '2026-12-07',
          delayReason: 'weather',
          delayedAt: at,
          dispatchDate: '2026-12-14',
        }),
      ).facts,
    ).toEqual({
      ...common,
      bottles: 3,
      dispatchDate: '2026-12-14',
      delayedFrom: '2026-12-07',
      delayReason: 'weather',
      delayedAt: at,
    });
    expect(emailOf('delay', order()).facts).toMatchObject({
      delayedFrom: '2026-12-07',
      delayReason: 'other',
    });
    expect(emailOf('addressCorrected', order()).facts).toEqual({
      ...common,
      deliveryAddress: '1 Reed Row',
      postcode: 'BA1 1AA',
      customerPhone: '07700 900123',
      dispatchDate: '2026-12-07',
    });
    const part = { refundId: 're_1', pence: 325, bottles: 1, delivery: false, reason: 'supply' as const, at };
    expect(emailOf('partRefund', order({ partRefunds: [part], partlyRefundedPence: 650 })).facts).toEqual({
      ...common,
      part,
      partlyRefundedPence: 650,
      totalPence: 1470,
    });
    expect(emailOf('partRefund', order({ partRefunds: [part] })).facts).toMatchObject({
      partlyRefundedPence: 325,
    });
    expect(() => emailOf('partRefund', order())).toThrow('ABCDEF123456 has no part refund to tell');
    expect(emailOf('refund', order({ refundReason: 'doa', partlyRefundedPence: 325 })).facts).toEqual({
      ...common,
      bottles: 3,
      totalPence: 1470,
      refundReason: 'doa',
      partlyRefundedPence: 325,
    });
  });
});

describe('outboxUpdate: one UpdateItem for the change, its entries and its marks', () => {
  const now = new Date(at);

  it('writes a first outbox whole, conditional on no version yet, with the due marker and the flat state', () => {
    const { update, entries } = outboxUpdate(
      order(),
      { set: ['a = :a'], values: { ':a': 1 }, condition: '#s = :s', emails: [emailOf('dispatch', order())] },
      now,
    );
    expect(entries).toEqual(['e1']);
    expect(update.ConditionExpression).toBe('attribute_not_exists(#outboxVersion) AND (#s = :s)');
    expect(update.UpdateExpression).toBe(
      'SET a = :a, #outboxVersion = :outboxVersion, #outbox = :outboxEntries, #flat_dispatch = :flat_dispatch, #outboxDueAt = if_not_exists(#outboxDueAt, :outboxDueAt) REMOVE #flat_dispatch_sentAt',
    );
    expect(update.ExpressionAttributeValues).toMatchObject({
      ':a': 1,
      ':outboxVersion': 1,
      ':flat_dispatch': 'pending',
      ':outboxDueAt': at,
      ':outboxEntries': { e1: { kind: 'dispatch', version: 1, seq: 0, at, state: 'pending' } },
    });
    expect(update.ExpressionAttributeNames).toMatchObject({
      '#outbox': 'outbox',
      '#outboxVersion': 'version',
      '#flat_dispatch': 'dispatchEmailState',
      '#flat_dispatch_sentAt': 'dispatchEmailSentAt',
      '#outboxDueAt': 'outboxDueAt',
    });
  });

  it('adds to an outbox entry by entry, marks what it supersedes on condition it is still pending', () => {
    const read = order({
      version: 4,
      outbox: { e4: dispatch('pending', 4, 'AB1'), e3: entry('delay', 'sent', 3) },
    });
    const { update, entries } = outboxUpdate(
      read,
      { emails: [{ kind: 'trackingUpdate', facts: { ...common, trackingNumber: 'AB2' } }] },
      now,
    );
    expect(entries).toEqual(['e5']);
    expect(update.ConditionExpression).toBe(
      '#outboxVersion = :outboxRead AND #outbox.#outboxOld0.#outboxState = :outboxPending',
    );
    expect(update.UpdateExpression).toBe(
      'SET #outboxVersion = :outboxVersion, #outbox.#outboxNew0 = :outboxNew0, #outbox.#outboxOld0.#outboxState = :outboxSuperseded, #flat_dispatch = :flat_dispatch, #outboxDueAt = if_not_exists(#outboxDueAt, :outboxDueAt) REMOVE #flat_dispatch_sentAt',
    );
    expect(update.ExpressionAttributeNames).toMatchObject({
      '#outboxNew0': 'e5',
      '#outboxOld0': 'e4',
      '#outboxState': 'state',
    });
    expect(update.ExpressionAttributeValues).toMatchObject({
      ':outboxRead': 4,
      ':outboxVersion': 5,
      ':outboxPending': 'pending',
      ':outboxSuperseded': 'superseded',
      ':outboxNew0': { kind: 'dispatch', version: 5, state: 'pending', facts: { trackingNumber: 'AB2' } },
    });
  });

  it('says superseded on the flat state of a kind whose newest entry it supersedes without a new one', () => {
    const read = order({ version: 2, outbox: { e2: entry('delay', 'pending', 2) } });
    const { update } = outboxUpdate(read, { emails: [emailOf('dispatch', order())] }, now);
    expect(update.ExpressionAttributeValues).toMatchObject({
      ':flat_delay': 'superseded',
      ':flat_dispatch': 'pending',
    });
    expect(update.UpdateExpression).not.toContain('#flat_delay_sentAt');
  });

  it('a change with no email writes only itself and the version, with nothing else to remove', () => {
    const { update, entries } = outboxUpdate(order({ version: 1 }), { remove: ['x'], emails: [] }, now);
    expect(entries).toEqual([]);
    expect(update.UpdateExpression).toBe('SET #outboxVersion = :outboxVersion REMOVE x');
    expect(update.ExpressionAttributeNames).toEqual({ '#outboxVersion': 'version' });
    expect(outboxUpdate(order({ version: 1 }), { emails: [] }, now).update.UpdateExpression).toBe(
      'SET #outboxVersion = :outboxVersion',
    );
  });
});

describe('legacyEmails: flat pending flags of an order written before the outbox', () => {
  it('owes each kind whose flag is pending while the order is in the state its email describes', () => {
    const kindsOf = (overrides: Partial<ManagedOrder>) =>
      legacyEmails(order(overrides)).map((email) => email.kind);
    expect(kindsOf({ delayEmailState: 'pending', addressCorrectedEmailState: 'pending' })).toEqual([
      'delay',
      'addressCorrected',
    ]);
    expect(
      kindsOf({ status: 'dispatched', dispatchEmailState: 'pending', trackingUpdateEmailState: 'pending' }),
    ).toEqual(['dispatch', 'trackingUpdate']);
    expect(kindsOf({ status: 'refunded', refundEmailState: 'pending' })).toEqual(['refund']);
    expect(
      legacyEmails(
        order({ status: 'dispatched', trackingNumber: 'AB100000003GB', dispatchEmailState: 'pending' }),
      ),
    ).toEqual([emailOf('dispatch', order({ status: 'dispatched', trackingNumber: 'AB100000003GB' }))]);
  });

  it('owes nothing once the order moved on, for a flag not pending, or a kind with an outbox entry', () => {
    const kindsOf = (overrides: Partial<ManagedOrder>) =>
      legacyEmails(order(overrides)).map((email) => email.kind);
    expect(
      kindsOf({ status: 'dispatched', delayEmailState: 'pending', addressCorrectedEmailState: 'pending' }),
    ).toEqual([]);
    expect(
      kindsOf({ status: 'refunded', dispatchEmailState: 'pending', trackingUpdateEmailState: 'pending' }),
    ).toEqual([]);
    expect(kindsOf({ refundEmailState: 'pending' })).toEqual([]);
    expect(kindsOf({ delayEmailState: 'sending', addressCorrectedEmailState: 'sent' })).toEqual([]);
    expect(kindsOf({ partRefundEmailState: 'pending', pageLinkEmailState: 'pending' })).toEqual([]);
    expect(kindsOf({ delayEmailState: 'pending', outbox: { e1: entry('delay', 'sent', 1) } })).toEqual([]);
    expect(
      kindsOf({
        delayEmailState: 'pending',
        addressCorrectedEmailState: 'pending',
        outbox: { e1: entry('delay', 'sent', 1) },
      }),
    ).toEqual(['addressCorrected']);
  });
});
