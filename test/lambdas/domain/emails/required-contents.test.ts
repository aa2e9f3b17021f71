import { describe, expect, it } from 'vitest';
import { renderCustomerConfirmation } from '../../../../lambdas/domain/emails/customer-confirmation';
import { renderMerchantNotice } from '../../../../lambdas/domain/emails/merchant-notice';
import { orderFixture, SELLER } from '../../../support/order-fixtures';

/** The label → value rows of an HTML part, as a reader's screen shows them. */
function htmlRows(html: string): Array<[string, string]> {
  return [...html.matchAll(/<tr><th scope="row"[^>]*>(.*?)<\/th><td[^>]*>(.*?)<\/td><\/tr>/g)].map((m) => [
    m[1] ?? '',
    (m[2] ?? '').replaceAll('<br>', '\n'),
  ]);
}

// Every word of the emails' required contents, pinned by its literal text: the seller's identity,
// the reference and date, what was bought and what it cost, where and when it goes, the
// no-cancellation notice for live goods, how to report a problem and how to reach the seller.
describe('the emails’ required contents, field by field', () => {
  it('the customer confirmation, word for word', () => {
    // Act
    const email = renderCustomerConfirmation(orderFixture(), SELLER);

    // Assess
    expect(email.subject).toBe(
      'Live Aquatics Ltd: order J0kLmNoPqRsT confirmed (3 bottles of Daphnia Magna)',
    );
    expect(email.text).toBe(`Live Aquatics
=============

Hello Zoë Brontë,

Thank you for your order from Live Aquatics Ltd. We have received your payment and your order is confirmed.

Your order
----------

Order reference: J0kLmNoPqRsT
Order date: 21 November 2026
Item: 3 × 250ml bottles of Daphnia Magna (live) at £3.25 each: £9.75
UK delivery: £4.95
Total paid: £14.70 (including any VAT)

Delivery
--------

Deliver to: Zoë Brontë
  Flat 2, 10 Downing Street
  London
  SW1A 2AA
Planned dispatch: Monday 23 November
Expected arrival: Tuesday 24 November

We plan to dispatch your order on Monday 23 November by Royal Mail 1st Class; most orders arrive the next day, Tuesday 24 November. We dispatch on Mondays (or the first working day of the week after a bank holiday). Freezing or extreme weather can delay dispatch; if it does, we will email you.

Live animals: cancellation and problems
---------------------------------------

As live, perishable goods, Daphnia cannot be returned and the 14-day right to cancel does not apply.

We do not offer a dead-on-arrival guarantee beyond your statutory rights, which this does not affect: a few losses in transit are normal with live animals, but your order is our responsibility until it is delivered. If it arrives dead or not as described, email hello@live-aquatics.test on the day of delivery if you can, quoting your order reference J0kLmNoPqRsT, with a photo of the bottles, and we will send a replacement or refund you.

Contact us
----------

Live Aquatics is sold by Live Aquatics Ltd. Questions about your order? Reply to this email or write to hello@live-aquatics.test.

Seller: Live Aquatics Ltd
Address: 1 Pond Lane
  Bristol BS1 4DJ
Email: hello@live-aquatics.test
Company number: 01234567
VAT number: GB123456789
`);
  });

  it('the customer confirmation’s HTML part carries the same rows', () => {
    // Act
    const rows = htmlRows(renderCustomerConfirmation(orderFixture(), SELLER).html);

    // Assess
    expect(rows).toEqual([
      ['Order reference', 'J0kLmNoPqRsT'],
      ['Order date', '21 November 2026'],
      ['Item', '3 × 250ml bottles of Daphnia Magna (live) at £3.25 each: £9.75'],
      ['UK delivery', '£4.95'],
      ['Total paid', '£14.70 (including any VAT)'],
      ['Deliver to', 'Zoë Brontë\nFlat 2, 10 Downing Street\nLondon\nSW1A 2AA'],
      ['Planned dispatch', 'Monday 23 November'],
      ['Expected arrival', 'Tuesday 24 November'],
      ['Seller', 'Live Aquatics Ltd'],
      ['Address', '1 Pond Lane\nBristol BS1 4DJ'],
      ['Email', 'hello@live-aquatics.test'],
      ['Company number', '01234567'],
      ['VAT number', 'GB123456789'],
    ]);
  });

  it('the merchant notice, word for word', () => {
    // Act
    const email = renderMerchantNotice(orderFixture(), 'Live Aquatics', 'https://daphnia.example');

    // Assess
    expect(email.subject).toBe('New order J0kLmNoPqRsT: 3 bottles, dispatch Monday 23 November');
    expect(email.text).toBe(`Live Aquatics
=============

A new order has been paid. Reply to this email to reach the customer.

Reference: J0kLmNoPqRsT
Pack: 3 × 250ml bottles of Daphnia Magna
Dispatch on: Monday 23 November
Name: Zoë Brontë
Address: Flat 2, 10 Downing Street
  London
Postcode: SW1A 2AA
Phone: 07700 900123
Email: zoe@example.com
Total paid: £14.70
Paid: Sat 21 Nov, 10:00 (UK time)
Stripe session: cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsT
Stripe payment: pi_test_123

Open this order in the admin: https://daphnia.example/admin?order=J0kLmNoPqRsT

Open this payment in the Stripe Dashboard: https://dashboard.stripe.com/test/payments/pi_test_123
`);
    expect(htmlRows(email.html).map(([label]) => label)).toEqual([
      'Reference',
      'Pack',
      'Dispatch on',
      'Name',
      'Address',
      'Postcode',
      'Phone',
      'Email',
      'Total paid',
      'Paid',
      'Stripe session',
      'Stripe payment',
    ]);
  });
});
