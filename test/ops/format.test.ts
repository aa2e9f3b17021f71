import { describe, expect, it } from 'vitest';
import { orderView } from '../../lambdas/domain/operations/admin-views';
import { formatTable, toListRow } from '../../ops/format';
import type { AdminRecordView } from '../../shared/admin-responses';
import { orderFixture } from '../support/order-fixtures';

describe('orders list: the emails column', () => {
  it('marks a confirmation SES refused for good as (refused), apart from one merely not sent yet (!)', () => {
    // Prepare
    const refused = {
      ...orderFixture(),
      confirmationEmailState: 'failed' as const,
      merchantNoticeEmailState: 'sent' as const,
    };
    const pending = { ...orderFixture(), merchantNoticeEmailState: 'sent' as const };

    // Act
    const rows = [toListRow(orderView(refused)), toListRow(orderView(pending))];

    // Assess
    expect(rows.map((row) => row.emails)).toEqual(['confirmation(refused) notice', 'confirmation! notice']);
  });
});

describe('orders list: the PAID column', () => {
  it("says when each order was paid as London's clock read it, with the year only for another year", () => {
    // Prepare: paid in GMT, in BST just after midnight, and in another year.
    const rows = [
      { ...orderFixture(), paidAt: '2026-11-25T13:15:24.760Z' },
      { ...orderFixture(), paidAt: '2026-06-30T23:30:00.000Z' },
      { ...orderFixture(), paidAt: '2025-12-31T23:59:00.000Z' },
    ].map((order) => toListRow(orderView(order)));

    // Act
    const table = formatTable(rows, new Date('2026-11-26T10:00:00Z'));

    // Assess
    const paid = table
      .split('\n')
      .slice(1)
      .map((line) => /^\S+ {2}(.+?) {2}/.exec(line)?.[1]);
    expect(paid).toEqual(['Wed 25 Nov, 13:15', 'Wed 1 Jul, 00:30', 'Wed 31 Dec 2025, 23:59']);
  });
});

describe('orders list: an order paid while the shop was paused', () => {
  it('carries placedWhilePaused in the row (list --json) and "(while paused)" after its status in the table', () => {
    // Prepare
    const flagged = {
      ...orderFixture(),
      placedWhilePaused: true as const,
      pausedMode: 'paused' as const,
      pausedSince: '2026-11-21T08:00:00.000Z',
    };

    // Act
    const rows = [toListRow(orderView(flagged)), toListRow(orderView(orderFixture()))];
    const table = formatTable(rows, new Date('2026-11-26T10:00:00Z'));

    // Assess
    expect(rows[0]).toMatchObject({ status: 'paid', placedWhilePaused: true });
    expect(rows[1]).not.toHaveProperty('placedWhilePaused');
    const statuses = table
      .split('\n')
      .map((line) => /\s(paid(?: \(while paused\))?|STATUS)\s/.exec(line)?.[1]);
    expect(statuses).toEqual(['STATUS', 'paid (while paused)', 'paid']);
  });
});

describe('orders list: how long a request holds its bottles', () => {
  const request = (status: 'requested' | 'invited', holdsUntil?: string): AdminRecordView => ({
    kind: 'request',
    reference: 'R0A1B2C3D4E5',
    dispatchDate: '2026-12-08',
    bottles: 3,
    unitPricePence: 325,
    subtotalPence: 975,
    shippingPence: 495,
    totalPence: 1470,
    customerName: 'Rhea Request',
    customerEmail: 'rhea@example.com',
    customerPhone: '07700 900456',
    deliveryAddress: '3 Reed Row\nBath',
    postcode: 'BA1 1AA',
    createdAt: '2026-12-01T09:30:00.000Z',
    emails: [],
    history: [],
    status,
    ...(holdsUntil !== undefined && { holdsUntil }),
  });

  it('says "holds until" with London\'s clock while it holds, "hold lapsed" after, and nothing for an invited request', () => {
    // Prepare: one holding until 3 December (GMT), one until 3 June (BST), one lapsed, one invited.
    const rows = [
      request('requested', '2026-12-03T09:30:00.000Z'),
      request('requested', '2027-06-03T09:30:00.000Z'),
      request('requested', '2026-11-30T09:30:00.000Z'),
      request('invited'),
    ].map(toListRow);

    // Act
    const table = formatTable(rows, new Date('2026-12-01T15:00:00Z'));

    // Assess
    const statuses = table
      .split('\n')
      .slice(1)
      .map((line) => line.split(/ {2,}/)[7]);
    expect(statuses).toEqual([
      'request:requested holds until Thu 3 Dec, 09:30',
      'request:requested holds until Thu 3 Jun 2027, 10:30',
      'request:requested hold lapsed Mon 30 Nov, 09:30',
      'request:invited',
    ]);
    expect(rows.map((row) => row.holdsUntil)).toEqual([
      '2026-12-03T09:30:00.000Z',
      '2027-06-03T09:30:00.000Z',
      '2026-11-30T09:30:00.000Z',
      undefined,
    ]);
  });
});
