import type { CheckoutStatus } from '../../../../../shared/checkout-status';
import { formatDispatchDate } from '../../../../../shared/dispatch';
import { formatGbp } from '../../../../../shared/pricing';
import { FocusHeading } from '../../../components/ui/focus-heading';
import { SummaryLine } from '../../../components/ui/summary-line';
import { PaymentSummary } from './payment-summary';
import { ReturnHomeLink } from './return-home-link';

/**
 * A checkout completed with a payment the bank settles days later (Bacs Direct Debit): the order
 * is placed and waits for the money. Never "Payment Successful!", and never an invitation to
 * order again, which would make a second order of the same thing.
 */
export function PaymentPending({ sessionId, status }: { sessionId: string; status: CheckoutStatus }) {
  return (
    <section className="card card--centered">
      <FocusHeading>
        <span className="heading-line">Your order is placed</span>{' '}
        <span className="heading-line">We are waiting for your bank to confirm the payment</span>
      </FocusHeading>
      <p>
        Your bank is processing your payment, which can take a few working days. You do not need to do
        anything or order again: we will email you as soon as the payment clears, or if your bank turns it
        down.
      </p>
      <PaymentSummary sessionId={sessionId} bottles={status.bottles}>
        <SummaryLine label="Total">{formatGbp(status.total)}</SummaryLine>
        <SummaryLine label="Expected dispatch">{formatDispatchDate(status.dispatchDate)}</SummaryLine>
      </PaymentSummary>
      <ReturnHomeLink />
    </section>
  );
}
