import type { PaidCheckout } from '../../lambdas/domain/checkout/paid-checkout';
import { toOrderItem } from '../../lambdas/domain/checkout/paid-checkout';
import type { SellerDetails } from '../../lambdas/domain/emails/common';
import type { OrderItem } from '../../lambdas/domain/storage/order';
import { quoteOrder } from '../../shared/pricing';

export const SESSION_ID = 'cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsT';

/** A checked, paid checkout of 3 bottles, as assessCheckoutSession hands it to the mapping. */
export function paidCheckout(overrides: Partial<PaidCheckout> = {}): PaidCheckout {
  return {
    sessionId: SESSION_ID,
    paymentIntentId: 'pi_test_123',
    livemode: false,
    quote: quoteOrder(3),
    currency: 'gbp',
    customer: {
      name: 'Zoë Brontë',
      email: 'zoe@example.com',
      phone: '07700 900123',
      address: 'Flat 2, 10 Downing Street\nLondon',
      postcode: 'SW1A 2AA',
    },
    promisedDispatchDate: '2026-11-23',
    checkoutCreatedAt: new Date('2026-11-21T09:50:00Z'),
    ...overrides,
  };
}

/** Saturday 21 November 2026, 10:00 in London: before the 36-hour cut-off for Monday 23rd. */
export const BEFORE_CUTOFF = new Date('2026-11-21T10:00:00Z');

export function orderFixture(overrides: Partial<PaidCheckout> = {}): OrderItem {
  return toOrderItem(paidCheckout(overrides), { now: BEFORE_CUTOFF, cutoffHours: 36 });
}

export const SELLER: SellerDetails = {
  shopName: 'Live Aquatics',
  name: 'Live Aquatics Ltd',
  address: '1 Pond Lane\nBristol BS1 4DJ',
  email: 'hello@live-aquatics.test',
  companyNumber: '01234567',
  vatNumber: 'GB123456789',
};

export const HOSTILE = {
  name: '<img src=x onerror=alert(1)>',
  address: '"><a href="https://evil.test">win</a>\nLondon',
} as const;
