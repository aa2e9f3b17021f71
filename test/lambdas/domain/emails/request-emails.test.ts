import { describe, expect, it } from 'vitest';
import {
  renderDecline,
  renderPaymentInvitation,
  renderRequestNotice,
} from '../../../../lambdas/domain/emails/request-emails';
import type { OrderRequest } from '../../../../lambdas/domain/storage/order-request';
import { SELLER } from '../../../support/order-fixtures';

const REQUEST: OrderRequest = {
  pk: 'REQUEST#req_Ab3dE6gH9jK2',
  reference: 'req_Ab3dE6gH9jK2',
  referenceKey: 'req_ab3de6gh9jk2',
  status: 'invited',
  bottles: 3,
  unitPricePence: 325,
  subtotalPence: 975,
  shippingPence: 495,
  totalPence: 1470,
  customerName: 'Zoë Brontë',
  customerEmail: 'zoe@example.com',
  customerPhone: '',
  deliveryAddress: 'Flat 2, 10 Downing Street\nLondon',
  postcode: 'SW1A 2AA',
  dispatchDate: '2026-11-30',
  createdAt: '2026-11-25T13:15:24.760Z',
  gsi1pk: 'DISPATCH#2026-11-30',
  gsi1sk: 'invited#2026-11-25T13:15:24.760Z#req_Ab3dE6gH9jK2',
};

/** A Checkout Session URL as long as Stripe's: about 700 characters with its fragment. */
const PAY_URL = `https://checkout.stripe.com/c/pay/cs_test_a1${'B2c3D4e5F6'.repeat(6)}#${'fidkdWxOYHwnPyd1blpxYHZxWjA0'.repeat(22)}`;

const LINK = { url: PAY_URL, expiresAt: '2026-11-26T12:15:00.000Z', dispatchDate: '2026-11-30' };

