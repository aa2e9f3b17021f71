import { FocusHeading } from '../../../components/ui/focus-heading';
import { OrderReference } from './order-reference';
import { ReturnHomeLink } from './return-home-link';

/**
 * A paid session the shop holds for the merchant to check (its amount or contents are not what
 * the shop priced): the money arrived, but the order is not confirmed, so never "Payment Successful!".
 */
export function PaymentUnderReview({ sessionId }: { sessionId: string }) {
  return (
    <section className="card card--centered">
      <FocusHeading>Payment received, we are checking your order</FocusHeading>
      <p>
        We have received your payment, but your order needs a quick check by us before we can confirm it. We
        will email you about it; you do not need to pay again.
      </p>
      <OrderReference sessionId={sessionId} />
      <ReturnHomeLink label="Back to the shop" />
    </section>
  );
}
