import type { CheckoutStatus } from '../../../../../shared/checkout-status';
import { formatDispatchDate } from '../../../../../shared/dispatch';
import { formatGbp } from '../../../../../shared/pricing';
import { FocusHeading } from '../../../components/ui/focus-heading';
import { CheckIcon } from '../../../components/ui/icons';
import { SummaryLine } from '../../../components/ui/summary-line';
import { PaymentSummary } from './payment-summary';
import { ReturnHomeLink } from './return-home-link';

/** The success page's confirmation, shown only once the API says the session is paid. */
export function PaymentConfirmed({ sessionId, status }: { sessionId: string; status: CheckoutStatus }) {
  return (
    <section className="card card--centered">
      <span className="badge badge--success" aria-hidden="true">
        <CheckIcon />
      </span>
      <FocusHeading>
        <span className="heading-line">Payment Successful!</span>{' '}
        <span className="heading-line">Your order has been confirmed</span>
      </FocusHeading>
      <p>You will receive an email confirmation shortly with your order details and delivery information.</p>
      <PaymentSummary sessionId={sessionId} bottles={status.bottles}>
        <SummaryLine label="Total paid">{formatGbp(status.total)}</SummaryLine>
        <SummaryLine label="Dispatch date">{formatDispatchDate(status.dispatchDate)}</SummaryLine>
      </PaymentSummary>
      <ReturnHomeLink />
    </section>
  );
}
