import type Stripe from 'stripe';
import type { SellerDetails } from '../emails/common';
import type { EmailSender } from '../emails/send-email';
import type { OrderPageLinks } from '../order-page-token';
import type { ShopTable } from '../storage/orders-table';

/** What the shop's operator actions need: injected, so the CLI and the Lambdas build them alike. */
export interface ShopDeps {
  table: ShopTable;
  sender: EmailSender;
  seller: SellerDetails;
  /** Where request notices go. */
  merchantEmail: string;
  now: () => Date;
  /**
   * The order page's links, which every order email carries (docs/decisions/0037): absent where
   * no secret is configured (an older CLI), and the emails then go without the link.
   */
  orderPage?: OrderPageLinks | undefined;
}

/** Actions that also talk to Stripe (refunds, payment links). */
export interface ShopStripeDeps extends ShopDeps {
  stripe: Stripe;
  /** The shop's public origin: the payment link's success and cancel pages. */
  siteUrl: string;
  cutoffHours: number;
  /** SHOP_ID: the deployment's marker on the sessions it creates (lambdas/domain/checkout/order-metadata.ts). */
  shopId: string;
}
