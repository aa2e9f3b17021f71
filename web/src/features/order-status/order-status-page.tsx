import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import { isDebitPageView } from '../../../../shared/order-page';
import { ORDER_PAGE_PREFIX } from '../../../../shared/site-routes';
import { NotFoundPage } from '../../components/layout/not-found';
import { FocusHeading } from '../../components/ui/focus-heading';
import type { ApiClient } from '../../lib/api-client';
import { SELLER } from '../../lib/seller';
import { useApiAnswer } from '../../lib/use-api-answer';
import { DebitView } from './components/debit-view';
import { OrderView } from './components/order-view';
import { StandingOrderView } from './components/standing-order-view';
import { getOrderPage, isStandingOrderView } from './order-page-api';

/** The customer's order page, `/order/<token>` (ADR 0037): the token opens it, so never indexed or referred. */
export function OrderStatusPage() {
  // useLocation, not useParams: react-router's parts any page uses sit in the first-load chunk.
  const { pathname } = useLocation();
  // As it stands: a token is base64url, and a malformed escape must reach the API's 404, not throw here.
  const token = pathname.slice(ORDER_PAGE_PREFIX.length);
  // A new key asks the API again from "loading": on "Try again", and for another token.
  const [attempt, setAttempt] = useState(0);
  return (
    <>
      <meta name="robots" content="noindex, nofollow" />
      <meta name="referrer" content="no-referrer" />
      {/* A screen tall in every state, so the footer never moves into view when the order
          replaces the prerendered "loading" card with its taller view (no layout shift). */}
      <div className="order-status">
        <OrderStatus key={`${token}#${attempt}`} token={token} onRetry={() => setAttempt((n) => n + 1)} />
      </div>
    </>
  );
}

const askOrder = (api: ApiClient, token: string, signal: AbortSignal) =>
  getOrderPage(api.request, token, signal);

function OrderStatus({ token, onRetry }: { token: string; onRetry: () => void }) {
  const state = useApiAnswer(token, askOrder);
  // Wrong, tampered, revoked or unknown: the plain 404 page any unknown address gets, nothing more.
  if (state.kind === 'not-found') return <NotFoundPage />;
  return (
    <>
      <OrderPageIntro />
      {state.kind === 'loading' ? (
        <LoadingOrder />
      ) : state.kind === 'failed' ? (
        <OrderLoadFailed onRetry={onRetry} />
      ) : isStandingOrderView(state.view) ? (
        <StandingOrderView token={token} initialView={state.view} />
      ) : isDebitPageView(state.view) ? (
        <DebitView view={state.view} />
      ) : (
        <OrderView token={token} initialView={state.view} />
      )}
    </>
  );
}

/**
 * The page's heading, the same element from the prerendered HTML on and its largest text, so the
 * largest paint is the first one, not one after the API answers (LCP; docs/reports/benchmarks.md).
 */
function OrderPageIntro() {
  return (
    <p className="subtitle order-status__intro">
      Your order from payment to your door: its dispatch day, any change to it, and its tracking once it is on
      its way. The link to this page opens your order, so please keep it to yourself.
    </p>
  );
}

/** The build writes the page's HTML in this state: it is what shows until the order arrives. */
function LoadingOrder() {
  return (
    <section className="card card--centered">
      <title>{`Your order · ${SELLER.shopName}`}</title>
      <span className="badge badge--pending" aria-hidden="true">
        <span className="spinner" />
      </span>
      <h1>Your order</h1>
      <p role="status">Loading your order…</p>
    </section>
  );
}

function OrderLoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <section className="card card--centered">
      <title>{`Your order · ${SELLER.shopName}`}</title>
      <FocusHeading>We could not load your order just now</FocusHeading>
      <p>
        Please check your connection and try again. Your confirmation email has your order's details
        meanwhile.
      </p>
      <div className="actions">
        <button type="button" className="button button--primary" onClick={onRetry}>
          Try again
        </button>
      </div>
    </section>
  );
}
