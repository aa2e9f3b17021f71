import { describe, expect, it } from 'vitest';
import { renderPartRefundEmail, renderRefundEmail } from '../../../../lambdas/domain/emails/order-updates';
import { orderFixture, SELLER } from '../../../support/order-fixtures';

const BANKS =
  'The refund goes back to the card or account you paid with and usually arrives within 5 to 10 working days, depending on your bank.';

describe('refund emails', () => {
  it('the full refund says what was refunded, then where the money goes and how long banks take', () => {
    const email = renderRefundEmail({ ...orderFixture(), refundReason: 'other' }, SELLER);
    expect(email.text).toContain(`We have refunded £14.70 in full for your order J0kLmNoPqRsT. ${BANKS}`);
  });

  it('the refund of the rest after a part refund says the same of the money', () => {
    const order = { ...orderFixture(), refundReason: 'other' as const, partlyRefundedPence: 650 };
    expect(renderRefundEmail(order, SELLER).text).toContain(
      `so all of the £14.70 you paid has now been refunded. ${BANKS}`,
    );
  });

  it('the part refund says the same of the money', () => {
    const part = {
      refundId: 're_1',
      pence: 650,
      bottles: 2,
      delivery: false,
      reason: 'other' as const,
      at: '2026-11-24T10:00:00.000Z',
    };
    expect(renderPartRefundEmail(orderFixture(), part, SELLER).text).toContain(
      `We have refunded £6.50 for 2 bottles of your order J0kLmNoPqRsT. ${BANKS}`,
    );
  });
});
