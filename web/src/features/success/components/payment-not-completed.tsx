import type { CheckoutStatus } from '../../../../../shared/checkout-status';
import { FocusHeading } from '../../../components/ui/focus-heading';
import { OrderReference } from './order-reference';
import { ReturnHomeLink } from './return-home-link';

const EXPLANATIONS: Record<Exclude<CheckoutStatus['status'], 'paid'>, string> = {
  open: 'Your payment was not completed, so no money has been taken. You can place your order again from the shop.',
  unpaid:
    'We have not received your payment yet. If your bank is still processing it, we will email you as soon as it completes; otherwise you can place your order again from the shop.',
  expired:
    'This checkout has expired and no money has been taken. You can place your order again from the shop.',
};

/** Open, unpaid or expired sessions: never the "Payment Successful!" view. */
export function PaymentNotCompleted({
  sessionId,
  status,
}: {
  sessionId: string;
  status: Exclude<CheckoutStatus['status'], 'paid'>;
}) {
  return (
    <section className="card card--centered">
      <FocusHeading>Payment not completed</FocusHeading>
      <p>{EXPLANATIONS[status]}</p>
      <OrderReference sessionId={sessionId} />
      <ReturnHomeLink label="Back to the shop" />
    </section>
  );
}
