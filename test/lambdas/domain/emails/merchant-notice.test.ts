import { describe, expect, it } from 'vitest';
import { toOrderItem } from '../../../../lambdas/domain/checkout/paid-checkout';
import {
  renderMerchantNotice,
  stripeDashboardPaymentUrl,
} from '../../../../lambdas/domain/emails/merchant-notice';
import { HOSTILE, orderFixture, paidCheckout } from '../../../support/order-fixtures';

/** The first line under the shop-name header (its name, its rule and a blank line). */
function firstLine(email: { text: string }): string | undefined {
  return email.text.split('\n')[3];
}

describe('renderMerchantNotice', () => {
  it('carries everything needed to pack and post the order', () => {
    // Act
    const email = renderMerchantNotice(orderFixture(), 'Live Aquatics', 'https://daphnia.example');

    // Assess
    expect(email.subject).toBe('New order J0kLmNoPqRsT: 3 bottles, dispatch Monday 23 November');
    // Multi-line values: the text part indents continuation lines, the HTML part breaks with <br>.
    for (const part of [email.text.replace(/\n +/g, '\n'), email.html.replaceAll('<br>', '\n')]) {
      expect(part).toContain('J0kLmNoPqRsT');
      expect(part).toContain('3 × 250ml bottles of Daphnia Magna');
      expect(part).toContain('Monday 23 November');
      expect(part).toContain('Zoë Brontë');
      expect(part).toContain('Flat 2, 10 Downing Street\n');
      expect(part).toContain('SW1A 2AA');
      expect(part).toContain('07700 900123');
      expect(part).toContain('zoe@example.com');
      expect(part).toContain('£14.70');
      expect(part).toContain('pi_test_123');
    }
  });

  it('links first to the order in /admin, which opens on a phone, then to Stripe', () => {
    // Act
    const email = renderMerchantNotice(orderFixture(), 'Live Aquatics', 'https://daphnia.example');

    // Assess
    expect(email.text).toContain(
      'Open this order in the admin: https://daphnia.example/admin?order=J0kLmNoPqRsT',
    );
    expect(email.html).toContain('href="https://daphnia.example/admin?order=J0kLmNoPqRsT"');
    expect(email.text.indexOf('https://daphnia.example/admin?order=')).toBeLessThan(
      email.text.indexOf('https://dashboard.stripe.com/'),
    );
  });

  it('links to the payment in the Stripe Dashboard, under /test/ for a test-mode payment', () => {
    // Act
    const test = renderMerchantNotice(orderFixture(), 'Live Aquatics', 'https://daphnia.example');
    const live = renderMerchantNotice(
      { ...orderFixture(), livemode: true },
      'Live Aquatics',
      'https://daphnia.example',
    );

    // Assess
    expect(test.html).toContain(
      '<a href="https://dashboard.stripe.com/test/payments/pi_test_123" style="color:#0b5f6b;font-weight:600">Open this payment in the Stripe Dashboard</a>',
    );
    expect(test.text).toContain(
      'Open this payment in the Stripe Dashboard: https://dashboard.stripe.com/test/payments/pi_test_123',
    );
    expect(live.text).toContain('https://dashboard.stripe.com/payments/pi_test_123');
  });

  it('fits a phone: a viewport, and long values that wrap instead of scrolling sideways', () => {
    // Act
    const email = renderMerchantNotice(orderFixture(), 'Live Aquatics', 'https://daphnia.example');

    // Assess
    expect(email.html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(email.html).toContain('<td style="padding:2px 0;overflow-wrap:anywhere;word-break:break-word">');
  });

  it('says when no phone was given, rather than leaving a blank', () => {
    // Act
    const email = renderMerchantNotice(
      orderFixture({ customer: { ...paidCheckout().customer, phone: '' } }),
      'Live Aquatics',
      'https://daphnia.example',
    );

    // Assess
    expect(email.text).toContain('Phone: (not given)');
  });

  it('escapes the customer’s name and address in the HTML part', () => {
    // Act
    const email = renderMerchantNotice(
      orderFixture({ customer: { ...paidCheckout().customer, ...HOSTILE } }),
      'Live Aquatics',
      'https://daphnia.example',
    );

    // Assess
    // The one link is ours, to the Stripe Dashboard; the customer's text never becomes one.
    expect(email.html).not.toMatch(/<img|<a href="https:\/\/evil/);
    expect(email.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(email.html).toContain('&quot;&gt;&lt;a href=&quot;https://evil.test&quot;&gt;win&lt;/a&gt;');
  });

  it('tells the merchant, first, when the customer has not received their confirmation, and why', () => {
    // Prepare
    const order = {
      ...orderFixture(),
      confirmationEmailState: 'failed' as const,
      confirmationEmailFailureReason: 'address-not-ascii',
    };

    // Act
    const email = renderMerchantNotice(order, 'Live Aquatics', 'https://daphnia.example');

    // Assess
    expect(firstLine(email)).toBe(
      'Action needed: the customer has NOT received their order confirmation (the address has characters email servers do not accept). Please contact them by phone, or ask them for another email address.',
    );
    expect(email.text).toContain('Customer email: NOT SENT: confirmation refused');
    expect(email.text).not.toContain('Reply to this email to reach the customer');
  });

  it('says a paid order and how to reach the customer when the confirmation is not refused', () => {
    // Act
    const email = renderMerchantNotice(orderFixture(), 'Live Aquatics', 'https://daphnia.example');

    // Assess
    expect(firstLine(email)).toBe('A new order has been paid. Reply to this email to reach the customer.');
    expect(email.text).not.toContain('NOT SENT');
  });

  it('shows the date shown at checkout only when the dispatch date moved from it', () => {
    // Act: paid on Saturday 13:00, past the cut-off for Monday 23rd shown at checkout.
    const moved = renderMerchantNotice(
      toOrderItem(paidCheckout(), { now: new Date('2026-11-21T13:00:00Z'), cutoffHours: 36 }),
      'Live Aquatics',
      'https://daphnia.example',
    );
    const kept = renderMerchantNotice(orderFixture(), 'Live Aquatics', 'https://daphnia.example');
    const unknown = renderMerchantNotice(
      orderFixture({ promisedDispatchDate: undefined }),
      'Live Aquatics',
      'https://daphnia.example',
    );

    // Assess
    expect(moved.text).toContain('Dispatch on: Monday 30 November\nShown at checkout: Monday 23 November\n');
    expect(kept.text).not.toContain('Shown at checkout');
    expect(unknown.text).not.toContain('Shown at checkout');
  });

  it('without a PaymentIntent, shows no Stripe payment row and no Dashboard link', () => {
    // Act
    const email = renderMerchantNotice(
      orderFixture({ paymentIntentId: undefined }),
      'Live Aquatics',
      'https://daphnia.example',
    );

    // Assess
    expect(email.text).not.toContain('Stripe payment');
    expect(email.text).not.toContain('Stripe Dashboard');
    expect(email.html).not.toContain('dashboard.stripe.com');
  });

  it.each([
    'pi_test_1"><script>alert(1)</script>',
    'xpi_test_123',
    'pi_test_123/../../settings',
    'ch_test_123',
    '',
  ])('links to no Dashboard page for a payment id that is not a plain pi_ id: %j', (paymentIntentId) => {
    expect(stripeDashboardPaymentUrl({ paymentIntentId, livemode: false })).toBeUndefined();
  });

  it('says first, and in the subject, that an order was paid while the shop was paused, and how to refund or delay it', () => {
    // Prepare: paused on Wednesday 25 November 13:15 London time, recorded the next day.
    const order = {
      ...orderFixture(),
      createdAt: '2026-11-26T10:00:00.000Z',
      placedWhilePaused: true as const,
      pausedMode: 'paused' as const,
      pausedSince: '2026-11-25T13:15:00.000Z',
    };

    // Act
    const email = renderMerchantNotice(order, 'Live Aquatics', 'https://daphnia.example');
    const requests = renderMerchantNotice(
      { ...order, pausedMode: 'requests', pausedSince: undefined },
      'Live Aquatics',
      'https://daphnia.example',
    );

    // Assess
    expect(email.subject).toBe(
      'New order J0kLmNoPqRsT: 3 bottles, dispatch Monday 23 November (paid while paused)',
    );
    expect(firstLine(email)).toBe(
      "Paid while the shop was paused since Wed 25 Nov, 13:15: the customer opened checkout before the pause and paid before it could be closed. The order is recorded for the dispatch day below. If you cannot send it then, refund it (npm run orders -- refund J0kLmNoPqRsT) or move the day's orders (npm run orders -- delay --dispatch 2026-11-23 --to YYYY-MM-DD --reason other).",
    );
    expect(email.text).toContain('Placed: While the shop was paused (see above)');
    expect(email.html).toContain('Paid while the shop was paused since Wed 25 Nov, 13:15:');
    expect(firstLine(requests)).toMatch(
      /^Paid while the shop was taking order requests only: the customer opened checkout/,
    );
  });

  it('says nothing of a pause on an ordinary order', () => {
    // Act
    const email = renderMerchantNotice(orderFixture(), 'Live Aquatics', 'https://daphnia.example');

    // Assess
    expect(email.subject).toBe('New order J0kLmNoPqRsT: 3 bottles, dispatch Monday 23 November');
    expect(email.text).not.toContain('paused');
    expect(firstLine(email)).toBe('A new order has been paid. Reply to this email to reach the customer.');
  });

  it('names the refusal in general terms when its reason is not one it knows', () => {
    // Prepare
    const order = {
      ...orderFixture(),
      confirmationEmailState: 'failed' as const,
      confirmationEmailFailureReason: 'SomethingNew',
    };

    // Act
    const email = renderMerchantNotice(order, 'Live Aquatics', 'https://daphnia.example');

    // Assess
    expect(firstLine(email)).toBe(
      'Action needed: the customer has NOT received their order confirmation (the email service refused it). Please contact them by phone, or ask them for another email address.',
    );
  });
});
