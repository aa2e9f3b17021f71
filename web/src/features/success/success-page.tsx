import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { ApiClient } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { SELLER } from '../../lib/seller';
import { useApiAnswer } from '../../lib/use-api-answer';
import { announcePaid } from '../order/public';
import { CheckingPayment } from './components/checking-payment';
import { OrderNotFound } from './components/order-not-found';
import { PaymentFailed } from './components/payment-failed';
import { PaymentNotCompleted } from './components/payment-not-completed';
import { PaymentPlaced } from './components/payment-placed';
import { PaymentUnderReview } from './components/payment-under-review';
import { StatusCheckFailed } from './components/status-check-failed';

/** Where Stripe sends the customer back: `/success?session_id=cs_...`; without the id, to `/`. */
export function SuccessPage() {
  // useLocation and useNavigate, not useSearchParams and <Navigate>: react-router sits in the
  // first-load chunk with every part any page uses, and the routes and <Link> need these two anyway.
  const { search } = useLocation();
  const sessionId = new URLSearchParams(search).get('session_id')?.trim();
  const navigate = useNavigate();
  // A new key remounts the status view, which asks the API again from "loading": on "Try again",
  // and when the session id changes, so one session's answer is never shown under another's reference.
  const [attempt, setAttempt] = useState(0);

  // After rendering, as <Navigate replace> does: nothing to check without a session.
  useEffect(() => {
    if (!sessionId) void navigate(paths.home, { replace: true });
  }, [navigate, sessionId]);

  if (!sessionId) return null;
  return (
    <>
      <title>{`Payment confirmation · ${SELLER.shopName}`}</title>
      {/* A screen tall whatever the answer, so the footer stays below the fold when the
          answer replaces the prerendered "checking" card with a taller one (no layout shift). */}
      <div className="payment-status">
        <PaymentStatus
          key={`${sessionId}#${attempt}`}
          sessionId={sessionId}
          onRetry={() => setAttempt((current) => current + 1)}
        />
      </div>
    </>
  );
}

const askStatus = (api: ApiClient, sessionId: string, signal: AbortSignal) =>
  api.getCheckoutStatus(sessionId, signal);

function PaymentStatus({ sessionId, onRetry }: { sessionId: string; onRetry: () => void }) {
  const state = useApiAnswer(sessionId, askStatus);
  const status = state.kind === 'found' ? state.status.status : undefined;
  const placedReference =
    state.kind === 'found' && (status === 'paid' || status === 'in_review' || status === 'unpaid')
      ? state.status.reference
      : null;
  const held = status === 'in_review';
  const pending = status === 'unpaid';

  // Paid (held for review or not), or with the bank: this tab forgets the form, and the shop tab
  // that opened the payment learns it, so the order cannot be placed a second time from there.
  useEffect(() => {
    if (placedReference !== null) announcePaid({ sessionId, reference: placedReference, held, pending });
  }, [sessionId, placedReference, held, pending]);

  switch (state.kind) {
    case 'loading':
      return <CheckingPayment sessionId={sessionId} />;
    case 'not-found':
      return <OrderNotFound />;
    case 'failed':
      return <StatusCheckFailed onRetry={onRetry} />;
    case 'found':
      switch (state.status.status) {
        case 'paid':
        case 'unpaid':
          return <PaymentPlaced sessionId={sessionId} status={state.status} />;
        case 'in_review':
          return <PaymentUnderReview sessionId={sessionId} />;
        case 'failed':
          return <PaymentFailed status={state.status} />;
        default:
          return <PaymentNotCompleted sessionId={sessionId} status={state.status.status} />;
      }
  }
}
