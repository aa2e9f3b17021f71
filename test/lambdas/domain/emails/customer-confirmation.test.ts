import { describe, expect, it } from 'vitest';
import { toOrderItem } from '../../../../lambdas/domain/checkout/paid-checkout';
import { renderCustomerConfirmation } from '../../../../lambdas/domain/emails/customer-confirmation';
import { HOSTILE, orderFixture, paidCheckout, SELLER } from '../../../support/order-fixtures';

describe('renderCustomerConfirmation', () => {
  it('carries everything the Consumer Contracts Regulations ask of the confirmation', () => {
    // Act
    const email = renderCustomerConfirmation(orderFixture(), SELLER);

    // Assess: the same facts in both parts.
    // Multi-line values: the text part indents continuation lines, the HTML part breaks with <br>.
    for (const part of [email.text.replace(/\n +/g, '\n'), email.html.replaceAll('<br>', '\n')]) {
      expect(part).toContain('Live Aquatics Ltd'); // trading name
      expect(part).toContain('1 Pond Lane\nBristol BS1 4DJ'); // geographic address
      expect(part).toContain('hello@live-aquatics.test'); // email, and how to contact
      expect(part).toContain('01234567'); // company number
      expect(part).toContain('GB123456789'); // VAT number
      expect(part).toContain('J0kLmNoPqRsT'); // order reference
      expect(part).toContain('21 November 2026'); // order date
      expect(part).toContain('3 × 250ml bottles of Daphnia Magna (live) at £3.25 each: £9.75');
      expect(part).toContain('£4.95'); // delivery
      expect(part).toContain('£14.70'); // total paid
      expect(part).toContain('Flat 2, 10 Downing Street\nLondon\nSW1A 2AA'); // delivery address
      expect(part).toContain('Monday 23 November'); // planned dispatch
      expect(part).toContain('the 14-day right to cancel does not apply');
      // The live-animal statement the order page and the terms share: statutory rights kept.
      expect(part).toContain('your order is our responsibility until it is delivered');
      expect(part).toContain(
        'email hello@live-aquatics.test on the day of delivery if you can, quoting your order reference J0kLmNoPqRsT, with a photo',
      );
      expect(part).not.toContain('We will put it right');
    }
    expect(email.subject).toBe(
      'Live Aquatics Ltd: order J0kLmNoPqRsT confirmed (3 bottles of Daphnia Magna)',
    );
  });

  it('leaves out company and VAT numbers the seller does not have', () => {
    // Act
    const email = renderCustomerConfirmation(orderFixture(), {
      ...SELLER,
      companyNumber: undefined,
      vatNumber: undefined,
    });

    // Assess
    expect(email.text).not.toContain('Company number');
    expect(email.text).not.toContain('VAT number');
  });

  it('says so when the dispatch date moved after the date shown at checkout', () => {
    // Prepare: paid on Saturday after the cut-off.
    const order = toOrderItem(paidCheckout(), { now: new Date('2026-11-21T13:00:00Z'), cutoffHours: 36 });

    // Act
    const email = renderCustomerConfirmation(order, SELLER);

    // Assess
    expect(email.text).toContain('We plan to dispatch your order on Monday 30 November');
    expect(email.text).toContain('later than the Monday 23 November shown at checkout');
  });

  it('says so when a Direct Debit confirmed sooner than the day expected for it at checkout', () => {
    // Act
    const email = renderCustomerConfirmation(
      { ...orderFixture(), promisedDispatchDate: '2026-12-07', dispatchDate: '2026-11-30' },
      SELLER,
    );

    // Assess
    expect(email.text).toContain(
      'This is earlier than the Monday 7 December expected at checkout, because your bank confirmed the payment sooner.',
    );
    expect(email.text).not.toContain('later than');
  });

  it('expects arrival the next day Royal Mail delivers: after a Friday dispatch, Saturday; never a bank holiday', () => {
    // Act: Thursday 24 December 2026 is followed by Christmas Day, Boxing Day (a Saturday), a
    // Sunday and the substitute bank holiday on Monday 28th.
    const friday = renderCustomerConfirmation({ ...orderFixture(), dispatchDate: '2026-11-27' }, SELLER);
    const christmasEve = renderCustomerConfirmation(
      { ...orderFixture(), dispatchDate: '2026-12-24', promisedDispatchDate: '2026-12-24' },
      SELLER,
    );

    // Assess
    expect(friday.text).toContain('\nExpected arrival: Saturday 28 November\n');
    expect(christmasEve.text).toContain('\nExpected arrival: Tuesday 29 December\n');
  });

  it('says nothing of a move when the date shown at checkout is unknown or the same', () => {
    // Act
    const unknown = renderCustomerConfirmation(
      { ...orderFixture(), promisedDispatchDate: undefined },
      SELLER,
    );
    const same = renderCustomerConfirmation(
      { ...orderFixture(), promisedDispatchDate: '2026-11-30', dispatchDate: '2026-11-30' },
      SELLER,
    );

    // Assess
    expect(unknown.text).not.toContain('at checkout');
    expect(same.text).not.toContain('at checkout');
    expect(same.text).toContain('We plan to dispatch your order on Monday 30 November');
  });

  it('escapes the customer’s name and address in the HTML part', () => {
    // Prepare
    const order = orderFixture({ customer: { ...paidCheckout().customer, ...HOSTILE } });

    // Act
    const email = renderCustomerConfirmation(order, SELLER);

    // Assess
    expect(email.html).not.toMatch(/<img|<a href/);
    expect(email.html).toContain('Hello &lt;img src=x onerror=alert(1)&gt;,');
    expect(email.html).toContain('&quot;&gt;&lt;a href=&quot;https://evil.test&quot;&gt;win&lt;/a&gt;');
    expect(email.subject).not.toMatch(/[\r\n]/);
  });

  it("a one-off order's button says View your order; a standing order's delivery's says Manage your standing order, to the same link", () => {
    // Prepare
    const link = 'https://shop.test/order/abc123';
    const delivery = { ...orderFixture(), subscriptionId: 'sub_weekly', repeat: 'weekly' as const };

    // Act
    const oneOff = renderCustomerConfirmation(orderFixture(), SELLER, link);
    const standing = renderCustomerConfirmation(delivery, SELLER, link);

    // Assess
    expect(oneOff.text).toContain('View your order: https://shop.test/order/abc123');
    expect(standing.text).toContain('Manage your standing order: https://shop.test/order/abc123');
    expect(standing.text).not.toContain('View your order');
    expect(standing.html).toContain('>Manage your standing order</a>');
  });
});