/** The words a reader sees in an HTML part, tags and entities aside. */
function visibleText(html: string): string {
  return html
    .replace(/<head>[\s\S]*<\/head>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z#0-9]+;/g, ' ');
}

describe('renderPaymentInvitation', () => {
  it('word for word: the link as a button, its address in the text part only after the words', () => {
    // Act
    const email = renderPaymentInvitation(REQUEST, LINK, SELLER);

    // Assess
    expect(email.subject).toBe('Live Aquatics Ltd: pay for your order request req_Ab3dE6gH9jK2');
    expect(email.text).toBe(`Live Aquatics
=============

Hello Zoë Brontë,

Good news: we can supply your order. To place it, pay securely with Stripe:

Pay £14.70 with Stripe: ${PAY_URL}

The link works until Thursday 26 November at 12:15 (UK time). Your order is placed only when you pay, and we then email you a confirmation.

Request reference: req_Ab3dE6gH9jK2
Item: 3 × 250ml bottles of Daphnia Magna (live) at £3.25 each
UK delivery: £4.95
Total: £14.70 (including any VAT)
Deliver to: Zoë Brontë
  Flat 2, 10 Downing Street
  London
  SW1A 2AA
Planned dispatch: Monday 30 November

As live, perishable goods, Daphnia cannot be returned and the 14-day right to cancel does not apply.

We do not offer a dead-on-arrival guarantee beyond your statutory rights, which this does not affect: a few losses in transit are normal with live animals, but your order is our responsibility until it is delivered. If it arrives dead or not as described, email hello@live-aquatics.test on the day of delivery if you can, quoting your order reference req_Ab3dE6gH9jK2, with a photo of the bottles, and we will send a replacement or refund you.

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
    expect(email.html).toContain(
      `<a href="${PAY_URL}" style="display:inline-block;max-width:100%;box-sizing:border-box;padding:12px 24px;border-radius:6px;background:#0b5f6b;color:#ffffff;font-weight:600;text-decoration:none;text-align:center">Pay £14.70 with Stripe</a>`,
    );
  });

  it('wraps on a phone: the HTML shows no run of more than 40 characters without a space, the URL only in href', () => {
    // Act
    const { html } = renderPaymentInvitation(REQUEST, LINK, SELLER);

    // Assess
    const longest = Math.max(
      ...visibleText(html)
        .split(/\s+/)
        .map((word) => word.length),
    );
    expect(longest).toBeLessThanOrEqual(40);
    expect(html.split(PAY_URL)).toHaveLength(2);
  });
});

describe('renderRequestNotice', () => {
  it('says when the request came as London’s clock read it, not as a raw instant', () => {
    // Act
    const email = renderRequestNotice(REQUEST, 'Live Aquatics');

    // Assess
    expect(email.text).toContain('\nReceived: Wed 25 Nov, 13:15 (UK time)\n');
    expect(email.text).not.toContain('2026-11-25T13:15:24.760Z');
    expect(email.text.startsWith('Live Aquatics\n=============\n\nA new order request')).toBe(true);
  });

  it('word for word: the two commands that answer it, the request, a phone not given, no earlier requests', () => {
    // Act
    const email = renderRequestNotice({ ...REQUEST, status: 'requested' }, 'Live Aquatics');

    // Assess
    expect(email.subject).toBe('Order request req_Ab3dE6gH9jK2: 3 bottles (not paid)');
    expect(email.text).toBe(`Live Aquatics
=============

A new order request (the shop is taking requests, so nothing has been paid, and the customer has not been emailed). Invite payment with: npm run orders -- request-payment req_Ab3dE6gH9jK2. Or decline it with: npm run orders -- decline req_Ab3dE6gH9jK2. Reply to this email to reach the customer.

Request reference: req_Ab3dE6gH9jK2
Item: 3 × 250ml bottles of Daphnia Magna (live) at £3.25 each
UK delivery: £4.95
Total: £14.70 (including any VAT)
Deliver to: Zoë Brontë
  Flat 2, 10 Downing Street
  London
  SW1A 2AA
Phone: (not given)
Email: zoe@example.com
Received: Wed 25 Nov, 13:15 (UK time)
`);
  });

  it('gives the phone as typed, and sets the reference in a monospace face in HTML', () => {
    // Act
    const email = renderRequestNotice({ ...REQUEST, customerPhone: '+44 7700 900123' }, 'Live Aquatics');

    // Assess
    expect(email.text).toContain('\nPhone: +44 7700 900123\nEmail: zoe@example.com\n');
    expect(email.text).not.toContain('(not given)');
    expect(email.html).toMatch(/<td style="[^"]*monospace[^"]*">req_Ab3dE6gH9jK2<\/td>/);
  });

  it.each([
    [1, 'Also 1 earlier request since Wed 25 Nov, 12:40 (UK time), recorded without a notice of its own'],
    [3, 'Also 3 earlier requests since Wed 25 Nov, 12:40 (UK time), recorded without a notice of their own'],
  ])('says how many earlier requests the hourly limits kept back (%i), and since when', (count, words) => {
    // Act
    const email = renderRequestNotice(
      { ...REQUEST, unnotifiedRequests: count, unnotifiedSince: '2026-11-25T12:40:00.000Z' },
      'Live Aquatics',
    );

    // Assess
    expect(email.text).toContain(
      `reach the customer.\n\n${words} (the hourly limits on these notices). List them with: npm run orders -- list --status requested\n\nRequest reference:`,
    );
  });

  it('says nothing of earlier requests when none was kept back, or when it is not known since when', () => {
    const none = renderRequestNotice(
      { ...REQUEST, unnotifiedRequests: 0, unnotifiedSince: '2026-11-25T12:40:00.000Z' },
      'S',
    );
    const noSince = renderRequestNotice({ ...REQUEST, unnotifiedRequests: 2 }, 'S');

    expect(none.text).not.toContain('earlier request');
    expect(noSince.text).not.toContain('earlier request');
  });
});

describe('every customer email’s contact block', () => {
  it('names a shop trading under its own name once, never "X is sold by X"', () => {
    // Act
    const email = renderDecline(REQUEST, { ...SELLER, shopName: 'Live Aquatics Ltd' });

    // Assess
    expect(email.text).not.toContain('sold by');
    expect(email.text).toContain(
      '\n\nQuestions about your order? Reply to this email or write to hello@live-aquatics.test.\n\nSeller: Live Aquatics Ltd\n',
    );
  });

  it('says who sells under the shop’s name when the two differ', () => {
    // Act
    const email = renderDecline(REQUEST, { ...SELLER, shopName: 'Daphnia Direct' });

    // Assess
    expect(email.text).toContain(
      '\n\nDaphnia Direct is sold by Live Aquatics Ltd. Questions about your order? Reply to this email or write to hello@live-aquatics.test.\n',
    );
    expect(email.text.startsWith('Daphnia Direct\n==============\n\n')).toBe(true);
  });
});
