import { SummaryLine } from '../../components/ui/summary-line';
import type { Seller } from '../../lib/seller';

/** The seller's identity and contact details, as the law asks them to be shown before ordering. */
export function SellerDetails({ seller }: { seller: Seller }) {
  return (
    <dl className="summary__lines seller-details">
      <SummaryLine label="Seller">{seller.name}</SummaryLine>
      <SummaryLine label="Address">{seller.address}</SummaryLine>
      <SummaryLine label="Email">
        <a href={`mailto:${seller.email}`}>{seller.email}</a>
      </SummaryLine>
      {seller.phone ? (
        <SummaryLine label="Phone">
          <a href={`tel:${seller.phone.replace(/[^+0-9]/g, '')}`}>{seller.phone}</a>
        </SummaryLine>
      ) : null}
      {seller.companyNumber ? <SummaryLine label="Company number">{seller.companyNumber}</SummaryLine> : null}
      {seller.vatNumber ? <SummaryLine label="VAT number">{seller.vatNumber}</SummaryLine> : null}
    </dl>
  );
}
