import { liveArrivalStatement, NO_CANCELLATION_STATEMENT } from '../../../shared/live-animals';
import { DAPHNIA, PRODUCT_NAME } from '../../../shared/product';
import { shopAndSeller, tradesUnderOwnName } from '../../../shared/shop-and-seller';
import { type EmailBlock, type EmailContent, type EmailRow, renderEmail } from './render';

/**
 * The button to the order's page (ADR 0037), absent for orders before pages; a standing order's delivery
 * links to its standing order's page (ADR 0059), where the customer skips, pauses or cancels.
 */
export function orderPageBlocks(
  orderPageUrl: string | undefined,
  page: 'order' | 'standing' = 'order',
): EmailBlock[] {
  const text = page === 'standing' ? 'Manage your standing order' : 'View your order';
  return orderPageUrl === undefined ? [] : [{ kind: 'button', text, href: orderPageUrl }];
}

/** The seller's details every customer email carries (configuration: SELLER_*, SHOP_NAME). */
export interface SellerDetails {
  /** The shop's name as customers know it: every email's header. */
  shopName: string;
  /** Trading name. */
  name: string;
  /** Geographic address (not a PO box). */
  address: string;
  email: string;
  companyNumber?: string | undefined;
  vatNumber?: string | undefined;
}

/** Where the bottles go, as every email that carries an address writes it: name, address, postcode. */
export function deliverToRow(to: {
  customerName: string;
  deliveryAddress: string;
  postcode: string;
}): EmailRow {
  return ['Deliver to', `${to.customerName}\n${to.deliveryAddress}\n${to.postcode}`];
}

/** "3 × 250ml bottles of Daphnia (live)": what was bought, as every email names it. */
export function itemLine(bottles: number): string {
  return `${bottles} × ${DAPHNIA.bottleSize} bottles of ${PRODUCT_NAME} (live)`;
}

/** A customer's email: the greeting, what it says, then the seller, as every customer email ends. */
export function customerEmail(
  seller: SellerDetails,
  subject: string,
  customerName: string,
  body: readonly EmailBlock[],
): EmailContent {
  return renderEmail(
    subject,
    [{ kind: 'paragraph', text: `Hello ${customerName},` }, ...body, ...sellerBlocks(seller)],
    seller.shopName,
  );
}

/** Every customer email ends with the seller: name, geographic address, email, company and VAT numbers. */
export function sellerBlocks(seller: SellerDetails): EmailBlock[] {
  const rows: Array<readonly [string, string]> = [
    ['Seller', seller.name],
    ['Address', seller.address],
    ['Email', seller.email],
  ];
  if (seller.companyNumber) rows.push(['Company number', seller.companyNumber]);
  if (seller.vatNumber) rows.push(['VAT number', seller.vatNumber]);
  return [
    { kind: 'heading', text: 'Contact us' },
    {
      kind: 'paragraph',
      // A shop trading under its own name is named once, in the rows: never "X is sold by X".
      text: `${tradesUnderOwnName(seller) ? '' : `${shopAndSeller(seller)}. `}Questions about your order? Reply to this email or write to ${seller.email}.`,
    },
    { kind: 'rows', rows },
  ];
}

/**
 * The statutory position on live goods in shared/live-animals.ts's words: no 14-day cancellation for goods
 * that deteriorate rapidly, other rights unaffected, our risk until delivered.
 */
export function liveAnimalRights(seller: SellerDetails, reference: string): EmailBlock[] {
  return [
    { kind: 'paragraph', text: NO_CANCELLATION_STATEMENT },
    { kind: 'paragraph', text: liveArrivalStatement(seller.email, reference) },
  ];
}
