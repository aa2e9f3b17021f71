import type { OrderPageView } from '../../../../../shared/order-page';
import { shopAndSeller } from '../../../../../shared/shop-and-seller';
import { SummaryLine } from '../../../components/ui/summary-line';
import { TitledCard } from '../../../components/ui/titled-card';
import { SELLER } from '../../../lib/seller';

/**
 * How to reach the seller about this order, with the reference to quote; without one, about a
 * standing order (its page has no reference of its own: each delivery's order has one).
 */
export function SellerContact({
  seller,
  reference,
}: {
  seller: OrderPageView['seller'];
  reference?: string;
}) {
  const subject = reference === undefined ? 'Standing order' : `Order ${reference}`;
  return (
    <TitledCard
      heading={
        reference === undefined ? 'Questions about your standing order?' : 'Questions about your order?'
      }
    >
      <p>
        Email <a href={`mailto:${seller.email}?subject=${encodeURIComponent(subject)}`}>{seller.email}</a>
        {reference === undefined ? '.' : ` quoting your order reference ${reference}.`}
      </p>
      <dl className="summary__lines seller-details">
        <SummaryLine label="Seller">
          {shopAndSeller({ shopName: SELLER.shopName, name: seller.name })}
        </SummaryLine>
        <SummaryLine label="Address">{seller.address}</SummaryLine>
      </dl>
    </TitledCard>
  );
}
