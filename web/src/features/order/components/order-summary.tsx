import { useId } from 'react';
import { formatGbp, type Quote } from '../../../../../shared/pricing';

/** Subtotal, shipping and total of spec §2, from the shared quote (integer pence). */
export function OrderSummary({ quote }: { quote: Quote }) {
  const headingId = useId();
  return (
    <section className="summary" aria-labelledby={headingId}>
      <h2 id={headingId}>Order Summary</h2>
      <dl className="summary__lines">
        <div className="summary__line">
          <dt>Subtotal</dt>
          <dd>{formatGbp(quote.subtotalPence)}</dd>
        </div>
        <div className="summary__line">
          <dt>Shipping</dt>
          <dd>{formatGbp(quote.shippingPence)}</dd>
        </div>
        <div className="summary__line summary__line--total">
          <dt>Order Total</dt>
          <dd>{formatGbp(quote.totalPence)}</dd>
        </div>
      </dl>
    </section>
  );
}
