import { FocusHeading } from '../../../components/ui/focus-heading';
import { ReturnHomeLink } from './return-home-link';

export function StatusCheckFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <section className="card card--centered">
      <FocusHeading>We could not check your payment just now</FocusHeading>
      <p>
        Please check your connection and try again. If you completed the payment, your confirmation email is
        on its way.
      </p>
      <div className="actions">
        <button type="button" className="button button--primary" onClick={onRetry}>
          Try again
        </button>
        <ReturnHomeLink primary={false} />
      </div>
    </section>
  );
}
