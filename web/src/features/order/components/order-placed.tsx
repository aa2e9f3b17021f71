import { FocusHeading } from '../../../components/ui/focus-heading';

/**
 * Shown in the shop tab once the payment it opened succeeded in the other tab: the order is
 * placed, with its reference, and a new order takes a deliberate click, so nobody pays twice
 * by pressing a button left live on a filled form.
 */
export function OrderPlaced({
  reference,
  held,
  onPlaceAnother,
}: {
  reference: string;
  /** Paid, but held for the merchant to check: never announced as confirmed. */
  held: boolean;
  onPlaceAnother: () => void;
}) {
  return (
    <section className="card card--centered order-placed">
      <FocusHeading level={2}>
        {held ? 'Payment received, we are checking your order' : 'Your order is placed'}
      </FocusHeading>
      <p>
        {held
          ? 'We have received your payment and will email you once we have checked your order. You do not need to pay again.'
          : 'We have received your payment. Your confirmation email with the order details and delivery information is on its way.'}
      </p>
      <div className="reference">
        <p className="reference__label">Order Reference</p>
        <p className="reference__value">{reference}</p>
      </div>
      <button type="button" className="button button--secondary" onClick={onPlaceAnother}>
        Place another order
      </button>
    </section>
  );
}
