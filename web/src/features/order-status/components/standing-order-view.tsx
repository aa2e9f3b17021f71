import { useState } from 'react';
import { formatGbp } from '../../../../../shared/pricing';
import type { StandingDelivery, StandingOrderPageView } from '../../../../../shared/standing-order-page';
import { SummaryLine } from '../../../components/ui/summary-line';
import { TitledCard } from '../../../components/ui/titled-card';
import { SELLER } from '../../../lib/seller';
import { DeliverToLines } from './deliver-to-lines';
import { SellerContact } from './seller-contact';
import { StandingOrderChanges } from './standing-order-changes';

const STATUS_HEADING: Record<StandingOrderPageView['status'], string> = {
  active: 'Your standing order is active',
  paused: 'Your standing order is paused',
  cancelled: 'Your standing order is cancelled',
};

/**
 * A standing order's own page (issue 50), opened by the link in each of its emails: what comes,
 * how often, what each delivery costs, its coming deliveries, and the changes the server offers
 * now. Each change answers the standing order as it then is, which replaces this view.
 */
export function StandingOrderView({
  token,
  initialView,
}: {
  token: string;
  initialView: StandingOrderPageView;
}) {
  const [view, setView] = useState(initialView);
  return (
    <>
      <title>{`Standing order · ${SELLER.shopName}`}</title>
      <section className="card" aria-labelledby="order-heading">
        <p className="eyebrow">Your standing order</p>
        <h1 id="order-heading">{STATUS_HEADING[view.status]}</h1>
        <dl className="summary__lines">
          <SummaryLine label="Order">{view.item}</SummaryLine>
          <SummaryLine label="How often">{view.repeatText}</SummaryLine>
          <SummaryLine label="Each delivery" total>
            {formatGbp(view.totalPence)}
          </SummaryLine>
        </dl>
        {view.shopPauseText ? <p className="dispatch-note">{view.shopPauseText}</p> : null}
      </section>
      <StandingOrderChanges token={token} view={view} onChanged={setView} />
      <ComingDeliveries view={view} />
      <DeliverTo deliverTo={view.deliverTo} />
      <SellerContact seller={view.seller} />
    </>
  );
}

/** The coming deliveries within the shop's 8 weeks, soonest first, each paid, due or skipped. */
function ComingDeliveries({ view }: { view: StandingOrderPageView }) {
  const total = formatGbp(view.totalPence);
  return (
    <TitledCard heading="Coming deliveries">
      {view.deliveries.length > 0 ? (
        <ul className="repeat__deliveries">
          {view.deliveries.map((delivery) => (
            <li key={delivery.day}>
              <strong>{delivery.dayText}</strong>: {deliveryState(delivery, total)}
            </li>
          ))}
        </ul>
      ) : (
        <p>{NO_DELIVERIES[view.status]}</p>
      )}
    </TitledCard>
  );
}

const NO_DELIVERIES: Record<StandingOrderPageView['status'], string> = {
  active: 'No deliveries in the next 8 weeks.',
  paused: 'No deliveries while your standing order is paused.',
  cancelled: 'No more deliveries: this standing order is cancelled.',
};

function deliveryState(delivery: StandingDelivery, total: string): string {
  switch (delivery.state) {
    case 'paid':
      return delivery.reference ? `paid, order ${delivery.reference}` : 'paid';
    case 'skipped':
      return 'skipped, nothing to pay';
    case 'due':
      return delivery.paymentText ? `due, we take ${total} on ${delivery.paymentText}` : 'due';
  }
}

function DeliverTo({ deliverTo }: { deliverTo: StandingOrderPageView['deliverTo'] }) {
  return (
    <TitledCard heading="Deliver to">
      <DeliverToLines deliverTo={deliverTo} />
    </TitledCard>
  );
}
