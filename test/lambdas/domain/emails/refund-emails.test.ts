import { describe, expect, it } from 'vitest';
import { renderPartRefundEmail, renderRefundEmail } from '../../../../lambdas/domain/emails/order-updates';
import { managedOrderSchema } from '../../../../lambdas/domain/storage/managed-order';
import { orderFixture, SELLER } from '../../../support/order-fixtures';

// The three refund emails' first paragraph, word for word: how much, why, and where the money goes.
const order = (extra: Record<string, unknown>) =>
  managedOrderSchema.parse({ ...orderFixture(), status: 'refunded', ...extra });
const firstParagraph = (text: string) =>
  text.split('\n\n').find((part) => part.startsWith('We have refunded'));

describe('the refund emails', () => {
  it('a whole refund: £14.70 in full, for the reason given', () => {
    const email = renderRefundEmail(order({ refundReason: 'supply' }), SELLER);

    expect(firstParagraph(email.text)).toBe(
      'We have refunded £14.70 in full for your order J0kLmNoPqRsT because we could not supply live Daphnia of the quality we sell this week. The refund goes back to the card or account you paid with and usually arrives within 5 to 10 working days, depending on your bank.',
    );
  });

  it('the rest after a part refund: £11.45 of the £14.70', () => {
    const email = renderRefundEmail(order({ refundReason: 'other', partlyRefundedPence: 325 }), SELLER);

    expect(firstParagraph(email.text)).toBe(
      'We have refunded the remaining £11.45 of your order J0kLmNoPqRsT, so all of the £14.70 you paid has now been refunded. The refund goes back to the card or account you paid with and usually arrives within 5 to 10 working days, depending on your bank.',
    );
  });

  it('a part refund: £3.25 for 1 bottle', () => {
    const email = renderPartRefundEmail(
      order({ status: 'paid', partlyRefundedPence: 325 }),
      {
        pence: 325,
        bottles: 1,
        delivery: false,
        reason: 'doa',
        refundId: 're_1',
        at: '2026-11-24T10:00:00.000Z',
      },
      SELLER,
    );

    expect(firstParagraph(email.text)).toBe(
      'We have refunded £3.25 for 1 bottle of your order J0kLmNoPqRsT for animals that did not arrive in good condition. The refund goes back to the card or account you paid with and usually arrives within 5 to 10 working days, depending on your bank.',
    );
  });
});
