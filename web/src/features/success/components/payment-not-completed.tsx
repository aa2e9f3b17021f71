import type { CheckoutStatus } from '../../../../../shared/checkout-status';
import { FocusHeading } from '../../../components/ui/focus-heading';
import { paymentUrl } from '../../order/public';
import { OrderReference } from './order-reference';
import { ReturnHomeLink } from './return-home-link';

type NotCompleted = Exclude<CheckoutStatus['status'], 'paid' | 'in_review' | 'unpaid' | 'failed'>;

const EXPLANATIONS: Record<NotCompleted, string> = {
  open: 'Your payment was not completed, so no money has been taken. You can place your order again from the shop.',
  expired:
    'This checkout has expired and no money has been taken. You can place your order again from the shop.',
};

/** Open or expired sessions: never the "Payment Successful!" view. */
export function PaymentNotCompleted({ sessionId, status }: { sessionId: string; status: NotCompleted }) {
  // An open session can still be paid: its page is remembered by the browser that opened it.
  const resume = status === 'open' ? paymentUrl(sessionId) : undefined;
  return (
    <section className="card card--centered">
      <FocusHeading>Payment not completed</FocusHeading>
      <p>
        {resume
          ? 'Your payment was not completed, so no money has been taken. Your checkout is still open: you can return to the payment page to finish paying.'
          : EXPLANATIONS[status]}
      </p>
      <OrderReference sessionId={sessionId} />
      {resume ? (
        <div className="actions">
          <a className="button button--primary" href={resume}>
            Return to the payment page
          </a>
          <ReturnHomeLink label="Back to the shop" primary={false} />
        </div>
      ) : (
        <ReturnHomeLink label="Back to the shop" />
      )}
    </section>
  );
}
