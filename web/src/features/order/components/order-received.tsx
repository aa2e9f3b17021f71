import { quoteOrder } from '../../../../../shared/pricing';
import { DAPHNIA, PRODUCT_NAME } from '../../../../../shared/product';
import { FocusHeading } from '../../../components/ui/focus-heading';
import { Reference } from '../../../components/ui/reference';
import { SummaryLine } from '../../../components/ui/summary-line';
import { formatAnimalRange } from '../format-animal-range';
import { PriceLines } from './price-lines';

interface OrderReceivedProps {
  quantity: number;
  email: string;
  /** The request's reference, as the merchant's emails name it; absent from an API older than the page. */
  reference: string | undefined;
  onSubmitAnother: () => void;
}

/** The Order-received view: the API took the order without a payment page. */
export function OrderReceived({ quantity, email, reference, onSubmitAnother }: OrderReceivedProps) {
  const quote = quoteOrder(quantity);
  return (
    <section className="card card--centered order-received">
      <FocusHeading level={2} lines={['Thank You!', 'Your order request has been received']} />
      {reference ? <Reference label="Request Reference" value={reference} /> : null}
      <dl className="summary__lines">
        <SummaryLine label="Product">{PRODUCT_NAME}</SummaryLine>
        <SummaryLine label="Bottles">
          {quantity} × {DAPHNIA.bottleSize}
        </SummaryLine>
        <SummaryLine label="Approximate count">{formatAnimalRange(quantity)}</SummaryLine>
        <PriceLines quote={quote} totalLabel="Total" />
      </dl>
      <p>
        We will contact you at <strong className="break-anywhere">{email}</strong> to confirm your delivery
        details.
      </p>
      <p>Nothing has been charged: once we confirm your order, we will email you a secure payment link.</p>
      <button type="button" className="button button--primary" onClick={onSubmitAnother}>
        Submit Another Order
      </button>
    </section>
  );
}
