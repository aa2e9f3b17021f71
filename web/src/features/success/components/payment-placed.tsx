import { Link } from 'react-router-dom';
import type { CheckoutStatus } from '../../../../../shared/checkout-status';
import { formatDispatchDate } from '../../../../../shared/dispatch';
import { formatGbp } from '../../../../../shared/pricing';
import { FocusHeading } from '../../../components/ui/focus-heading';
import { CheckIcon } from '../../../components/ui/icons';
import { SummaryLine } from '../../../components/ui/summary-line';
import { PaymentSummary } from './payment-summary';
import { ReturnHomeLink } from './return-home-link';

/**
 * The words of a placed order: paid, or completed with a payment the bank settles days later (Bacs
 * Direct Debit), which waits for the money. That one is never "Payment Successful!", and never an
 * invitation to order again, which would make a second order of the same thing.
 */
const PLACED = {
  paid: {
    heading: ['Payment Successful!', 'Your order has been confirmed'],
    explanation:
      'You will receive an email confirmation shortly with your order details and delivery information.',
    total: 'Total paid',
    dispatch: 'Dispatch date',
  },
  unpaid: {
    heading: ['Your order is placed', 'We are waiting for your bank to confirm the payment'],
    explanation:
      'Your bank is processing your payment, which can take a few working days. You do not need to do anything or order again: we will email you as soon as the payment clears, or if your bank turns it down.',
    total: 'Total',
    dispatch: 'Expected dispatch',
  },
} as const;

/** The success page once the API says the session is paid, or waits for the bank. */
export function PaymentPlaced({ sessionId, status }: { sessionId: string; status: CheckoutStatus }) {
  const words = status.status === 'paid' ? PLACED.paid : PLACED.unpaid;
  return (
    <section className="card card--centered">
      {status.status === 'paid' && (
        <span className="badge badge--success" aria-hidden="true">
          <CheckIcon />
        </span>
      )}
      <FocusHeading lines={words.heading} />
      <p>{words.explanation}</p>
      <PaymentSummary sessionId={sessionId} bottles={status.bottles}>
        <SummaryLine label={words.total}>{formatGbp(status.total)}</SummaryLine>
        <SummaryLine label={words.dispatch}>{formatDispatchDate(status.dispatchDate)}</SummaryLine>
      </PaymentSummary>
      {status.orderPage === undefined ? (
        <ReturnHomeLink />
      ) : (
        // The order's own page, for whoever holds this session id (ADR 0047): the link the emails carry.
        <div className="actions">
          <Link className="button button--primary" to={status.orderPage}>
            View your order
          </Link>
          <ReturnHomeLink primary={false} />
        </div>
      )}
    </section>
  );
}
