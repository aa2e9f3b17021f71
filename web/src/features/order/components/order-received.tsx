import { formatGbp, quoteOrder } from '../../../../../shared/pricing';
import { animalRange, DAPHNIA, PRODUCT_NAME } from '../../../../../shared/product';
import { FocusHeading } from '../../../components/ui/focus-heading';

interface OrderReceivedProps {
  quantity: number;
  email: string;
  onSubmitAnother: () => void;
}

const count = new Intl.NumberFormat('en-GB');

/** Spec §2's Order-received view: the API took the order without a payment page. */
export function OrderReceived({ quantity, email, onSubmitAnother }: OrderReceivedProps) {
  const quote = quoteOrder(quantity);
  const range = animalRange(quantity);
  return (
    <section className="card card--centered order-received">
      <FocusHeading level={2}>
        <span className="heading-line">Thank You!</span>{' '}
        <span className="heading-line">Your order request has been received</span>
      </FocusHeading>
      <dl className="summary__lines">
        <div className="summary__line">
          <dt>Product</dt>
          <dd>{PRODUCT_NAME}</dd>
        </div>
        <div className="summary__line">
          <dt>Bottles</dt>
          <dd>
            {quantity} × {DAPHNIA.bottleSize}
          </dd>
        </div>
        <div className="summary__line">
          <dt>Approximate count</dt>
          <dd>
            {count.format(range.min)}-{count.format(range.max)} {DAPHNIA.unit}
          </dd>
        </div>
        <div className="summary__line">
          <dt>Subtotal</dt>
          <dd>{formatGbp(quote.subtotalPence)}</dd>
        </div>
        <div className="summary__line">
          <dt>Shipping</dt>
          <dd>{formatGbp(quote.shippingPence)}</dd>
        </div>
        <div className="summary__line summary__line--total">
          <dt>Total</dt>
          <dd>{formatGbp(quote.totalPence)}</dd>
        </div>
      </dl>
      <p>
        We will contact you at <strong className="break-anywhere">{email}</strong> to confirm your delivery
        details.
      </p>
      <button type="button" className="button button--primary" onClick={onSubmitAnother}>
        Submit Another Order
      </button>
    </section>
  );
}
