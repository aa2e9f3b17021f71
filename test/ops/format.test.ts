import { describe, expect, it } from 'vitest';
import { orderView } from '../../lambdas/domain/operations/admin-views';
import { formatTable, toListRow } from '../../ops/format';
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
