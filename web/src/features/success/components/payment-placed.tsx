import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { CheckoutStatus } from '../../../../../shared/checkout-status';
import { formatDispatchDate } from '../../../../../shared/dispatch';
import { formatGbp } from '../../../../../shared/pricing';
import { FocusHeading } from '../../../components/ui/focus-heading';
import { CheckIcon } from '../../../components/ui/icons';
import { SummaryLine } from '../../../components/ui/summary-line';
import { useApiClient } from '../../../lib/app-context';
import { PaymentSummary } from './payment-summary';
import { ReturnHomeLink } from './return-home-link';

/**
 * A placed order's words: paid, or a Direct Debit the bank settles days later, which is never
 * "Payment Successful!" nor an invitation to order again (a second order of the same thing).
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

/** How often, and how many times, the page asks again for a link the webhook has not recorded yet. */
const LINK_RETRY_MS = 2_000;
const LINK_TRIES = 5;

/** The order page's link, or a later answer's when Stripe returned before the webhook (ADR 0047). */
function useOrderPageLink(sessionId: string, initial: string | undefined): string | undefined {
  const api = useApiClient();
  const [link, setLink] = useState(initial);
  useEffect(() => {
    if (link !== undefined) return;
    const controller = new AbortController();
    let tries = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const askLater = () => {
      timer = setTimeout(() => {
        tries += 1;
        void api.getCheckoutStatus(sessionId, controller.signal).then((result) => {
          if (controller.signal.aborted) return;
          if (result.kind === 'found' && result.status.orderPage !== undefined)
            setLink(result.status.orderPage);
          else if (tries < LINK_TRIES) askLater();
        });
      }, LINK_RETRY_MS);
    };
    askLater();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [api, sessionId, link]);
  return link;
}

/** The success page once the API says the session is paid, or waits for the bank. */
export function PaymentPlaced({ sessionId, status }: { sessionId: string; status: CheckoutStatus }) {
  const words = status.status === 'paid' ? PLACED.paid : PLACED.unpaid;
  const orderPage = useOrderPageLink(sessionId, status.orderPage);
  return (
    <section className="card card--centered">
      {status.status === 'paid' && (
        <span className="badge badge--success" aria-hidden="true">
          <CheckIcon />
        </span>
      )}
      <FocusHeading lines={words.heading} />
      <p>{words.explanation}</p>
      <PaymentSummary reference={status.reference} bottles={status.bottles}>
        <SummaryLine label={words.total}>{formatGbp(status.total)}</SummaryLine>
        <SummaryLine label={words.dispatch}>{formatDispatchDate(status.dispatchDate)}</SummaryLine>
      </PaymentSummary>
      {orderPage === undefined ? (
        <ReturnHomeLink />
      ) : (
        // The order's own page, for whoever holds this session id (ADR 0047): the link the emails carry.
        <div className="actions">
          <Link className="button button--primary" to={orderPage}>
            View your order
          </Link>
          <ReturnHomeLink primary={false} />
        </div>
      )}
    </section>
  );
}
