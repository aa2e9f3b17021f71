import { useState } from 'react';
import type { OrderPageView } from '../../../../../shared/order-page';
import { formatGbp } from '../../../../../shared/pricing';
import { Reference } from '../../../components/ui/reference';
import { SummaryLine } from '../../../components/ui/summary-line';
import { SELLER } from '../../../lib/seller';
import { ArrivalAdvice } from './arrival-advice';
import { DeliveryDetails } from './delivery-details';
import { OrderTimeline } from './order-timeline';
import { SellerContact } from './seller-contact';

const STATUS_TEXT: Record<OrderPageView['status'], string> = {
  paid: 'Paid, waiting for dispatch',
  dispatched: 'On its way',
  refunded: 'Refunded',
};

/** The order as its page shows it; a correction replaces the view with the server's new one. */
export function OrderView({ token, initialView }: { token: string; initialView: OrderPageView }) {
  const [view, setView] = useState(initialView);
  return (
    <>
      <title>{`Order ${view.reference} · ${SELLER.shopName}`}</title>
      <section className="card" aria-labelledby="order-heading">
        <p className="eyebrow">Your order</p>
        <h1 id="order-heading">{STATUS_TEXT[view.status]}</h1>
        <Reference value={view.reference} />
        <dl className="summary__lines">
          <SummaryLine label="Order">{view.item}</SummaryLine>
          <SummaryLine label="Subtotal">{formatGbp(view.subtotalPence)}</SummaryLine>
          <SummaryLine label="Delivery">{formatGbp(view.shippingPence)}</SummaryLine>
          <SummaryLine label="Total paid" total>
            {formatGbp(view.totalPence)}
          </SummaryLine>
        </dl>
      </section>
      <OrderTimeline steps={view.timeline} />
      {view.arrivalAdvice ? (
        <ArrivalAdvice advice={view.arrivalAdvice} reference={view.reference} email={view.seller.email} />
      ) : null}
      <DeliveryDetails view={view} token={token} onCorrected={setView} />
      <SellerContact seller={view.seller} reference={view.reference} />
    </>
  );
}
