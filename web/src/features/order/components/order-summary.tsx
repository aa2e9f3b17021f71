import { useId } from 'react';
import type { Quote } from '../../../../../shared/pricing';
import { PriceLines } from './price-lines';

/** Subtotal, shipping and total under the form, from the shared quote (integer pence). */
export function OrderSummary({ quote }: { quote: Quote }) {
  const headingId = useId();
  return (
    <section className="summary" aria-labelledby={headingId}>
      <h2 id={headingId}>Order Summary</h2>
      <dl className="summary__lines">
        <PriceLines quote={quote} totalLabel="Order Total" />
      </dl>
    </section>
  );
}
