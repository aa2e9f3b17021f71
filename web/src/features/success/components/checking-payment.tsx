import { formatReference } from '../../../../../shared/order-reference';
import { Reference } from '../../../components/ui/reference';
import { useHydrated } from '../../../lib/use-hydrated';

/**
 * The success page until the status answer arrives: the heading, the wait, and the reference. The
 * build writes the page's HTML in this state, so it paints before any script runs; the answer
 * then fills the same card in. The explanation is the card's largest text, larger than any
 * answer's, so the page's largest paint is this first one rather than one after the request.
 */
export function CheckingPayment({ sessionId }: { sessionId: string }) {
  // The HTML is written for no session in particular: the reference comes from the address once
  // the page has hydrated, in a box already the size it will be.
  const hydrated = useHydrated();
  return (
    <section className="card card--centered">
      <span className="badge badge--pending" aria-hidden="true">
        <span className="spinner" />
      </span>
      <h1>Checking your payment...</h1>
      <p role="status">
        We are confirming your payment with our payment provider. This usually takes a moment, so please keep
        this page open: your order details will appear here.
      </p>
      <Reference value={hydrated ? formatReference(sessionId) : '\u00a0'} />
    </section>
  );
}
