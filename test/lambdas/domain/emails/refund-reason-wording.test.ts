import { describe, expect, it } from 'vitest';
import { renderPartRefundEmail, renderRefundEmail } from '../../../../lambdas/domain/emails/order-updates';
import { managedOrderSchema } from '../../../../lambdas/domain/storage/managed-order';
import { orderFixture, SELLER } from '../../../support/order-fixtures';

// Each refund reason's words in the customer's email: only `doa` says the animals arrived in a bad
// way, `supply` says we were short, `other` makes no claim about the animals at all.
const order = (extra: Record<string, unknown>) =>
  managedOrderSchema.parse({ ...orderFixture(), status: 'refunded', ...extra });
const firstParagraph = (text: string) =>
  text.split('\n\n').find((part) => part.startsWith('We have refunded'));
const ARRIVES =
  'The refund goes back to the card or account you paid with and usually arrives within 5 to 10 working days, depending on your bank.';

const part = (reason: 'doa' | 'supply' | 'other') =>
  renderPartRefundEmail(
    order({ status: 'dispatched', partlyRefundedPence: 325 }),
    { pence: 325, bottles: 1, delivery: false, reason, refundId: 're_1', at: '2026-12-06T10:00:00.000Z' },
    SELLER,
  );

describe('the full refund email follows the reason chosen', () => {
  it('doa: the animals did not arrive in good condition', () => {
    expect(firstParagraph(renderRefundEmail(order({ refundReason: 'doa' }), SELLER).text)).toBe(
      `We have refunded £14.70 in full for your order J0kLmNoPqRsT for animals that did not arrive in good condition. ${ARRIVES}`,
    );
  });

  it('supply: we could not supply them', () => {
    expect(firstParagraph(renderRefundEmail(order({ refundReason: 'supply' }), SELLER).text)).toBe(
      `We have refunded £14.70 in full for your order J0kLmNoPqRsT because we could not supply live Daphnia of the quality we sell this week. ${ARRIVES}`,
    );
  });

  it('other: no word about the animals', () => {
    const email = renderRefundEmail(order({ refundReason: 'other' }), SELLER);
    expect(firstParagraph(email.text)).toBe(
      `We have refunded £14.70 in full for your order J0kLmNoPqRsT. ${ARRIVES}`,
    );
    expect(email.text).not.toMatch(/condition|supply|dead/);
    expect(email.html).not.toMatch(/condition|supply|dead/);
  });

  it('the rest after a part refund, doa', () => {
    const email = renderRefundEmail(order({ refundReason: 'doa', partlyRefundedPence: 325 }), SELLER);
    expect(firstParagraph(email.text)).toBe(
      `We have refunded the remaining £11.45 of your order J0kLmNoPqRsT for animals that did not arrive in good condition, so all of the £14.70 you paid has now been refunded. ${ARRIVES}`,
    );
  });
});

describe('the part refund email follows the reason chosen', () => {
  it('doa: the animals did not arrive in good condition', () => {
    expect(firstParagraph(part('doa').text)).toBe(
      `We have refunded £3.25 for 1 bottle of your order J0kLmNoPqRsT for animals that did not arrive in good condition. ${ARRIVES}`,
    );
  });

  it('supply: the culture was short, so not all of the order could be sent', () => {
    expect(firstParagraph(part('supply').text)).toBe(
      `We have refunded £3.25 for 1 bottle of your order J0kLmNoPqRsT because our culture was short and we could not supply all of your order this week. ${ARRIVES}`,
    );
  });

  it('other: no word about the animals', () => {
    const email = part('other');
    expect(firstParagraph(email.text)).toBe(
      `We have refunded £3.25 for 1 bottle of your order J0kLmNoPqRsT. ${ARRIVES}`,
    );
    expect(email.text).not.toMatch(/condition|supply|short|dead/);
    expect(email.html).not.toMatch(/condition|supply|short|dead/);
  });
});
