import { describe, expect, it } from 'vitest';
import { toListRow } from '../../ops/format';
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
    const rows = [toListRow({ kind: 'order', order: refused }), toListRow({ kind: 'order', order: pending })];

    // Assess
    expect(rows.map((row) => row.emails)).toEqual(['confirmation(refused) notice', 'confirmation! notice']);
  });
});
