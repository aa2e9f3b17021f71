import type { CheckoutStatus } from '../../../../../shared/checkout-status';
import { formatGbp } from '../../../../../shared/pricing';
import { FocusHeading } from '../../../components/ui/focus-heading';
import { SummaryLine } from '../../../components/ui/summary-line';
import { PaymentSummary } from './payment-summary';
import { ReturnHomeLink } from './return-home-link';

/**
 * A Direct Debit the bank refused: the order is cancelled and nothing was taken, as the email the
 * customer is sent says. Here, unlike while the debit is with the bank, ordering again is the way
 * forward, since the first order will never be dispatched.
 */
export function PaymentFailed({ status }: { status: CheckoutStatus }) {
  return (
    <section className="card card--centered">
      <FocusHeading lines={['Payment not completed', 'Your bank did not pay the Direct Debit']} />
      <p>
        Your bank did not pay the Bacs Direct Debit for this order, so the order is cancelled and will not be
        dispatched. Nothing was taken from your account and you owe us nothing. We have also sent you an email
        about it.
      </p>
      <PaymentSummary reference={status.reference} bottles={status.bottles}>
        <SummaryLine label="Total">{formatGbp(status.total)} (not taken)</SummaryLine>
      </PaymentSummary>
      <p>
        If you would still like your Daphnia, you are welcome to order again. A card payment confirms the
        order at once; a new Direct Debit waits for your bank again.
      </p>
      <ReturnHomeLink label="Order again" />
    </section>
  );
}
