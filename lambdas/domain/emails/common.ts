import { DAPHNIA, PRODUCT_NAME } from '../../../shared/product';
import type { EmailBlock } from './render';

/** The seller's details every customer email carries (configuration: SELLER_*). */
export interface SellerDetails {
  /** Trading name. */
  name: string;
  /** Geographic address (not a PO box). */
  address: string;
  email: string;
  companyNumber?: string | undefined;
  vatNumber?: string | undefined;
}

/** "3 × 250ml bottles of Daphnia (live)": what was bought, as every email names it. */
export function itemLine(bottles: number): string {
  return `${bottles} × ${DAPHNIA.bottleSize} bottles of ${PRODUCT_NAME} (live)`;
}

/**
 * The seller block every customer email ends with, the confirmation included: trading name,
 * geographic address, email, and company and VAT numbers where they exist.
 */
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
      text: `Questions about your order? Reply to this email or write to ${seller.email}.`,
    },
    { kind: 'rows', rows },
  ];
}

/**
 * The statutory position on live goods, in the confirmation's words: no 14-day cancellation for
 * goods that deteriorate rapidly, other rights unaffected, our risk until delivered.
 */
export function liveAnimalRights(seller: SellerDetails, reference: string): EmailBlock[] {
  return [
    {
      kind: 'paragraph',
      text: 'Daphnia are live animals that deteriorate rapidly, so the 14-day right to cancel does not apply (Consumer Contracts Regulations 2013). Your other statutory rights are not affected: the goods remain our responsibility until they are delivered to you.',
    },
    {
      kind: 'paragraph',
      text: `If something is wrong when your order arrives, please email ${seller.email} on the day of delivery if you can, quoting your order reference ${reference} and including a photo of the bottles. We will put it right.`,
    },
  ];
}
