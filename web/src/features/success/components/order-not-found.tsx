import { FocusHeading } from '../../../components/ui/focus-heading';
import { ReturnHomeLink } from './return-home-link';

export function OrderNotFound() {
  return (
    <section className="card card--centered">
      <FocusHeading>We could not find this order</FocusHeading>
      <p>
        The link may be incomplete. If you have paid, your confirmation email has your order reference and
        details.
      </p>
      <ReturnHomeLink />
    </section>
  );
}
